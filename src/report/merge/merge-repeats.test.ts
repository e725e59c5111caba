/**
 * `assay merge` of a task with `repeats` and `cluster_by`, in process: the merge reads the per-repeat
 * scores and cluster keys the shards logged and aggregates them, with nothing rendered or scored again,
 * so its within-question variance and clustered stderr are the unsharded run's. A log written without the
 * per-repeat scores is refused, naming the file; one without cluster keys has the docs they come from.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { scriptedBackend } from '../../models/scripted/scripted-backend.js';
import { simpleEvaluate } from '../../run/evaluate.js';
import { mergeShards } from './merge-shards.js';

// biome-ignore lint/suspicious/noExplicitAny: results files are checked field by field
type Json = Record<string, any>;

/** Sampled repeats get seeds 0, 1, 2: the answer depends on the prompt and the seed, so repeats differ. */
const backend = () =>
  scriptedBackend({
    generate: (request) =>
      ` ${(request.context.length + Number(request.extra.seed ?? 0)) % 3 === 0 ? 'no' : 'yes'}`,
  });

let directory: string;
let taskFile: string;
let single: Json;
let shards: string[];

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'assay-merge-repeats-'));
  const docs = Array.from({ length: 9 }, (_, i) =>
    JSON.stringify({ q: `Is item ${'x'.repeat(i)} ready?`, a: i % 2 ? 'yes' : 'no', subject: `s${i % 3}` }),
  );
  await writeFile(path.join(directory, 'test.jsonl'), `${docs.join('\n')}\n`);
  taskFile = path.join(directory, 'repeated.yaml');
  await writeFile(
    taskFile,
    [
      'task: repeated',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      `    test: ${path.join(directory, 'test.jsonl')}`,
      'test_split: test',
      'output_type: generate_until',
      'doc_to_text: "{{q}}"',
      'doc_to_target: "{{a}}"',
      'repeats: 3',
      'cluster_by: subject',
      'generation_kwargs:',
      '  until: ["\\n"]',
      '  do_sample: true',
      'filter_list:',
      '  - name: first',
      '    filter:',
      '      - function: take_first',
      'metric_list:',
      '  - metric: exact_match',
      '    regexes_to_ignore: [" "]',
      '',
    ].join('\n'),
  );
  const common = { tasks: [taskFile], logSamples: true, bootstrapIters: 0 };
  single = (await simpleEvaluate({ ...common, model: backend() })).results as Json;
  shards = ['0', '1'].map((index) => path.join(directory, `shard-${index}`));
  for (const [index, outputPath] of shards.entries()) {
    await simpleEvaluate({ ...common, model: backend(), shard: { index, count: 2 }, outputPath });
  }
});

/** The one sample log under a shard's output folder. */
async function shardLog(shard: string): Promise<string> {
  const { readdirSync } = await import('node:fs');
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(folder, entry.name))
        : entry.name.startsWith('samples_')
          ? [path.join(folder, entry.name)]
          : [],
    );
  const [file] = walk(shard);
  return file;
}

async function rewriteLog(shard: string, change: (line: Json) => void): Promise<string> {
  const file = await shardLog(shard);
  const lines = (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as Json);
  for (const line of lines) change(line);
  await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

describe('assay merge of a task with repeats and cluster_by', () => {
  it('the merged within-question variance and clustered stderr are the single run’s', async () => {
    const stats = single.stats.repeated['exact_match,first'];
    // The answers differ between repeats, so there is within-question variance to carry.
    expect(stats.repeats.k).toBe(3);
    expect(stats.repeats.within_question_variance).toBeGreaterThan(0);
    expect(stats.clustered.clusters).toBe(3);
    const merged = await mergeShards({ shards, outputPath: path.join(directory, 'merged') });
    expect((merged.results as Json).stats.repeated['exact_match,first']).toEqual(stats);
    expect((merged.results as Json).results.repeated['exact_match,first']).toBe(
      single.results.repeated['exact_match,first'],
    );
  });

  it('logs without cluster keys: read from the logged docs, the same clustered stderr', async () => {
    await rewriteLog(shards[1], (line) => {
      delete line.cluster_key;
    });
    const merged = await mergeShards({ shards, outputPath: path.join(directory, 'merged-keys') });
    expect((merged.results as Json).stats.repeated['exact_match,first']).toEqual(
      single.stats.repeated['exact_match,first'],
    );
  });

  it('logs without per-repeat scores are refused, naming the file and what is missing', async () => {
    const file = await rewriteLog(shards[0], (line) => {
      delete line.repeat_scores;
    });
    const error = await mergeShards({ shards, outputPath: path.join(directory, 'merged-old') }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AssayError);
    expect((error as AssayError).code).toBe('bad_data');
    expect((error as AssayError).message).toContain('repeat_scores');
    expect((error as AssayError).location).toMatchObject({ file, task: 'repeated', docId: 0 });
  });
});
