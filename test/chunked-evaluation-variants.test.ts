/**
 * The chunked evaluation's contract (evaluate/chunked-task.ts) over the task and run options it must
 * carry: for each, a run whose large task is evaluated 3 docs at a time writes the same sample logs (byte
 * for byte), results (times and dates aside) and leaderboard as the same run evaluated whole. Few-shot
 * samplers (random, first_n, drawn from the test split itself), repeats, acc_mutual_info, delimiters,
 * literal choices, string and list golds, corpus metrics with bootstrap, cluster_by, limit, samples,
 * predict_only, a group of a chunked and an unchunked task, errored requests, shards merged, and a run
 * resumed from its response cache after failing in its first or its last chunk.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResponseCache } from '../src/cache/memory-response-cache.js';
import { type RunOptionsInput, resolveRunOptions } from '../src/evaluate/run-options.js';
import type { ModelBackend } from '../src/models/backend.js';
import { withResponseCache } from '../src/models/caching-backend.js';
import { RequestError } from '../src/models/index.js';
import { scriptedBackend } from '../src/models/scripted/scripted-backend.js';
import { mergeShards } from '../src/report/merge/merge-shards.js';
import { evaluateResolved } from '../src/run/evaluate.js';
import { jsonMultipleChoiceTask, tempDir, withoutTimes } from './support/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: results JSON read field by field
type Json = Record<string, any>;

const DOCS = 10;
const CHOICES = 4;
let folder: string;
let outputs: string;

/**
 * A model that answers from the request's text alone (so whole and chunked runs get the same answers),
 * failing from its `failFrom`-th request, or failing the requests `fails` picks (errored samples).
 */
function textBackend(options: { failFrom?: number; fails?: (text: string) => boolean } = {}) {
  return scriptedBackend({
    name: 'text',
    loglikelihood: (request, position) => {
      if (position >= (options.failFrom ?? Number.POSITIVE_INFINITY)) throw new Error('interrupted');
      const text = request.context + request.continuation;
      if (options.fails?.(text)) return new RequestError(`refused ${request.continuation}`, 'HTTP 500');
      return {
        logprob: -request.continuation.length - 0.25 * (request.context.length % 5) - (text.length % 7) / 10,
        isGreedy: request.continuation.includes('first'),
      };
    },
  });
}

beforeAll(async () => {
  folder = tempDir('assay-chunked-variants-');
  outputs = tempDir('assay-chunked-variants-out-');
  const doc = (i: number, split: string) =>
    JSON.stringify({
      question: `${split} question ${i}: which completes topic ${i % 3}?`,
      choices: [`first ${i}`, `second ${i}`, `third ${i * 7}`, `fourth ${i}.5`],
      answer: i % CHOICES,
      label: ['first', 'second', 'third', 'fourth'][i % CHOICES],
      golds: [i % CHOICES, (i + 1) % CHOICES],
      cluster: `c${i % 3}`,
    });
  const lines = (count: number, split: string) =>
    `${Array.from({ length: count }, (_, i) => doc(i, split)).join('\n')}\n`;
  await writeFile(path.join(folder, 'test.jsonl'), lines(DOCS, 'test'));
  await writeFile(path.join(folder, 'train.jsonl'), lines(8, 'train'));
  await writeFile(path.join(folder, 'tiny.jsonl'), lines(2, 'tiny'));
  const task = (name: string, extra: string[], test = 'test.jsonl') =>
    jsonMultipleChoiceTask(name, test, extra);
  const plain = ['doc_to_choice: "{{choices}}"', 'doc_to_target: answer'];
  const literal = ['doc_to_choice: ["first", "second", "third", "fourth"]'];
  const tasks: Record<string, string> = {
    random_5shot: task('random_5shot', [...plain, 'fewshot_split: train', 'num_fewshot: 5']),
    first_n: task('first_n', [
      ...plain,
      'fewshot_split: train',
      'num_fewshot: 3',
      'fewshot_config:',
      '  sampler: first_n',
    ]),
    same_split: task('same_split', [...plain, 'fewshot_split: test', 'num_fewshot: 2']),
    same_split_first_n: task('same_split_first_n', [
      ...plain,
      'fewshot_split: test',
      'num_fewshot: 2',
      'fewshot_config:',
      '  sampler: first_n',
    ]),
    zero_shot: task('zero_shot', [...plain, 'fewshot_split: train', 'num_fewshot: 0']),
    repeats: task('repeats', [...plain, 'repeats: 3']),
    mutual_info_literal: task('mutual_info_literal', [
      ...literal,
      'doc_to_target: answer',
      'metric_list:',
      '  - metric: acc',
      '  - metric: acc_mutual_info',
    ]),
    mutual_info: task('mutual_info', [
      ...plain,
      'fewshot_split: train',
      'num_fewshot: 1',
      'metric_list:',
      '  - metric: acc',
      '  - metric: acc_norm',
      '  - metric: acc_mutual_info',
    ]),
    delimiters: task('delimiters', [
      ...plain,
      'fewshot_split: train',
      'num_fewshot: 2',
      'target_delimiter: "::"',
      'fewshot_delimiter: "\\n##\\n"',
    ]),
    literal_choices: task('literal_choices', [
      ...literal,
      'doc_to_target: answer',
      'fewshot_split: train',
      'num_fewshot: 1',
      'fewshot_config:',
      '  sampler: first_n',
    ]),
    string_gold: task('string_gold', [...literal, 'doc_to_target: label']),
    list_gold: task('list_gold', ['doc_to_choice: "{{choices}}"', 'doc_to_target: golds']),
    corpus_metrics: task('corpus_metrics', [
      'doc_to_choice: ["no", "yes"]',
      'doc_to_target: "{{answer % 2}}"',
      'metric_list:',
      '  - metric: f1',
      '  - metric: mcc',
      '  - metric: brier_score',
      '  - metric: acc',
    ]),
    clustered: task('clustered', [...plain, 'cluster_by: cluster']),
    loglikelihood: task('loglikelihood', ['doc_to_target: " {{choices[0]}}"']).replace(
      'multiple_choice',
      'loglikelihood',
    ),
    // winogrande's shape: doc_to_text names a column holding the index of the right context among the
    // choices, and the target is the continuation every context shares.
    multiple_input: task('multiple_input', [
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: "is the answer"',
      'fewshot_split: train',
      'num_fewshot: 2',
    ]).replace('doc_to_text: "{{question}}\\nAnswer:"', 'doc_to_text: answer'),
    // Two docs: never more than a chunk, so evaluated whole.
    small: task('small', [...plain], 'tiny.jsonl'),
  };
  for (const [name, text] of Object.entries(tasks)) await writeFile(path.join(folder, `${name}.yaml`), text);
  await writeFile(
    path.join(folder, 'mixed_group.yaml'),
    [
      'group: mixed_group',
      'task:',
      '  - random_5shot',
      '  - small',
      'aggregate_metric_list:',
      '  - metric: acc',
      '    weight_by_size: true',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await rm(outputs, { recursive: true, force: true });
});

const DATES = ['date', 'start_time', 'end_time', 'total_evaluation_time_seconds', 'git_hash'];

function withoutDates(results: Json): Json {
  const copy = structuredClone(results);
  for (const key of DATES) delete copy[key];
  delete copy.manifest?.git_commit;
  return withoutTimes(copy) as Json;
}

let runs = 0;

/** A run's sample logs by task, results and leaderboard (times and dates dropped), and its plans. */
async function runFiles(
  chunkDocs: number,
  input: Partial<RunOptionsInput>,
  backend: ModelBackend = textBackend(),
) {
  const outputPath = path.join(outputs, `run-${runs++}`);
  const { plans } = await evaluateResolved({
    ...resolveRunOptions({
      model: 'dummy',
      tasks: [],
      includePath: [folder],
      outputPath,
      logSamples: true,
      ...input,
    }),
    chunkDocs,
    backends: { acquire: async () => backend, created: 1, close: async () => {} },
  });
  const directory = path.join(outputPath, 'dummy');
  const names = await readdir(directory);
  const samples: Record<string, string> = {};
  for (const name of names.filter((file) => file.startsWith('samples_')))
    samples[name.replace(/_\d{4}-.*$/, '')] = await readFile(path.join(directory, name), 'utf8');
  const json = async (prefix: string) =>
    JSON.parse(
      await readFile(path.join(directory, names.find((name) => name.startsWith(prefix)) as string), 'utf8'),
    );
  const leaderboard = await json('leaderboard_');
  for (const key of ['created', 'date', 'results_file']) delete leaderboard[key];
  return {
    directory,
    samples,
    results: withoutDates(await json('results_')),
    leaderboard: withoutTimes(leaderboard),
    chunked: plans.filter((plan) => plan.chunked).map((plan) => plan.task.name),
  };
}

/** Runs `input` whole and 3 docs a chunk; the two must write the same, and a task must have been chunked. */
async function expectSameChunked(input: Partial<RunOptionsInput>, backend = () => textBackend()) {
  const whole = await runFiles(1000, input, backend());
  const chunked = await runFiles(3, input, backend());
  expect(whole.chunked).toEqual([]);
  expect(chunked.chunked.length).toBeGreaterThan(0);
  expect(chunked.samples).toEqual(whole.samples);
  expect(chunked.results).toEqual(whole.results);
  expect(chunked.leaderboard).toEqual(whole.leaderboard);
  return chunked;
}

describe('a task evaluated in chunks writes what the task evaluated whole writes', () => {
  const variants = [
    'random_5shot',
    'first_n',
    'same_split',
    'same_split_first_n',
    'zero_shot',
    'repeats',
    'mutual_info',
    'delimiters',
    'literal_choices',
    'string_gold',
    'list_gold',
    'corpus_metrics',
    'clustered',
    'loglikelihood',
  ];
  for (const task of variants) {
    it(task, async () => {
      const chunked = await expectSameChunked({ tasks: [task], bootstrapIters: 50 });
      expect(chunked.chunked).toEqual([task]);
      expect(chunked.results['n-samples'][task]).toEqual({ original: DOCS, effective: DOCS });
    });
  }

  // request_stats counts the distinct requests sent, and duplicates are dropped within a chunk: a request
  // that docs of several chunks share (acc_mutual_info's unconditional requests over literal choices) is
  // sent once per chunk that holds it, as docs/output.md says (a response cache answers the repeats).
  it('acc_mutual_info over literal choices: request_stats counts the unconditional requests once per chunk', async () => {
    const whole = await runFiles(1000, { tasks: ['mutual_info_literal'] });
    const chunked = await runFiles(3, { tasks: ['mutual_info_literal'] });
    const chunks = Math.ceil(DOCS / 3);
    expect(whole.results.request_stats.loglikelihood.requests).toBe(DOCS * 4 + 4);
    expect(chunked.results.request_stats.loglikelihood.requests).toBe(DOCS * 4 + 4 * chunks);
  });

  it('acc_mutual_info over literal choices: all but request_stats', async () => {
    const whole = await runFiles(1000, { tasks: ['mutual_info_literal'] });
    const chunked = await runFiles(3, { tasks: ['mutual_info_literal'] });
    expect(chunked.chunked).toEqual(['mutual_info_literal']);
    expect(chunked.samples).toEqual(whole.samples);
    const { request_stats: _chunked, ...chunkedResults } = chunked.results;
    const { request_stats: _whole, ...wholeResults } = whole.results;
    expect(chunkedResults).toEqual(wholeResults);
    expect(chunked.leaderboard).toEqual(whole.leaderboard);
  });

  it("multiple-input (winogrande): each choice a context, the gold doc_to_text's index", async () => {
    const chunked = await expectSameChunked({ tasks: ['multiple_input'] });
    const [first] = chunked.samples.samples_multiple_input.split('\n');
    const { arguments: args } = JSON.parse(first);
    expect(args.gen_args_1.arg_0.endsWith('second 0')).toBe(true);
    expect(args.gen_args_1.arg_1).toBe(' is the answer');
  });

  it('with cluster_by: the clustered standard errors too', async () => {
    const chunked = await expectSameChunked({ tasks: ['clustered'] });
    expect(chunked.results.stats.clustered['acc,none'].clustered).toMatchObject({
      by: 'cluster',
      clusters: 3,
    });
  });

  it('with limit (a count and a fraction), samples in doc order and predict_only', async () => {
    await expectSameChunked({ tasks: ['random_5shot'], limit: 7 });
    await expectSameChunked({ tasks: ['random_5shot'], limit: { fraction: 0.8 } });
    await expectSameChunked({ tasks: ['random_5shot'], samples: { random_5shot: [0, 2, 3, 5, 8, 9] } });
    await expectSameChunked({ tasks: ['random_5shot', 'mutual_info'], predictOnly: true });
  });

  it('in a group beside a task evaluated whole: the group aggregated from both', async () => {
    const chunked = await expectSameChunked({ tasks: ['mixed_group'], bootstrapIters: 30 });
    expect(chunked.chunked).toEqual(['random_5shot']);
    expect(chunked.results.results.mixed_group.sample_len).toBe(DOCS + 2);
  });

  it('with requests that failed: the same errored samples', async () => {
    const chunked = await expectSameChunked({ tasks: ['random_5shot'] }, () =>
      textBackend({ fails: (text) => text.length % 7 === 3 }),
    );
    expect(chunked.samples.samples_random_5shot).toContain('"error":"refused');
  });

  it('as a shard: merged with the other shard, the same as shards evaluated whole', async () => {
    const merged: Json[] = [];
    for (const chunkDocs of [1000, 3]) {
      const shards: string[] = [];
      for (const index of [0, 1])
        shards.push(
          (await runFiles(chunkDocs, { tasks: ['random_5shot'], shard: { index, count: 2 } })).directory,
        );
      const result = await mergeShards({ shards, outputPath: path.join(outputs, `merged-${chunkDocs}`) });
      merged.push(withoutDates(JSON.parse(JSON.stringify(result.results))));
    }
    expect(merged[1]).toEqual(merged[0]);
  });

  // A chunk's requests go to the model in one call: a call that fails keeps none of its answers.
  for (const [chunk, failFrom, asked] of [
    ['first', 2, DOCS * CHOICES],
    ['last', 3 * 3 * CHOICES, 1 * CHOICES],
  ] as const) {
    it(`resumed from the response cache after failing in its ${chunk} chunk`, async () => {
      const cache = new MemoryResponseCache();
      const input = { tasks: ['random_5shot'] };
      await expect(
        runFiles(3, input, withResponseCache(textBackend({ failFrom }), cache, {})),
      ).rejects.toThrow(/interrupted/);
      const model = textBackend();
      const resumed = await runFiles(3, input, withResponseCache(model, cache, {}));
      // Only the chunks the failed run did not finish reached the model.
      expect(model.received.loglikelihood).toHaveLength(asked);
      const fresh = await runFiles(1000, input);
      expect(resumed.samples).toEqual(fresh.samples);
      expect(resumed.results).toEqual(fresh.results);
    });
  }
});
