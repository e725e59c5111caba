/**
 * Runs the bridge conformance suites (every way lm-eval calls task code, and task code that misbehaves) on
 * every Python interpreter found (python3 on PATH, the system's /usr/bin/python3, ASSAY_TEST_PYTHONS);
 * without any it skips, and fails under CI=true.
 */

import { runBridgeConformance } from '../../test/conformance/python-bridge.js';
import { runBridgeFailureConformance } from '../../test/conformance/python-bridge-failures.js';
import { testInterpreters } from '../../test/support/python-interpreters.js';
import { requireComponent } from '../../test/support/require-component.js';

const interpreters = testInterpreters();
requireComponent('python3', interpreters.length > 0);
for (const python of interpreters) {
  runBridgeConformance({ python });
  runBridgeFailureConformance({ python });
}
