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
  // A 20-model × 60-task suite leaderboard painted under 2 s in Chromium (issue 30).
  'test/viewer-suite-render.e2e.test.ts',
];

/**
 * Every file runs in parallel with the others, on ports the OS picks (listen(0)), in temporary folders of its own.
 * Most of the suite waits on child processes (CLI runs, GGUF engines, Python, sandboxes), loopback servers
 * and timers, so two workers more than the two cores keep them busy. Measured on this 2-core machine, whole
 * suite with the files shared as below: 3 workers 135 s, 4 workers 117 and 117 s, 5 workers 121 s.
 */
const MAX_WORKERS = 4;

/**
 * Files run without per-file isolation (`isolate: false`): a worker runs several files in one process and
 * imports shared modules (vitest's runtime, zod, node-llama-cpp, the CLI) once, instead of a fork and a
 * fresh module graph per file. A file that leaves the process changed runs alone: one that writes
 * process.env, calls process.chdir, mocks a module or registers a process signal handler (itself or in a
 * helper under test/ it imports), or installs fake timers, stubs a global or leaves a spy without the call
 * that undoes it in the same file (vi.useRealTimers, vi.unstubAllGlobals/unstubAllEnvs, mockRestore or
 * vi.restoreAllMocks), is listed in `isolated` (or `timed`). test/house-rules/isolation.test.ts holds this
 * list to that rule (test/house-rules/isolation.ts) and names a file that breaks it; process.exitCode saved
 * and restored is fine. Measured on this machine, whole suite at 3 workers: every file isolated but the
 * unit folders 144.5 s wall and 229 s user CPU, all shared but `isolated` 135 s and 204 s.
 */
const isolated = [
  // process.chdir and PYTHONPATH.
  'src/tasks/lm-eval-tree.test.ts',
  // process.env (the hub's variables).
  'src/cli/run.test.ts',
  // Loads a model in this process and reads llama.cpp's log, which node-llama-cpp routes to the first
  // Llama instance of a process only.
  'src/models/gguf/model-file.test.ts',
  // process.chdir.
  'src/data/local-dataset.test.ts',
  // process.env (ASSAY_CACHE_DIR) and process.chdir.
  'src/cli/listing-replay.test.ts',
  'test/options.e2e.test.ts',
  // process.env: the Hub's variables, PATH, PYTHONPATH.
  'test/builtin-tasks/parity.test.ts',
  'test/managed-server.test.ts',
  'test/python-missing-packages.e2e.test.ts',
  'test/python-tasks.e2e.test.ts',
  // process.env: MLFLOW_TRACKING_URI for `assay export` run in this process.
  'test/export-partial.test.ts',
  // process.env: PYTHONPATH for the worker of the conformance case with an installed scikit-learn.
  'src/python/bridge.test.ts',
  // vi.mock of the YAML loader: a wrapper that edits a file right after another loads, mid-scan.
  'src/tasks/index-race.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's default of 1 s is shorter than a browser page's update takes when the suite loads
    // both cores (the viewer's paired tests after a baseline change). A poll whose expected value never
    // comes fails after this long: it bounds the wait, not what is checked.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // Vitest keeps each transformed module in node_modules/.experimental-vitest-cache, keyed by the
    // file's content, its id and the configuration, so a rerun transforms only what changed. Measured
    // here, whole suite: the summed transform time went from 20.1 s to 3.8 s and import from 45.0 s to
    // 27.2 s, 14 CPU s less of about 190. A clean clone (CI) fills it on its first run. We have no Vite
    // plugins, the case its documentation names as able to leave an entry stale; `vitest --clearCache`
    // empties it.
    experimental: { fsModuleCache: true },
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...timed, ...isolated],
          isolate: false,
          maxWorkers: MAX_WORKERS,
        },
      },
      {
        // The files that must keep a process of their own.
        extends: true,
        test: { name: 'isolated', include: isolated, exclude: timed, maxWorkers: MAX_WORKERS },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: timed,
          maxWorkers: 2,
          // After the other projects (group 0), which share the cores among themselves.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
