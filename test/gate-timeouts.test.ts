import path from 'node:path';
import { readResultsFile, readSamples } from 'assay/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/run/evaluate.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { writeChoiceTask } from './support/choice-task.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, readJson, tempDir } from './support/helpers.js';

type Json = Record<string, any>;

const DOCS = 24;
const SLOW = [4, 5, 8, 17];
let baseline = '';
let current = '';
const servers: TestServer[] = [];

beforeAll(async () => {
  const task = writeChoiceTask(
    tempDir('assay-timeouts-task-'),
    'late_mc',
    Array.from({ length: DOCS }, (_, i) => ({
      question: `Item ${i}: which word follows ${i % 7} and ${i % 5}?${SLOW.includes(i) ? ' Answer slowly.' : ''}`,
      choices: ['red', 'green', 'blue', `word ${i}`],
      answer: i % 4,
    })),
  );
  const clean = await startTestServer({});
  const slow = await startTestServer({ slowBodiesContaining: { text: 'slowly', ms: 60_000 } });
  servers.push(clean, slow);
  const modelArgs = (url: string) => ({
    model: 'test',
    base_url: url,
    // Text prompts: the fake server scores text and has no tokenizer (lm-eval's tokenized_requests=False).
    tokenized_requests: false,
    num_concurrent: 32,
    max_retries: 1,
    retry_backoff: 0.001,
  });
  baseline = tempDir();
  await evaluate({
    model: 'local-completions',
    modelArgs: modelArgs(clean.completionsUrl),
    tasks: [task],
    outputPath: baseline,
    logSamples: true,
  });
  current = tempDir();
  await evaluate({
    model: 'local-completions',
    modelArgs: modelArgs(slow.completionsUrl),
    tasks: [task],
    outputPath: current,
    logSamples: true,
    // Far above what an answered request takes, even on a loaded machine.
    maxLatencyS: 6,
  });
}, 60_000);

afterAll(async () => {
  while (servers.length) await servers.pop()?.close();
});

const gate = (...flags: string[]) =>
  runCliInProcess(['gate', '--baseline', baseline, '--current', current, ...flags]);

const samplesOf = (run: string) => readSamples(findOne(path.join(run, 'test'), /^samples_late_mc_/));

describe('gate and compare on a run with timed-out docs', () => {
  it('the current run timed out on exactly the slow docs, and the rest answered as in the baseline', () => {
    const late = samplesOf(current).filter((sample) => sample.timed_out === true);
    expect(late.map((sample) => sample.doc_id).sort((x, y) => x - y)).toEqual(SLOW);
    const results = readResultsFile(findOne(path.join(current, 'test'), /^results_.*\.json$/));
    expect(results.timeouts).toMatchObject({ max_latency_s: 6, samples: 4, by_task: { late_mc: 4 } });
  });

  it('gate refuses it by default, in test and threshold mode, naming the count and the flag', async () => {
    for (const mode of ['test', 'threshold']) {
      const run = await gate('--max-drop', '0.5', '--mode', mode);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        'the current run has 4 timed-out docs (late_mc: 4) over its latency cap of 6 s',
      );
      expect(run.stderr).toContain("set --timeouts_as to 'wrong'");
    }
  });

  it('--timeouts_as skip gates the answered docs and says so; wrong counts each as a wrong answer', async () => {
    const json = path.join(tempDir(), 'gate.json');
    const skipped = await gate('--max-drop', '0.5', '--timeouts_as', 'skip', '--json', json);
    // The 20 answered docs got the same answers as in the baseline: no flip among 20 rules out a drop
    // of 0.5 (Tango, continuity 1: Z = (20·0.5 − 1)/√(20·0.5·0.5) = 4.02).
    expect(skipped.status).toBe(0);
    expect(skipped.stderr).toContain(
      'the current run has 4 timed-out docs (late_mc: 4) over its latency cap of 6 s; --timeouts_as skip: comparing the docs answered in both runs',
    );
    expect(skipped.stdout).toMatch(
      /^PASS +late_mc \(acc, none\), n = 20: .*; timed out: 0 in the baseline, 4 in the current run, left out/m,
    );
    expect(skipped.stdout).toContain(
      '4 timed-out docs left out: the verdict covers the docs answered in both runs',
    );
    const report = readJson<Json>(json);
    expect(report.timeoutsAs).toBe('skip');
    expect(report.tasks[0]).toMatchObject({ n: 20, timedOut: { a: 0, b: 4 }, status: 'pass' });

    // Counted as wrong: the slow docs the baseline answered right become right → wrong flips.
    const base = samplesOf(baseline);
    const rightBefore = base.filter((sample) => SLOW.includes(sample.doc_id) && sample.acc === 1).length;
    expect(rightBefore).toBeGreaterThan(0);
    const wrong = await gate(
      '--max-drop',
      '0.01',
      '--mode',
      'threshold',
      '--timeouts_as',
      'wrong',
      '--format',
      'json',
    );
    expect(wrong.status).toBe(1);
    const [task] = JSON.parse(wrong.stdout).tasks;
    expect(task.n).toBe(DOCS);
    expect(task.timedOut).toEqual({ a: 0, b: 4 });
    expect(task.improvement).toBeCloseTo(-rightBefore / DOCS, 14);
    expect(task.reason).toContain(
      'timed out: 0 in the baseline, 4 in the current run, each counted as wrong',
    );
  });

  it('compare refuses it by default and states the timed-out count plainly with --timeouts_as', async () => {
    const refused = await runCliInProcess(['compare', baseline, current]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('the second run has 4 timed-out docs (late_mc: 4)');
    // Issue 32: each row's details are part of the full battery, under --verbose.
    const table = await runCliInProcess(['compare', baseline, current, '--timeouts_as', 'skip', '--verbose']);
    expect(table.status).toBe(0);
    expect(table.stdout).toContain(
      'Timed-out docs (over the latency cap): 0 in A, 4 in B, left out: the tests cover the docs answered in both runs.',
    );
    expect(table.stdout).toContain(
      'n = 20 pairs; unpaired 0 in A, 0 in B; unscored 0 in A, 0 in B; timed out (over the latency cap) 0 in A, 4 in B, left out of every test',
    );
    const json = await runCliInProcess([
      'compare',
      baseline,
      current,
      '--timeouts_as',
      'wrong',
      '--format',
      'json',
    ]);
    const [row] = JSON.parse(json.stdout).tasks;
    expect(row).toMatchObject({ n: DOCS, timedOut: { a: 0, b: 4 }, unscored: { a: 0, b: 0 } });
  });
});
