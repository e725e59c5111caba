/**
 * A command loads only the modules it uses (issues 29 and 33): the static import graph from each
 * command's entry (static-imports.ts) does not reach the backends, servers, the viewer, exporters, the
 * judge stage, the results contract's schemas or their packages. Each of those is reached only through a
 * dynamic `import()` where it is chosen; an import that makes one of them static fails here with the chain
 * that reaches it. Node's own count of what a command loads is `npm run bench -- startup` (BENCHMARKS.md).
 */
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/helpers.js';
import { chainTo, type Reached, reachableFrom, staticImports } from './static-imports.js';

/** The files of `reached` under one of the `forbidden` prefixes, each with the chain that reaches it. */
function forbiddenIn(reached: Reached, forbidden: string[], allowed: string[] = []): string[] {
  return [...reached.files]
    .filter((file) => forbidden.some((prefix) => file.startsWith(prefix)) && !allowed.includes(file))
    .sort()
    .map((file) => chainTo(reached, file));
}

/** Packages a run chooses (a backend, a server, a store, a format, a terminal) and never needs up front. */
const CHOSEN_PACKAGES = [
  '@hono/node-server',
  '@huggingface/hub',
  '@huggingface/tokenizers',
  'better-sqlite3',
  'cli-progress',
  'csv-parse',
  'hono',
  'hyparquet',
  'hyparquet-compressors',
  'node-llama-cpp',
  'undici',
];

describe('what a command loads before it runs', () => {
  it('the entry, before the command is known: no package, no library module', () => {
    // main.ts imports listing-replay.ts for a listing and program.ts (commander, the option tables) after.
    const reached = reachableFrom(repoRoot, ['src/cli/main.ts']);
    expect([...reached.packages]).toEqual([]);
    expect([...reached.files].sort()).toEqual(['src/cli/command-line.ts', 'src/cli/main.ts']);
  });

  it('a listing replayed: no package, no option table, no task loader or index', () => {
    const reached = reachableFrom(repoRoot, ['src/cli/main.ts', 'src/cli/listing-replay.ts']);
    expect([...reached.packages]).toEqual([]);
    expect(
      forbiddenIn(reached, [
        'src/cli/program.ts',
        'src/cli/command-flags.ts',
        'src/cli/run-flags.ts',
        'src/tasks/index.ts',
        'src/tasks/overrides.ts',
        'src/tasks/root-walk.ts',
        'src/tasks/yaml-loader.ts',
        'src/models/',
        'src/metrics/',
        'src/results/',
      ]),
    ).toEqual([]);
  });

  it('assay --help: the option tables and commander, no library stage, no zod', () => {
    const reached = reachableFrom(repoRoot, ['src/cli/main.ts', 'src/cli/program.ts']);
    expect([...reached.packages]).toEqual(['commander']);
    expect(
      forbiddenIn(reached, [
        'src/models/backend.ts',
        'src/models/spec/',
        'src/tasks/',
        'src/metrics/',
        'src/results/',
        'src/python/',
      ]),
    ).toEqual([]);
  });

  it('assay ls tasks: the task index, no YAML reader (a scan is behind import()), metric, schema or backend spec', () => {
    // A warm listing reads cached scans: the YAML reader loads only for a folder that must be scanned.
    const reached = reachableFrom(repoRoot, [
      'src/cli/main.ts',
      'src/cli/listing-replay.ts',
      'src/cli/program.ts',
      'src/cli/ls.ts',
    ]);
    expect([...reached.packages].sort()).toEqual(['commander']);
    expect(
      forbiddenIn(reached, [
        'src/tasks/yaml-loader.ts',
        'src/tasks/root-scan.ts',
        'src/tasks/config-compare.ts',
        'src/models/backend.ts',
        'src/models/spec/',
        'src/metrics/',
        'src/results/',
        'src/python/python-runtime.ts',
        'src/tasks/schema.ts',
      ]),
    ).toEqual([]);
  });

  it('assay run --tasks list: the listing as assay ls loads it, none of the run', () => {
    // program.ts imports run-listing.ts first and run.ts only for tasks to run.
    const reached = reachableFrom(repoRoot, [
      'src/cli/main.ts',
      'src/cli/listing-replay.ts',
      'src/cli/program.ts',
      'src/cli/run-listing.ts',
    ]);
    expect([...reached.packages].sort()).toEqual(['commander']);
    expect(
      forbiddenIn(reached, [
        'src/tasks/yaml-loader.ts',
        'src/cli/run.ts',
        'src/cli/progress.ts',
        'src/run/',
        'src/evaluate/run-options.ts',
        'src/models/backend.ts',
        'src/metrics/',
        'src/tasks/schema.ts',
      ]),
    ).toEqual([]);
  });

  it('assay run --model dummy: no other backend, server, viewer, exporter, judge stage or results schema', () => {
    // The command, and the stages every run imports dynamically: evaluation, the report, the dummy
    // backend and both task loaders.
    const reached = reachableFrom(repoRoot, [
      'src/cli/main.ts',
      'src/cli/program.ts',
      'src/cli/run.ts',
      'src/evaluate/run-evaluation.ts',
      'src/report/run-output.ts',
      'src/models/dummy/dummy-backend.ts',
      'src/tasks/jsonl-task.ts',
      'src/tasks/yaml-task.ts',
    ]);
    expect([...reached.packages].filter((name) => CHOSEN_PACKAGES.includes(name))).toEqual([]);
    expect(
      forbiddenIn(
        reached,
        [
          'src/models/gguf/',
          'src/models/http/',
          'src/models/managed-server/',
          'src/models/caching-backend.ts',
          'src/cache/',
          'src/serve/',
          'src/view/',
          'src/kld/',
          'src/suite/',
          'src/export/',
          'src/sandbox/',
          'src/data/hub/client.ts',
          'src/evaluate/judge-stage.ts',
          'src/evaluate/perplexity/stage.ts',
          'src/results/schema.ts',
          'src/results/results-file.ts',
          'src/results/read-run.ts',
          'src/results/read-samples.ts',
          'src/python/worker-process.ts',
        ],
        [
          // The flags' checks of --hf_hub_log_args, before the run (export/ itself loads when it pushes).
          'src/export/hub-settings.ts',
          // The plain shapes scoring looks for; the sandbox itself loads for an unsafe_code task.
          'src/sandbox/code-score-request.ts',
          'src/sandbox/io-tests.ts',
          'src/sandbox/types.ts',
        ],
      ),
    ).toEqual([]);
  });

  it('the walk reaches what a static import reaches, and stops at import() and erased type imports', () => {
    // The judge stage, loaded on demand by the run, statically loads the run reader for its baselines.
    const judge = reachableFrom(repoRoot, ['src/evaluate/judge-stage.ts']);
    expect(judge.files.has('src/results/read-run.ts')).toBe(true);
    expect(judge.packages.has('zod')).toBe(true);
    expect(
      staticImports(
        [
          "import { a } from './a.js';",
          "import type { B } from './b.js';",
          "import { type C, type D } from './c.js';",
          "import { type E, f } from './e.js';",
          "export * from './g.js';",
          "export type { H } from './h.js';",
          "import './side-effect.js';",
          "const lazy = await import('./lazy.js');",
          'import {',
          '  x,',
          '  y,',
          "} from './multi.js';",
        ].join('\n'),
      ),
    ).toEqual(['./a.js', './e.js', './g.js', './side-effect.js', './multi.js']);
  });
});
