import { defineConfig } from 'vitest/config';

/**
 * Test files that time themselves against a wall-clock bound (a render under 1 s, a YAML bomb refused
 * under 2 s, an HTTP deadline between 1.9 and 3.5 s, a sandbox timeout within 1.5 s of its limit…). They
 * run in a project of their own, which vitest starts after the parallel files are done, two files at a
 * time: one per core, so that no file of this run competes with another for a core while they measure
 * (one worker left a core idle for the 17 s these files take, most of it spent waiting on timeouts).
 */
const timed = [
  'src/prompts/template.test.ts',
  'src/tasks/yaml-loader.test.ts',
  'src/evaluate/latency-cap.test.ts',
  'src/sandbox/run-program.test.ts',
  'src/sandbox/adversarial.test.ts',
  'test/http-reliability.test.ts',
];

/**
 * Every other file runs in parallel: each in its own forked process (so process.env, process.chdir and
 * loaded native modules are per file), on ports the OS picks (listen(0)), in temporary folders of its own.
 * Most of the suite waits on child processes, loopback servers and timers, so one worker more than the two
 * cores keeps them busy. Measured on this 2-core machine over 29 files (gguf, perplexity, kld, viewer,
 * http-e2e, cluster, red-team, python, data, results): 2 workers 160 s, 3 workers 110 s, 4 workers 123 s
 * wall, each about 140 CPU s.
 */
const MAX_WORKERS = 3;

/**
 * Pure unit folders, run without per-file isolation (`isolate: false`): a worker runs several of their files
 * in one process and imports shared modules once, instead of a fork and a fresh module graph per file.
 * Audited for what would leak from one file to the next (grep of their tests): none sets process.env, calls
 * process.chdir, installs fake timers, stubs globals or modules, registers signal handlers or sets
 * process.exitCode; the files that do are listed in `isolated` and keep a process of their own (a new test
 * file here that does any of these goes there too). Measured on this machine: the 82 files of the first ten
 * folders 64 -> 37 CPU s, the 15 of cli and models 14.0 -> 11.9 CPU s.
 */
const shared = [
  'src/stats/**/*.test.ts',
  'src/metrics/**/*.test.ts',
  'src/results/**/*.test.ts',
  'src/evaluate/**/*.test.ts',
  'src/util/**/*.test.ts',
  'src/view/**/*.test.ts',
  'src/export/**/*.test.ts',
  'src/cache/**/*.test.ts',
  'src/tasks/**/*.test.ts',
  'src/prompts/**/*.test.ts',
  'src/cli/**/*.test.ts',
  'src/models/dummy/**/*.test.ts',
  'src/models/tokenizers/**/*.test.ts',
  'src/models/managed-server/**/*.test.ts',
  'src/models/run-settings.test.ts',
  'src/models/caching-backend.test.ts',
  'src/models/gguf/writer.test.ts',
  'src/models/gguf/token-requests.test.ts',
  'src/models/gguf/model-file.test.ts',
];
const isolated = [
  // process.chdir and PYTHONPATH.
  'src/tasks/lm-eval-tree.test.ts',
  // vi.spyOn(performance, 'now') without a restore.
  'src/results/leaderboard.test.ts',
  // process.exitCode and process.stderr.
  'src/cli/main.test.ts',
  // process.env (the hub's variables).
  'src/cli/run.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's default of 1 s is shorter than a browser page's update takes when the suite loads
    // both cores (the viewer's paired tests after a baseline change); a poll still fails at once on a
    // wrong final value only after this long, so it is a bound on waiting, not on correctness.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...timed, ...shared],
          maxWorkers: MAX_WORKERS,
        },
      },
      {
        // The files of the shared folders that must keep a process of their own.
        extends: true,
        test: { name: 'isolated', include: isolated, exclude: timed, maxWorkers: MAX_WORKERS },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: shared,
          exclude: [...timed, ...isolated],
          isolate: false,
          maxWorkers: MAX_WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: timed,
          maxWorkers: 2,
        },
      },
    ],
  },
});
