/**
 * The per-request latency cap (`maxLatencyS`), at the request-execution layer and through a whole run:
 * a request not answered in time is aborted, its doc is timed out (neither wrong nor an error), and the
 * metrics are over the docs answered in time, as the results, the table and the sample log say.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClockedBackend } from '../../test/fakes/clocked-backend.js';
import { withFlagNames } from '../cli/errors.js';
import { buildLeaderboard } from '../results/leaderboard.js';
import { leaderboardSchema, resultsFileSchema, sampleLineSchema } from '../results/schema.js';
import { makeTable } from '../results/table.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { executeRequests } from './execute.js';
import { LatencyTimeout } from './latency-cap.js';
import type { Instance } from './requests.js';
import { latencyOf, type TaskResponses } from './responses.js';

const generation = (docId: number, context: string): Instance => ({
  id: docId,
  task: 't',
  docId,
  index: 0,
  repeats: 1,
  args: {
    type: 'generate_until',
    context,
    generation: { context, until: ['\n'], maxGenToks: 8, temperature: 0, doSample: false, extra: {} },
  },
});

describe('executeRequests with a latency cap', () => {
  it('sends each request alone, aborts the one over the cap and marks it timed out', async () => {
    const backend = new ClockedBackend({ concurrency: 2, slowMs: 5000 });
    const instances = [
      generation(0, 'say one'),
      generation(1, 'say slow'),
      generation(2, 'say three'),
      generation(3, 'say four'),
    ];
    const started = performance.now();
    const { responses } = await executeRequests(backend, instances, undefined, { maxLatencyS: 0.2 });
    const seconds = (performance.now() - started) / 1000;
    const answers = responses.get('t');
    expect(instances.map((instance) => answers?.resps[instance.id])).toEqual([
      [' one'],
      [new LatencyTimeout(0.2)],
      [' three'],
      [' four'],
    ]);
    expect(backend.aborted).toEqual(['say slow']);
    // One request per call, never more in flight than the backend serves at once.
    expect(backend.calls.every((call) => call.length === 1)).toBe(true);
    expect(backend.peak).toBeLessThanOrEqual(2);
    // The slow request costs the cap, not its 5 s.
    expect(seconds).toBeLessThan(2);
  });

  it('times each request alone: the timed-out one costs the cap, answers in flight beside it do not', async () => {
    const backend = new ClockedBackend({ concurrency: 2, slowMs: 5000 });
    // The slow request is the longest, so it is sent first, with quick ones finishing around it.
    const instances = [
      generation(0, 'say slow, and then a much longer prompt'),
      generation(1, 'say one'),
      generation(2, 'say two'),
      generation(3, 'say six'),
    ];
    const { responses } = await executeRequests(backend, instances, undefined, { maxLatencyS: 0.2 });
    const answers = responses.get('t');
    expect(answers?.resps[instances[0].id]).toEqual([new LatencyTimeout(0.2)]);
    const [slow, ...quick] = instances.map((instance) => latencyOf(answers as TaskResponses, instance.id));
    expect(slow).toHaveLength(1);
    // Stamped at its deadline (timers fire no earlier than asked), well before the 5 s it would take.
    expect(slow[0]).toBeGreaterThanOrEqual(199);
    expect(slow[0]).toBeLessThan(1000);
    for (const times of quick) {
      expect(times).toHaveLength(1);
      expect(times[0]).toBeLessThan(100);
    }
  });

  it('without a cap, keeps one call for every request (the backend batches)', async () => {
    const backend = new ClockedBackend({ slowMs: 5000 });
    const instances = [generation(0, 'say one'), generation(1, 'say two')];
    await executeRequests(backend, instances);
    expect(backend.calls).toEqual([['say one', 'say two']]);
  });
});

describe('a run with --max_latency_s', () => {
  it('counts the late docs as timed out: not wrong, not errors, in no metric; results, table and samples say so', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-latency-'));
    const task = path.join(directory, 'echo.jsonl');
    await writeFile(
      task,
      [
        '{"id": 0, "prompt": "say one", "targets": ["one"], "metric": "exact_match"}',
        '{"id": 1, "prompt": "say slow", "targets": ["slow"], "metric": "exact_match"}',
        '{"id": 2, "prompt": "say three", "targets": ["3"], "metric": "exact_match"}',
        '{"id": 3, "prompt": "say four", "targets": ["four"], "metric": "exact_match"}',
        '',
      ].join('\n'),
    );
    const output = await simpleEvaluate({
      model: new ClockedBackend({ slowMs: 5000 }),
      tasks: [task],
      maxLatencyS: 0.2,
    });
    const entry = output.results.results.echo;
    // Over the 3 docs answered in time: 2 right, 1 wrong. Before, the slow doc had to be waited for.
    expect(entry['exact_match,none']).toBeCloseTo(2 / 3, 15);
    expect(output.taskResults[0].metrics[0].n).toBe(3);
    expect(entry).toMatchObject({
      timeouts: 1,
      partial: true,
      answered: 3,
      note: 'metrics over the 3 docs answered in time of 4; 1 timed out count in no metric',
    });
    expect(entry).not.toHaveProperty('errors');
    expect(output.results.timeouts).toEqual({ max_latency_s: 0.2, samples: 1, by_task: { echo: 1 } });
    expect(output.results.errors.samples).toBe(0);
    expect(output.erroredSamples).toBe(0);
    expect(output.results.partial).toBe(true);
    const lines = output.samples.echo;
    expect(lines.map((line) => line.timed_out)).toEqual([undefined, true, undefined, undefined]);
    expect(lines[1]).toMatchObject({ metrics: [], filtered_resps: [] });
    expect(lines[1]).not.toHaveProperty('error');
    expect(lines[1]).not.toHaveProperty('exact_match');
    // A Timeouts column, and the mark beside the name; stderr of (1, 0, 1): sqrt(1/3)/sqrt(3) = 0.3333.
    const table = makeTable(output.results).split('\n');
    expect([table[0], table[2]]).toEqual([
      '|                 Tasks                  |Version|Filter|n-shot|  Metric   |   |Value |   |Stderr|Timeouts|',
      '|echo (partial: 1 timed out, 3 of 4 docs)|None   |none  |     0|exact_match|↑  |0.6667|±  |0.3333|       1|',
    ]);
    // The one results contract reads all of it back: the timeouts block, the timed-out line, and the
    // leaderboard's per-task and run counts (not errors, not in n).
    const read = resultsFileSchema.parse(JSON.parse(JSON.stringify(output.results)));
    expect(read.timeouts).toEqual({ max_latency_s: 0.2, samples: 1, by_task: { echo: 1 } });
    const readLines = lines.map((line) => sampleLineSchema.parse(JSON.parse(JSON.stringify(line))));
    expect(readLines.map((line) => line.timed_out)).toEqual([undefined, true, undefined, undefined]);
    expect(() => sampleLineSchema.parse({ ...readLines[1], timed_out: false })).toThrow();
    const leaderboard = leaderboardSchema.parse(
      buildLeaderboard({ results: read, samples: { echo: readLines } }),
    );
    expect(leaderboard).toMatchObject({ errors: 0, timeouts: 1, partial: true });
    expect(leaderboard.tasks.echo).toMatchObject({ n: 3, correct: 2, errors: 0, timeouts: 1, partial: true });
    expect(leaderboard.tasks.echo.value).toBeCloseTo(2 / 3, 15);
  });

  it('records timeouts: 0 when every request was in time, and nothing without a cap', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-latency-'));
    const task = path.join(directory, 'quick.jsonl');
    await writeFile(task, '{"id": 0, "prompt": "say one", "targets": ["one"], "metric": "exact_match"}\n');
    const capped = await simpleEvaluate({
      model: new ClockedBackend({ slowMs: 5000 }),
      tasks: [task],
      maxLatencyS: 5,
    });
    expect(capped.results.results.quick).toMatchObject({ timeouts: 0, 'exact_match,none': 1 });
    expect(capped.results.results.quick).not.toHaveProperty('partial');
    expect(capped.results.partial).toBe(false);
    const uncapped = await simpleEvaluate({ model: new ClockedBackend({ slowMs: 5000 }), tasks: [task] });
    expect(uncapped.results.results.quick).not.toHaveProperty('timeouts');
    expect(uncapped.results).not.toHaveProperty('timeouts');
    // The library names the option field (`maxLatencyS`); the CLI shows the flag, as here.
    await expect(
      simpleEvaluate({ model: new ClockedBackend({ slowMs: 5000 }), tasks: [task], maxLatencyS: 0 }).catch(
        (error: Error) => {
          throw new Error(withFlagNames(error.message));
        },
      ),
    ).rejects.toThrow('--max_latency_s must be a positive number of seconds, got 0');
  });
});
