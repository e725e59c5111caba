/**
 * Runs the bridge conformance suites (every way lm-eval calls task code, and task code that misbehaves) on
 * every Python interpreter found (python3 on PATH, the system's /usr/bin/python3, ASSAY_TEST_PYTHONS);
 * without any it skips, and fails under CI=true.
 */
import { describe, it } from 'vitest';
import { runBridgeConformance, testInterpreters } from '../../test/fixtures/python/bridge.conformance.js';
import { runBridgeFailureConformance } from '../../test/fixtures/python/bridge-failures.conformance.js';

const interpreters = testInterpreters();
if (interpreters.length === 0) {
  if (process.env.CI === 'true') {
    describe('Python bridge', () => {
      it('has an interpreter under CI', () => {
        throw new Error('python3 is required under CI=true');
      });
    });
  } else {
    console.log('skipped: python3 not installed');
  }
}
for (const python of interpreters) {
  runBridgeConformance({ python });
  runBridgeFailureConformance({ python });
}
