/**
 * `assay merge` of capped shards, in process: a run under --max_latency_s split in two shards and merged
 * keeps what one unsharded capped run records about its timed-out docs (results, sample logs,
 * leaderboard), and the merged files read back under the one results contract.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClockedBackend } from '../../../test/fakes/clocked-backend.js';
import { readSampleLog } from '../../results/read-samples.js';
import { leaderboardSchema, resultsFileSchema } from '../../results/schema.js';
import { simpleEvaluate } from '../../run/evaluate.js';
import { mergeShards } from './merge-shards.js';

describe('assay merge of runs under --max_latency_s', () => {
  it('keeps the timeouts: per task, the block, partial, the timed-out lines and the leaderboard counts', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-merge-latency-'));
    const task = path.join(directory, 'echo.jsonl');
    await writeFile(
      task,
      [
        '{"id": 0, "prompt": "say one", "targets": ["one"], "metric": "exact_match"}',
        '{"id": 1, "prompt": "say slow", "targets": ["slow"], "metric": "exact_match"}',
        '{"id": 2, "prompt": "say three", "targets": ["3"], "metric": "exact_match"}',
        '{"id": 3, "prompt": "say four", "targets": ["four"], "metric": "exact_match"}',
        '{"id": 4, "prompt": "say slow again", "targets": ["again"], "metric": "exact_match"}',
        '',
      ].join('\n'),
    );
    const common = { tasks: [task], maxLatencyS: 0.2, logSamples: true, bootstrapIters: 0 };
    const shards = ['0/2', '1/2'].map((shard) => path.join(directory, `shard-${shard[0]}`));
    for (const [index, outputPath] of shards.entries()) {
      await simpleEvaluate({
        ...common,
        model: new ClockedBackend(),
        shard: { index, count: 2 },
        outputPath,
      });
    }
    const merged = await mergeShards({ shards, outputPath: path.join(directory, 'merged') });

    // What the one run would say: 5 docs, 2 over the cap (ids 1 and 4), 2 of the 3 others right.
    const entry = merged.results.results.echo;
    expect(entry['exact_match,none']).toBeCloseTo(2 / 3, 15);
    expect(entry).toMatchObject({
      timeouts: 2,
      partial: true,
      answered: 3,
      note: 'metrics over the 3 docs answered in time of 5; 2 timed out count in no metric',
    });
    expect(entry).not.toHaveProperty('errors');
    expect(merged.results.timeouts).toEqual({ max_latency_s: 0.2, samples: 2, by_task: { echo: 2 } });
    expect(merged.results.partial).toBe(true);
    expect(merged.results.errors.samples).toBe(0);

    // The files it wrote, read back under the contract.
    const read = resultsFileSchema.parse(JSON.parse(await readFile(merged.files.results, 'utf8')));
    expect(read.timeouts).toEqual(merged.results.timeouts);
    const lines = readSampleLog(merged.files.samples[0]);
    expect(lines.map((line) => [line.doc_id, line.timed_out])).toEqual([
      [0, undefined],
      [1, true],
      [2, undefined],
      [3, undefined],
      [4, true],
    ]);
    const leaderboard = leaderboardSchema.parse(
      JSON.parse(await readFile(merged.files.leaderboard as string, 'utf8')),
    );
    expect(leaderboard).toMatchObject({ errors: 0, timeouts: 2, partial: true });
    expect(leaderboard.tasks.echo).toMatchObject({ n: 3, correct: 2, errors: 0, timeouts: 2 });
    // The content hash the shards' manifest recorded (config and data), not a re-read of the file.
    expect(leaderboard.tasks.echo.sha256).toBe(read.manifest?.tasks?.echo?.sha256);
  });

  it('refuses shards with llm_judge metrics, naming the shard, the tasks and what it cannot rebuild', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-merge-judged-'));
    const task = path.join(directory, 'echo.jsonl');
    await writeFile(
      task,
      [
        '{"id": 0, "prompt": "say one", "targets": ["one"], "metric": "exact_match"}',
        '{"id": 1, "prompt": "say two", "targets": ["two"], "metric": "exact_match"}',
        '',
      ].join('\n'),
    );
    const shards = [0, 1].map((index) => path.join(directory, `shard-${index}`));
    for (const [index, outputPath] of shards.entries()) {
      await simpleEvaluate({
        tasks: [task],
        logSamples: true,
        bootstrapIters: 0,
        model: new ClockedBackend(),
        shard: { index, count: 2 },
        outputPath,
      });
    }
    // Shard 1 as a judged run records it: results.json `judges` for the task.
    const shardDir = path.join(shards[1], (await readdir(shards[1]))[0]);
    const resultsName = (await readdir(shardDir)).find((name) => name.startsWith('results_')) as string;
    const resultsFile = path.join(shardDir, resultsName);
    const results = JSON.parse(await readFile(resultsFile, 'utf8'));
    results.judges = {
      echo: [
        { metric: 'llm_judge', model: 'dummy', model_args: {}, rubric_sha256: 'a'.repeat(64), errored: 0 },
      ],
    };
    await writeFile(resultsFile, JSON.stringify(results));
    await expect(mergeShards({ shards, outputPath: path.join(directory, 'merged') })).rejects.toThrow(
      `shard 1/2 (${resultsFile}) has llm_judge metrics (tasks echo), and assay merge does not rebuild the results' \`judges\` block (judge agreement, PPI++ estimate, judge usage) from shards; run the judged tasks unsharded`,
    );
  });
});
