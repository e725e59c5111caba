import { defineConfig } from 'vitest/config';

/**
 * Test files that time themselves against a wall-clock bound (a render under 1 s, a YAML bomb refused
 * under 2 s, an HTTP deadline between 1.9 and 3.5 s, a sandbox timeout within 1.5 s of its limit…). They
 * run in a project of their own with one worker, which vitest starts after the parallel files are done,
 * so that no other test file of this run competes for the CPU while they measure.
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

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: timed,
          maxWorkers: MAX_WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: timed,
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
