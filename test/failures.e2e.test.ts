import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readLeaderboard, readResultsFile, readSamples } from 'assay/results';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { findOne, tempDir } from './support/helpers.js';

type Json = Record<string, any>;

describe('failed samples and output options', () => {
  it('a metric that fails on one doc makes an errored sample, the rest still count, and the run exits 1', () => {
    const dir = tempDir();
    const task = path.join(dir, 'flaky.task.ts');
    writeFileSync(
      task,
      `import { defineTask } from 'assay';
export default defineTask({
  name: 'flaky',
  docs: [{ q: 'a' }, { q: 'b' }, { q: 'boom' }],
  docToText: (doc) => String(doc.q),
  docToTarget: () => 'x',
  processResults: (doc) => {
    if (doc.q === 'boom') throw new Error('scorer exploded on purpose');
    return { score: doc.q === 'a' ? 1 : 0 };
  },
  aggregation: { score: (items) => items.reduce((a, b) => a + Number(b), 0) / items.length },
  higherIsBetter: { score: true },
});
`,
    );
    const out = tempDir();
    const run = runCli(['run', '--model', 'dummy', '--tasks', task, '--output_path', out, '--log_samples']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('1 samples failed');
    const dirOut = path.join(out, 'dummy');
    const results = readResultsFile(findOne(dirOut, /^results_/));
    expect(results.results.flaky['score,none']).toBe(0.5);
    const samples = readSamples(findOne(dirOut, /^samples_flaky_/));
    expect(samples[2].error).toBe('scorer exploded on purpose');
    expect(readdirSync(dirOut).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('--include_per_example, --write_out and --show_config', () => {
    const out = tempDir();
    const run = runCli([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/generation.jsonl',
      '--output_path',
      out,
      '--include_per_example',
      '--write_out',
      '--show_config',
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      'Task: generation; document 0; context prompt (starting on next line):\nQuestion: Name the capital of France.\nAnswer:',
    );
    const shown = JSON.parse(run.stdout.slice(0, run.stdout.indexOf('\n}\n') + 2));
    expect(shown.configs.generation.task).toBe('generation');
    const leaderboard = readLeaderboard(findOne(path.join(out, 'dummy'), /^leaderboard_.*\.json$/));
    expect(leaderboard.tasks.generation.examples).toHaveLength(6);
    expect(leaderboard.tasks.generation.examples?.[0]).toMatchObject({ doc_id: 0, target: "['Paris']" });
  });
});
