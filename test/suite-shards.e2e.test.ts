/**
 * `assay suite run --shard auto` on a simulated cluster: shard 0 as a Slurm array task (docs/cluster.md's
 * sbatch script, run by bash with the variables sbatch sets), shard 1 as a Kubernetes Indexed Job pod,
 * then `assay suite merge` (the doc's merge script). The merged suite is the unsharded one: the same cells with the same values.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSuiteSummary } from '../src/results/read-suite-summary.js';
import { fakeServerBin } from './fakes/inference-server-bin.js';
import { runCli } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';
import { NO_SCHEDULER } from './support/shards.js';
import { writeAlwaysATask } from './support/suite-fixtures.js';

const doc = readFileSync(path.join(repoRoot, 'docs', 'cluster.md'), 'utf8');
/** The fenced block after `<!-- cluster.md: NAME -->`. */
function block(name: string): string {
  const match = new RegExp(`<!-- cluster\\.md: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/cluster.md has no block ${name}`);
  return match[1];
}

const writeTask = writeAlwaysATask;

describe('assay suite run --shard auto and assay suite merge', () => {
  it('spreads the cells over a Slurm array task and an Indexed Job pod, and merges them into the unsharded suite', () => {
    const dir = tempDir('assay-suite-shards-');
    for (const [name, n] of [
      ['alpha', 12],
      ['beta', 9],
      ['gamma', 7],
    ] as const)
      writeTask(dir, name, n);
    writeFileSync(
      path.join(dir, 'suite.yaml'),
      `version: 1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: dummy, model_args: { seed: 1 } }
  - { name: m2, model: dummy, model_args: { seed: 2 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
  - { name: beta, task: beta.jsonl }
  - { name: gamma, task: gamma.jsonl }
`,
    );
    const run = (args: string[], env: Record<string, string | undefined> = {}) =>
      runCli(['suite', ...args], { cwd: dir, env: { ...NO_SCHEDULER, ...env } });

    const whole = run(['run', 'suite.yaml', '--suite', 'whole', '--quiet']);
    expect(whole.status, whole.stderr).toBe(0);

    // Slurm: docs/cluster.md's script as array task 0 of `--array=0-1`: the first half of the cells, m1's three.
    const slurmEnv = {
      ...process.env,
      ...Object.fromEntries(Object.keys(NO_SCHEDULER).map((name) => [name, ''])),
      PATH: `${fakeServerBin()}${path.delimiter}${process.env.PATH}`,
      SUITE_FILE: 'suite.yaml',
      NAME: 's',
    };
    const bash = (script: string, env: NodeJS.ProcessEnv) => {
      const result = spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const first = bash(block('suite-slurm'), {
      ...slurmEnv,
      SLURM_ARRAY_TASK_ID: '0',
      SLURM_ARRAY_TASK_COUNT: '2',
      SLURM_ARRAY_TASK_MIN: '0',
      SLURM_ARRAY_TASK_MAX: '1',
    });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('suite: 3 cells, 3 to run, 0 skipped');
    expect(first.stderr).toContain('assay suite merge s');
    const shards = path.join(dir, 'suites', 's', 'shards');
    expect(readdirSync(path.join(shards, '0-of-2')).sort()).toEqual([
      'm1',
      'suite.json',
      'suite.yaml',
      'suite_manifest.json',
    ]);

    // Merging before every shard is there is refused, naming the one missing.
    const early = run(['merge', 's']);
    expect(early.status).toBe(2);
    expect(early.stderr).toContain('suite s: shard 1-of-2 missing from');

    // Kubernetes: an Indexed Job with completions: 2; the pod of index 1 runs m2's three cells.
    const second = run(['run', 'suite.yaml', '--suite', 's', '--shard', 'auto'], {
      JOB_COMPLETION_INDEX: '1',
      ASSAY_SHARD_COUNT: '2',
    });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain('suite: 3 cells, 3 to run, 0 skipped');
    expect(readdirSync(path.join(shards, '1-of-2')).filter((entry) => !entry.startsWith('suite'))).toEqual([
      'm2',
    ]);

    const merged = bash(block('suite-slurm-merge'), slurmEnv);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toContain('merged 2 shards into');
    expect(merged.stderr).toContain(': 6 cells merged\n');
    expect(existsSync(path.join(dir, 'suites', 's', 'suite_manifest.json'))).toBe(true);

    // After the merge, a shard finds its cells finished in the suite's folder and runs nothing.
    const again = run(['run', 'suite.yaml', '--suite', 's', '--shard', '0/2']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('suite: 3 cells, 0 to run, 3 skipped');

    // The merge script summarized s; whole is summarized here.
    expect(existsSync(path.join(dir, 'suites', 's', 'summary.json'))).toBe(true);
    expect(run(['summarize', 'whole', '--quiet']).status).toBe(0);
    const cells = (name: string) =>
      readSuiteSummary(path.join(dir, 'suites', name, 'summary.json')).cells.map((cell) => [
        cell.model,
        cell.task,
        cell.status,
        cell.n,
        cell.value,
      ]);
    expect(cells('s')).toEqual(cells('whole'));
    expect(cells('s')).toHaveLength(6);
    // And the diff of the two sees every score paired, none moved.
    const diff = run(['diff', 'whole', 's']);
    expect(diff.stdout).toContain('no score moved beyond its interval (6 compared)');
    // Eleven CLI runs: about 32 s alone, past the default 60 s beside other test files on a loaded machine.
  }, 240_000);
});
