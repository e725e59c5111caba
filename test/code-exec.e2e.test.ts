/** The real CLI on the shipped code_exec example: the unsafe_code gate, the sandboxed run, its records. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/sandbox/bubblewrap.js';
import { sandboxOptions } from '../src/sandbox/sandbox.js';
import { runCli } from './support/cli.js';
import { findOne, repoRoot, tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const example = path.join(repoRoot, 'examples', 'tasks', 'code-exec.jsonl');
const bubblewrap = requireComponent('bubblewrap', probeSandbox(sandboxOptions()));

describe('assay run on code tasks', () => {
  it('refuses an unsafe_code task without --confirm_run_unsafe_code (exit 2)', () => {
    const result = runCli(['run', '--model', 'dummy', '--tasks', example]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'task code-exec is marked unsafe_code: it runs model-written code. Pass --confirm_run_unsafe_code to run it (in the bubblewrap sandbox)',
    );
  });

  it.skipIf(!bubblewrap)('runs the programs in bubblewrap and records outcomes and isolation', () => {
    const out = tempDir();
    const result = runCli([
      'run',
      '--model',
      'dummy',
      '--tasks',
      example,
      '--confirm_run_unsafe_code',
      '--code_timeout',
      '5',
      '--code_memory',
      '1536M',
      '--log_samples',
      '-o',
      out,
    ]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('|code-exec|None   |none  |     0|code_exec|↑  |0.0000|±  |0.0000|');
    const directory = path.join(out, 'dummy');
    const results = JSON.parse(readFileSync(findOne(directory, /^results_.*\.json$/), 'utf8'));
    expect(results.manifest.code_execution).toMatchObject({
      isolation: 'bubblewrap',
      warning: null,
      limits: { timeoutMs: 5000, cpuSeconds: 5, memoryBytes: 1536 * 1024 ** 2 },
      memory: { bound_bytes: 1536 * 1024 ** 2 },
    });
    // Which mechanism held the bound depends on the machine; the manifest names it and says how.
    const { memory } = results.manifest.code_execution;
    expect(memory.detail.startsWith(memory.mechanism === 'cgroup_v2' ? 'cgroup v2: ' : 'RLIMIT_AS: ')).toBe(
      true,
    );
    expect(['cgroup_v2', 'rlimit_as']).toContain(memory.mechanism);
    const samples = readFileSync(findOne(directory, /^samples_code-exec_.*\.jsonl$/), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The dummy model's words are not code: every line is an error with the interpreter's reason.
    expect(samples.map((line) => line.execution[0].status)).toEqual(['error', 'error', 'error', 'error']);
    expect(samples[0].execution[0].message).toBe('IndentationError: unexpected indent (0/3 tests passed)');
  });
});
