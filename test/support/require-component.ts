/**
 * The one rule for tests that need a component the machine may lack (an interpreter, bubblewrap, chromium,
 * the native scorer, the ../shared models): call requireComponent once per file with the probe's answer,
 * then guard the suites with `describe.skipIf(!present)` / `it.skipIf(!present)` on the value it returns.
 * Where the component is absent the tests skip with "skipped: <name> …" and where it comes from. Under
 * CI=true every call adds a test that the component is there, which fails when it is not: CI installs or
 * provides each of them (.ci/run, npm ci, ../shared beside the clone), except the few COMPONENTS says CI
 * runs without (`ciLacks`), which skip there too. test/house-rules/component-skips.ts refuses a test file
 * that skips by a rule of its own (reads CI, `.skip`, a condition not from here, an early return on a
 * missing file).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

export type ComponentName =
  | 'python3'
  | 'python3-jinja2'
  | 'second Python interpreter'
  | 'bubblewrap'
  | 'chromium'
  | 'script (bsdutils)'
  | 'native scorer'
  | 'stories260K'
  | 'llama-2-tiny-random'
  | 'stats vectors'
  | 'lm-eval checkout';

interface Component {
  /** Where it comes from. */
  source: string;
  /** Why CI runs without it; absent: CI has it, and its tests fail there without it. */
  ciLacks?: string;
}

const SHARED = 'CI runs with ../shared beside its clone';

export const COMPONENTS: Record<ComponentName, Component> = {
  python3: {
    source: "a python3 on PATH, /usr/bin/python3 or ASSAY_TEST_PYTHONS; .ci/run installs Debian's python3",
  },
  'python3-jinja2': { source: "a python3 with jinja2; .ci/run installs Debian's python3-jinja2" },
  'second Python interpreter': {
    source: 'ASSAY_TEST_PYTHONS, or a python3 on PATH besides /usr/bin/python3',
    ciLacks: "CI has Debian's python3 only",
  },
  bubblewrap: { source: "bubblewrap and util-linux's prlimit; .ci/run installs Debian's" },
  chromium: { source: "/usr/bin/chromium; .ci/run installs Debian's chromium" },
  'script (bsdutils)': {
    source: "util-linux's script, in Debian's essential bsdutils package (every Debian has it)",
  },
  'native scorer': {
    source: "assay's llama.cpp addon, built by npm ci's postinstall (npm run build:native)",
  },
  stories260K: { source: `../shared/models/stories260K.gguf; ${SHARED}` },
  'llama-2-tiny-random': { source: `../shared/models/llama-2-tiny-random.gguf; ${SHARED}` },
  'stats vectors': {
    source: `../shared/reference/stats_vectors.json (SciPy/NumPy reference cases); ${SHARED}`,
  },
  'lm-eval checkout': {
    source: 'LM_EVAL_SRC, a checkout of lm-evaluation-harness that python3 can import',
    ciLacks: '.ci/run has no lm-eval checkout, and tests never download',
  },
};

/**
 * Whether the component is there (`available`, or a probe's `{ available, reason }`), after registering
 * what CI requires of it. Call it at the top of the test file (or of a describe), never inside a test.
 */
export function requireComponent(
  name: ComponentName,
  probe: boolean | { available: boolean; reason?: string },
): boolean {
  const { available, reason } = typeof probe === 'boolean' ? { available: probe, reason: undefined } : probe;
  const component = COMPONENTS[name];
  const why = reason ? ` (${reason})` : '';
  if (process.env.CI === 'true' && !component.ciLacks) {
    describe(`${name}, which CI provides`, () => {
      it('is available', () => {
        if (!available) throw new Error(`${name} is missing${why}; it comes from ${component.source}`);
      });
    });
  } else if (!available) {
    const underCi = process.env.CI === 'true' ? `; CI runs without it: ${component.ciLacks}` : '';
    console.log(`skipped: ${name} not available${why}; it comes from ${component.source}${underCi}`);
  }
  return available;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A file of the shared folder (models, reference data): ../shared beside this checkout, as CI has it, or
 * beside the folder that holds it (a worktree); the first of those paths when neither has the file.
 */
export function sharedFile(...parts: string[]): string {
  const candidates = ['..', path.join('..', '..')].map((up) => path.join(repoRoot, up, 'shared', ...parts));
  return candidates.find((file) => existsSync(file)) ?? candidates[0];
}
