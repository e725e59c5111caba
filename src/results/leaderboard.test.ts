/**
 * The honest leaderboard (issue 20) on real in-process runs: unlike metrics are not averaged, latency is
 * each task's own, a JSONL file mixing metrics is scored per line. Every leaderboard here is the file a
 * run wrote, read back through the contract (leaderboardSchema).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GenerateCallOptions, ModelBackend } from '../models/backend.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { scriptedBackend } from '../models/scripted/scripted-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { buildLeaderboard } from './leaderboard.js';
import { readSampleLog } from './read-samples.js';
import { leaderboardSchema } from './schema.js';

function workDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'assay-leaderboard-'));
}

function jsonlTask(directory: string, name: string, lines: object[]): string {
  const file = path.join(directory, `${name}.jsonl`);
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

/** Runs `tasks` with `model`, writing into a fresh folder; returns the leaderboard and the run's files. */
async function runAndRead(model: ModelBackend, tasks: string[], directory: string) {
  const output = await simpleEvaluate({
    model,
    modelName: 'm',
    tasks,
    outputPath: path.join(directory, 'out'),
    logSamples: true,
    bootstrapIters: 0,
  });
  const file = output.files?.leaderboard as string;
  const leaderboard = leaderboardSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { output, leaderboard };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('leaderboard_<time>.json', () => {
  it('does not average a perplexity with an accuracy: overall is null and says why', async () => {
    const directory = workDir();
    writeFileSync(
      path.join(directory, 'texts.jsonl'),
      ['The cat sat.', 'A dog ran far away.', 'Rain fell.']
        .map((text) => JSON.stringify({ text }))
        .join('\n'),
    );
    const yaml = path.join(directory, 'ppl_mini.yaml');
    writeFileSync(
      yaml,
      [
        'task: ppl_mini',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: texts.jsonl',
        'test_split: test',
        'output_type: loglikelihood_rolling',
        'doc_to_text: ""',
        'doc_to_target: "{{text}}"',
        'metric_list:',
        '  - metric: word_perplexity',
        '  - metric: bits_per_byte',
      ].join('\n'),
    );
    const sums = jsonlTask(
      directory,
      'sums',
      [1, 2, 3].map((i) => ({
        id: i,
        prompt: `${i}+${i}=`,
        targets: [String(2 * i)],
        metric: 'exact_match',
      })),
    );
    const { output, leaderboard } = await runAndRead(new DummyBackend(), [yaml, sums], directory);
    const perplexity = output.results.results.ppl_mini['word_perplexity,none'] as number;
    const accuracy = output.results.results.sums['exact_match,none'] as number;
    expect(leaderboard.tasks.ppl_mini).toMatchObject({
      metric: 'word_perplexity',
      higher_is_better: false,
      scale: '[1, inf)',
      value: perplexity,
      n: 3,
    });
    expect(leaderboard.tasks.sums).toMatchObject({
      metric: 'exact_match',
      higher_is_better: true,
      scale: '[0, 1]',
      value: accuracy,
      n: 3,
    });
    // The case: 8.578 and 1.0 "averaged" to 4.789. Not any more.
    expect(leaderboard.overall).toBeNull();
    expect(leaderboard.overall_tasks).toEqual([]);
    expect(leaderboard.overall_note).toBe(
      "not averaged: the tasks' primary metrics differ in scale or direction (ppl_mini: word_perplexity on [1, inf), lower is better; sums: exact_match on [0, 1], higher is better)",
    );
  });

  it("gives each task its own requests' latency, not its request type's", async () => {
    // A clock the backend moves: 7 ms for each request of the slow task, 1 ms for the quick one.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const dummy = new DummyBackend();
    const timed: ModelBackend = {
      specificationVersion: 'v2',
      name: 'timed',
      capabilities: { ...dummy.capabilities, chatTemplate: false },
      loglikelihood: (options) => dummy.loglikelihood(options),
      loglikelihoodRolling: (options) => dummy.loglikelihoodRolling(options),
      async generate({ requests, onProgress }: GenerateCallOptions) {
        const answers: string[] = [];
        for (const [index, request] of requests.entries()) {
          now += request.context.includes('slow') ? 7 : 1;
          answers.push(...(await dummy.generate({ requests: [request] })));
          onProgress?.(index + 1);
        }
        return answers;
      },
      info: () => dummy.info(),
    };
    const directory = workDir();
    const line = (kind: string, i: number) => ({
      id: i,
      prompt: `${kind} ${i}?`,
      targets: ['x'],
      metric: 'exact_match',
    });
    const slow = jsonlTask(
      directory,
      'slow',
      [0, 1, 2, 3].map((i) => line('slow', i)),
    );
    const quick = jsonlTask(
      directory,
      'quick',
      [0, 1, 2].map((i) => line('quick', i)),
    );
    const { output, leaderboard } = await runAndRead(timed, [slow, quick], directory);
    expect(leaderboard.tasks.slow.latency).toEqual({ requests: 4, mean_ms: 7, p50_ms: 7, p95_ms: 7 });
    expect(leaderboard.tasks.quick.latency).toEqual({ requests: 3, mean_ms: 1, p50_ms: 1, p95_ms: 1 });
    // What both tasks used to show: the mean over every generate_until request of the run.
    const byType = output.results.request_stats.generate_until;
    expect(((byType?.seconds ?? 0) * 1000) / (byType?.requests ?? 1)).toBeCloseTo(31 / 7, 9);
  });

  it('scores a JSONL file that mixes metrics per line: the mean of the lines’ own scores, each metric beside it', async () => {
    const answers: Record<string, string> = {
      'Add 2 and 2.': '4',
      'Add 3 and 3.': '7',
      'Capital of France?': 'It is Paris, of course.',
      'Colour of the sky?': 'green',
      'Summarise: the cat sat on the mat.': 'the cat sat',
    };
    const scripted = scriptedBackend({
      generate: (request) => {
        const key = Object.keys(answers).find((prompt) => request.context.includes(prompt));
        return key ? answers[key] : '';
      },
    });
    const directory = workDir();
    const mixed = jsonlTask(directory, 'mixed', [
      { id: 'a', prompt: 'Add 2 and 2.', targets: ['4'], metric: 'exact_match' },
      { id: 'b', prompt: 'Add 3 and 3.', targets: ['6'], metric: 'exact_match' },
      { id: 'c', prompt: 'Capital of France?', targets: ['Paris'], metric: 'substring_contains' },
      { id: 'd', prompt: 'Colour of the sky?', targets: ['blue'], metric: 'substring_contains' },
      {
        id: 'e',
        prompt: 'Summarise: the cat sat on the mat.',
        targets: ['the cat sat on the mat'],
        metric: 'rouge_l',
      },
    ]);
    const { output, leaderboard } = await runAndRead(scripted, [mixed], directory);
    const entry = output.results.results.mixed;
    // Each line's score under its own metric, from the sample log the run wrote.
    const log = readSampleLog(output.files?.samples[0] as string);
    // A mixed file logs the task score (`score`) beside each line's own metric, with the same value.
    const scores = log.map((line) => Number(line[line.metrics[1]]));
    expect(log.map((line) => line.metrics)).toEqual([
      ['score', 'exact_match'],
      ['score', 'exact_match'],
      ['score', 'substring_contains'],
      ['score', 'substring_contains'],
      ['score', 'rouge_l'],
    ]);
    expect(log.map((line) => line.score)).toEqual(scores);
    expect(scores.slice(0, 4)).toEqual([1, 0, 1, 0]);
    expect(scores[4]).toBeGreaterThan(0);
    expect(scores[4]).toBeLessThan(1);
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    // The t interval of a mean of 5 scores that are not all 0/1 (SciPy's ttest_1samp(...).confidence_interval).
    const sd = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / (scores.length - 1));
    const half = tQuantile(0.975, scores.length - 1) * (sd / Math.sqrt(scores.length));
    const task = leaderboard.tasks.mixed;
    expect(task).toMatchObject({
      metric: 'score',
      higher_is_better: true,
      scale: '[0, 1]',
      n: 5,
      correct: null,
      metrics: {
        exact_match: { value: entry['exact_match,none'], n: 2 },
        substring_contains: { value: entry['substring_contains,none'], n: 2 },
        rouge_l: { value: entry['rouge_l,none'], n: 1 },
      },
    });
    expect(task.value).toBeCloseTo(mean, 14);
    expect(task.ci?.[0]).toBeCloseTo(mean - half, 12);
    expect(task.ci?.[1]).toBeCloseTo(mean + half, 12);
    // One task on [0, 1]: overall is its value.
    expect(leaderboard.overall).toBeCloseTo(mean, 14);
    expect(leaderboard.overall_note).toBe(
      'mean of the 1 task values: every primary metric is on [0, 1], higher is better',
    );
    // Results that recorded no task score (written before it existed): the same value from the lines,
    // and, without lines, from each metric's mean weighted by its lines.
    const older = structuredClone(output.results);
    for (const key of Object.keys(older.results.mixed))
      if (key.startsWith('score')) delete older.results.mixed[key];
    const fromLines = buildLeaderboard({ results: older, samples: output.samples });
    expect(fromLines.tasks.mixed.value).toBeCloseTo(mean, 14);
    expect(fromLines.tasks.mixed.ci?.[0]).toBeCloseTo(mean - half, 12);
    const fromMeans = buildLeaderboard({ results: older });
    expect(fromMeans.tasks.mixed).toMatchObject({ metric: 'score', n: 5, ci: null });
    expect(fromMeans.tasks.mixed.value).toBeCloseTo(mean, 14);
  });
});

describe('leaderboard: an llm_judge task', () => {
  /** A judged task's results and lines: every doc's judge score `score`, on the judge block's scale. */
  function judged(verdict: Record<string, unknown>, score: number, docs = 4, metric = 'llm_judge') {
    const lines = Array.from({ length: docs }, (_, doc_id) => ({
      doc_id,
      filter: 'none',
      metrics: [metric],
      target: 'x',
      filtered_resps: ['y'],
      [metric]: score,
    }));
    return buildLeaderboard({
      results: {
        results: { judged: { alias: 'judged', [`${metric},none`]: score } },
        higher_is_better: { judged: { [metric]: true } },
        configs: {
          judged: { metric_list: [{ metric, judge: { model: 'gguf', prompt: 'p', verdict } }] },
        },
        'n-samples': { judged: { original: docs, effective: docs } },
        // As results.json records every judged metric, YAML or TypeScript.
        judges: { judged: [{ metric, mode: 'reference-based', verdict }] },
      },
      samples: { judged: lines },
    }).tasks.judged;
  }

  it('counts no doc correct when the rubric scale goes beyond [0, 1]: a 1 on 1-5 is the worst grade', () => {
    expect(judged({ type: 'score', min: 1, max: 5 }, 1).correct).toBeNull();
    // A 0/1 label verdict is a proportion: its 1s are the docs judged correct.
    expect(judged({ type: 'label', labels: { correct: 1, incorrect: 0 } }, 1).correct).toBe(4);
    // A TypeScript task's judge scores a metric of its own name, which no metric_list entry names.
    expect(judged({ type: 'score', min: 1, max: 5 }, 1, 4, 'quality').correct).toBeNull();
  });
});
