/**
 * The one rule for tests that need a real component (python3, bubblewrap, chromium): where it is absent
 * they skip with "skipped: <name> not installed", except under CI=true, where a failing test says that CI
 * must provide it. Call it once per test file, then guard the file's suites with `describe.skipIf(!present)`.
 */
import { describe, it } from 'vitest';

export function requireComponent(name: string, present: boolean): boolean {
  if (present) return true;
  if (process.env.CI === 'true') {
    describe(`${name} is installed`, () => {
      it(`has ${name} under CI`, () => {
        throw new Error(`${name} is required under CI=true (.ci/run installs it)`);
      });
    });
  } else {
    console.log(`skipped: ${name} not installed`);
  }
  return false;
}
