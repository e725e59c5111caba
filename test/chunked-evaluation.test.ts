/**
 * A large task evaluated a chunk of docs at a time (evaluate/chunked-task.ts, report/sample-spool.ts)
 * against the same task evaluated whole: the same sample logs byte for byte, the same results and
 * leaderboard; at most one chunk of docs planned, sent and scored at once; aggregation handed one compact
 * record per doc; and a response cache filled by a run that stopped mid-task answering the chunks it
 * finished when the run is resumed. The chunk size is tiny (3 docs of 10) and few-shot examples are drawn
 * at random (the default sampler, one RNG per task over the docs in order), so chunks must draw exactly
 * as a whole-task plan does.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryResponseCache } from '../src/cache/memory-response-cache.js';
import type { TaskPlan } from '../src/evaluate/plan.js';
import { type EvaluatedChunk, runEvaluation } from '../src/evaluate/run-evaluation.js';
import { resolveRunOptions } from '../src/evaluate/run-options.js';
import type { ModelBackend } from '../src/models/backend.js';
import { withResponseCache } from '../src/models/caching-backend.js';
import { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import { randomLlamaGguf } from '../src/models/gguf/llama-model.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { scriptedBackend } from '../src/models/scripted/scripted-backend.js';
import type { BackendPool } from '../src/run/backend-pool.js';
import { evaluateResolved } from '../src/run/evaluate.js';
import { resolveTasks } from '../src/tasks/manager.js';
import { jsonMultipleChoiceTask, withoutTimes } from './support/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: results JSON read field by field
type Json = Record<string, any>;

let folder: string;
let outputs: string;

const DOCS = 10;
const CHOICES = 4;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'assay-chunked-'));
  outputs = await mkdtemp(path.join(os.tmpdir(), 'assay-chunked-out-'));
  // `weight` is a float in the file (1.0): the sample log writes it as Python does, spooled or not.
  const doc = (i: number, split: string) =>
    `${JSON.stringify({
      question: `${split} question ${i}: which completes topic ${i % 3}?`,
      choices: [`first ${i}`, `second ${i}`, `third ${i * 7}`, `fourth ${i}.5`],
      answer: i % CHOICES,
    }).slice(0, -1)}, "weight": ${i % 3}.0}`;
  await writeFile(
    path.join(folder, 'test.jsonl'),
    `${Array.from({ length: DOCS }, (_, i) => doc(i, 'test')).join('\n')}\n`,
  );
  await writeFile(
    path.join(folder, 'train.jsonl'),
    `${Array.from({ length: 8 }, (_, i) => doc(i, 'train')).join('\n')}\n`,
  );
  await writeFile(
    path.join(folder, 'tiny.jsonl'),
    `${Array.from({ length: 2 }, (_, i) => doc(i, 'tiny')).join('\n')}\n`,
  );
  const task = (name: string, test: string) =>
    jsonMultipleChoiceTask(name, test, [
      'fewshot_split: train',
      'num_fewshot: 2',
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: answer',
      'metric_list:',
      '  - metric: acc',
      '  - metric: acc_norm',
    ]);
  await writeFile(path.join(folder, 'chunky.yaml'), task('chunky', 'test.jsonl'));
  // Doc 8 (the third chunk's) names a fifth choice of four.
  const bad = Array.from({ length: DOCS }, (_, i) =>
    doc(i, 'test').replace(/"answer":\d/, i === 8 ? '"answer":4' : '$&'),
  );
  await writeFile(path.join(folder, 'bad.jsonl'), `${bad.join('\n')}\n`);
  await writeFile(path.join(folder, 'chunky_bad.yaml'), task('chunky_bad', 'bad.jsonl'));
  // Docs 8 and 9 the same, and few-shot examples drawn from the test split itself (the eval doc excluded,
  // every copy of it): all 10 are drawn for each doc (9 and one to exclude), 8 left for doc 8 once both copies are removed.
  const twins = Array.from({ length: DOCS }, (_, i) => doc(Math.min(i, 8), 'test'));
  await writeFile(path.join(folder, 'twins.jsonl'), `${twins.join('\n')}\n`);
  await writeFile(
    path.join(folder, 'chunky_twins.yaml'),
    task('chunky_twins', 'twins.jsonl')
      .replace('fewshot_split: train', 'fewshot_split: test')
      .replace('num_fewshot: 2', 'num_fewshot: 9'),
  );
  // Two docs: never more than a chunk, so evaluated whole beside the chunked task.
  await writeFile(path.join(folder, 'tiny.yaml'), task('tiny', 'tiny.jsonl'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await rm(outputs, { recursive: true, force: true });
});

/** A model that answers from the request's text alone, so two backends give the same numbers. */
function fixedBackend(failFrom = Number.POSITIVE_INFINITY) {
  return scriptedBackend({
    name: 'fixed',
    loglikelihood: (request, position) => {
      if (position >= failFrom) throw new Error('interrupted');
      return {
        logprob: -request.continuation.length - 0.25 * (request.context.length % 5),
        isGreedy: request.continuation.includes('first'),
      };
    },
  });
}

/** A pool that hands the run this backend (the run then leaves it open). */
function poolOf(backend: ModelBackend): BackendPool {
  return { acquire: async () => backend, created: 1, close: async () => {} };
}

/** A run's written files under `outputs/<label>`: sample logs by task, results and leaderboard, times dropped. */
async function runFiles(
  label: string,
  options: { chunkDocs: number; tasks: string[]; includePerExample?: boolean; backend?: ModelBackend },
) {
  const outputPath = path.join(outputs, label);
  const { result, plans } = await evaluateResolved({
    ...resolveRunOptions({
      model: 'dummy',
      tasks: options.tasks,
      includePath: [folder],
      outputPath,
      logSamples: true,
      includePerExample: options.includePerExample ?? false,
    }),
    chunkDocs: options.chunkDocs,
    ...(options.backend ? { backends: poolOf(options.backend) } : {}),
  });
  const directory = path.join(outputPath, 'dummy');
  const names = await readdir(directory);
  const samples: Record<string, string> = {};
  for (const name of names.filter((file) => file.startsWith('samples_'))) {
    samples[name.replace(/_\d{4}-.*$/, '')] = await readFile(path.join(directory, name), 'utf8');
  }
  const json = async (prefix: string) =>
    JSON.parse(
      await readFile(path.join(directory, names.find((name) => name.startsWith(prefix)) as string), 'utf8'),
    );
  const results = await json('results_');
  for (const key of ['date', 'start_time', 'end_time', 'total_evaluation_time_seconds', 'git_hash'])
    delete results[key];
  delete results.manifest.git_commit;
  const leaderboard = await json('leaderboard_');
  delete leaderboard.created;
  delete leaderboard.date;
  delete leaderboard.results_file;
  return {
    samples,
    results: withoutTimes(results),
    leaderboard: withoutTimes(leaderboard),
    plans,
    result,
    leftovers: names.filter((name) => name.startsWith('.')),
  };
}

/** A run of `task` that fails: its error's message and how many requests reached the model first. */
async function failedRun(label: string, task: string, chunkDocs: number) {
  const backend = fixedBackend();
  const error = await runFiles(`${label}-${chunkDocs}`, { chunkDocs, tasks: [task], backend }).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  );
  return { message: error?.message, requests: backend.received.loglikelihood.length };
}

const chunkedPlan = (plans: TaskPlan[]) => plans.find((plan) => plan.task.name === 'chunky');

describe('a task evaluated in chunks of docs', () => {
  it('writes the same sample logs (byte for byte), results and leaderboard as the task evaluated whole', async () => {
    for (const includePerExample of [false, true]) {
      const whole = await runFiles(`whole-${includePerExample}`, {
        chunkDocs: 1000,
        tasks: ['tiny', 'chunky'],
        includePerExample,
      });
      const chunked = await runFiles(`chunked-${includePerExample}`, {
        chunkDocs: 3,
        tasks: ['tiny', 'chunky'],
        includePerExample,
      });
      // The chunked run did plan in chunks, the whole one did not.
      expect(chunkedPlan(chunked.plans)?.chunked).toEqual({ docs: DOCS });
      expect(chunkedPlan(whole.plans)?.chunked).toBeUndefined();
      expect(Object.keys(chunked.samples).sort()).toEqual(['samples_chunky', 'samples_tiny']);
      expect(chunked.samples).toEqual(whole.samples);
      expect(chunked.samples.samples_chunky.split('\n').filter(Boolean)).toHaveLength(DOCS);
      expect(chunked.samples.samples_chunky).toContain('"weight":1.0');
      expect(chunked.results).toEqual(whole.results);
      expect((chunked.results as Json)['n-samples'].chunky).toEqual({ original: DOCS, effective: DOCS });
      expect(chunked.leaderboard).toEqual(whole.leaderboard);
      // The library's sample lines, read back from the published log.
      expect(chunked.result.samples.chunky).toEqual(whole.result.samples.chunky);
      // No spool or staging folder is left beside the outputs.
      expect(chunked.leftovers).toEqual([]);
    }
  });

  it('plans, sends and scores at most one chunk of docs at once, and hands aggregation one compact record per doc', async () => {
    const backend = fixedBackend();
    const nodes = await resolveTasks(['chunky'], { includePath: [folder] });
    const chunks: EvaluatedChunk[] = [];
    const run = await runEvaluation(
      backend,
      nodes,
      {
        ...resolveRunOptions({ model: 'fixed', tasks: ['chunky'] }),
        modelLabel: { model: 'fixed', modelArgs: '' },
      },
      { size: 3, onChunk: (chunk) => void chunks.push(chunk) },
    );
    expect(chunks.map((chunk) => chunk.plan.docs.map((doc) => doc.docId))).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7, 8],
      [9],
    ]);
    // Each chunk's requests went to the backend on their own: one call per chunk, its docs' choices only.
    expect(backend.calls.map((call) => call.requests.length)).toEqual([12, 12, 12, 4]);
    // Request ids count from 0 within each chunk (its answers are a chunk's, not the task's).
    expect(
      chunks.map((chunk) => chunk.plan.docs.flatMap((doc) => doc.instances.map((instance) => instance.id))),
    ).toEqual([3, 3, 3, 1].map((docs) => Array.from({ length: docs * CHOICES }, (_, id) => id)));
    // What the run keeps of the task: its first planned doc, and one record per doc without answers.
    const [plan] = run.plans;
    expect(plan.docs.map((doc) => doc.docId)).toEqual([0]);
    expect(plan.chunked).toEqual({ docs: DOCS });
    const kept = run.scored[0].byFilter.get('none') ?? [];
    expect(kept.map((doc) => doc.docId)).toEqual(Array.from({ length: DOCS }, (_, i) => i));
    expect(kept.every((doc) => doc.filtered.length === 0)).toBe(true);
    // The scores are each chunk's own: 1 where the gold choice has the highest log-likelihood.
    const expectedAcc = chunks.flatMap((chunk) =>
      chunk.scored.byFilter.get('none')?.map((doc) => doc.metrics.acc),
    );
    expect(kept.map((doc) => doc.metrics.acc)).toEqual(expectedAcc);
    const acc = run.taskResults[0].metrics.find((metric) => metric.metric === 'acc');
    expect(acc?.n).toBe(DOCS);
    expect(acc?.value).toBeCloseTo(expectedAcc.filter((value) => value === 1).length / DOCS, 12);
  });

  it('scores the same with a GGUF model: the order and batches its requests arrive in change no number', async () => {
    const modelPath = path.join(folder, 'random.gguf');
    await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 5 })));
    const backend = await GgufBackend.create({ modelPath, threads: 1 });
    try {
      const whole = await runFiles('gguf-whole', { chunkDocs: 1000, tasks: ['tiny', 'chunky'], backend });
      const chunked = await runFiles('gguf-chunked', { chunkDocs: 3, tasks: ['tiny', 'chunky'], backend });
      expect(chunkedPlan(chunked.plans)?.chunked).toEqual({ docs: DOCS });
      expect(chunked.samples).toEqual(whole.samples);
      expect(chunked.results).toEqual(whole.results);
      // The model did answer: log-probabilities differ from choice to choice.
      const resps = chunked.samples.samples_chunky.match(/"resps":\[\[\["(-[\d.e-]+)"/g) ?? [];
      expect(new Set(resps).size).toBeGreaterThan(1);
    } finally {
      await backend.close?.();
    }
  });

  it('leaves no spool folder when the process exits mid-task (the CLI exits so on Ctrl-C)', async () => {
    const outputPath = path.join(outputs, 'exited');
    const directory = path.join(outputPath, 'dummy');
    const source = (file: string) => JSON.stringify(new URL(`../src/${file}`, import.meta.url).href);
    // The model exits the process at the third chunk's first request, as the CLI's SIGINT handler does,
    // after printing what the output folder holds then.
    const script = `
      const { readdirSync } = await import('node:fs');
      const { evaluateResolved } = await import(${source('run/evaluate.ts')});
      const { resolveRunOptions } = await import(${source('evaluate/run-options.ts')});
      const { scriptedBackend } = await import(${source('models/scripted/scripted-backend.ts')});
      const backend = scriptedBackend({
        name: 'fixed',
        loglikelihood: (request, position) => {
          if (position === ${2 * 3 * CHOICES}) {
            process.stdout.write(JSON.stringify(readdirSync(${JSON.stringify(directory)})));
            process.exit(130);
          }
          return { logprob: -request.continuation.length, isGreedy: false };
        },
      });
      await evaluateResolved({
        ...resolveRunOptions({ model: 'dummy', tasks: ['chunky'], includePath: [${JSON.stringify(folder)}],
          outputPath: ${JSON.stringify(outputPath)}, logSamples: true }),
        chunkDocs: 3,
        backends: { acquire: async () => backend, created: 1, close: async () => {} },
      });`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(130);
    // Two chunks were spooled when it exited; nothing of them is left after.
    expect(JSON.parse(child.stdout)).toEqual([
      expect.stringMatching(/^\.assay-staging-spool-\d+-[0-9a-f]+$/),
    ]);
    expect(await readdir(directory)).toEqual([]);
  });

  it('stops at a bad gold in a later chunk before any request, with the error of the task evaluated whole', async () => {
    const failure = async (chunkDocs: number) => {
      const backend = fixedBackend();
      const outputPath = path.join(outputs, `bad-gold-${chunkDocs}`);
      const error = await runFiles(`bad-gold-${chunkDocs}`, {
        chunkDocs,
        tasks: ['chunky_bad'],
        backend,
      }).then(
        () => undefined,
        (caught: unknown) => caught as Error & { location?: unknown },
      );
      return {
        message: error?.message,
        location: error?.location,
        requests: backend.received.loglikelihood.length,
        left: await readdir(path.join(outputPath, 'dummy')),
      };
    };
    const whole = await failure(1000);
    expect(whole).toEqual({
      message:
        'gold label 4 is not a choice index: the doc has 4 choices ["first 8","second 8","third 56","fourth 8.5"]',
      location: { task: 'chunky_bad', docId: 8, file: path.join(folder, 'chunky_bad.yaml') },
      requests: 0,
      left: [],
    });
    expect(await failure(3)).toEqual(whole);
  });

  it('stops at a few-shot draw that fails in a later chunk before any request, as the task evaluated whole does', async () => {
    const failure = (chunkDocs: number) => failedRun('twins', 'chunky_twins', chunkDocs);
    const whole = await failure(1000);
    expect(whole).toEqual({
      message: expect.stringMatching(
        /^task chunky_twins: number of few-shot samples returned \(8\) is not the number requested \(9\)$/,
      ),
      requests: 0,
    });
    expect(await failure(3)).toEqual(whole);
  });

  it('stops at a few-shot example that fails to render, first drawn in a later chunk, before any request', async () => {
    // The pool doc first drawn for a doc of the second chunk or later (the draws are seeded: 1234).
    const clean = await runFiles('shots-clean', { chunkDocs: 1000, tasks: ['chunky'] });
    const draws = clean.samples.samples_chunky
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).fewshot_ids as number[]);
    const firstDrawnAt = new Map<number, number>();
    draws.forEach((ids, docId) => {
      for (const id of ids) if (!firstDrawnAt.has(id)) firstDrawnAt.set(id, docId);
    });
    const late = [...firstDrawnAt].find(([, docId]) => docId >= 3);
    expect(late).toBeDefined();
    const [poolDoc, docId] = late as [number, number];
    // That pool doc's answer names a fifth choice of four.
    const train = (await readFile(path.join(folder, 'train.jsonl'), 'utf8')).split('\n');
    train[poolDoc] = train[poolDoc].replace(/"answer":\d/, '"answer":4');
    await writeFile(path.join(folder, 'train_badshot.jsonl'), train.join('\n'));
    await writeFile(
      path.join(folder, 'chunky_badshot.yaml'),
      (await readFile(path.join(folder, 'chunky.yaml'), 'utf8'))
        .replace('task: chunky', 'task: chunky_badshot')
        .replace('train: train.jsonl', 'train: train_badshot.jsonl'),
    );
    const failure = (chunkDocs: number) => failedRun('badshot', 'chunky_badshot', chunkDocs);
    const whole = await failure(1000);
    expect(whole).toEqual({
      message: `few-shot doc ${docId}/fewshot ${draws[docId].indexOf(poolDoc)}: target 4 is out of range for 4 choices`,
      requests: 0,
    });
    expect(await failure(3)).toEqual(whole);
  });

  it('resumes from the response cache: a run stopped in its third chunk leaves the first two answered', async () => {
    const cache = new MemoryResponseCache();
    // The first run fails at the third chunk's first request (after 2 chunks × 3 docs × 4 choices).
    const interrupted = withResponseCache(fixedBackend(2 * 3 * CHOICES), cache, {});
    await expect(
      runFiles('interrupted', { chunkDocs: 3, tasks: ['chunky'], backend: interrupted }),
    ).rejects.toThrow(/interrupted/);
    const resumedModel = fixedBackend();
    const resumed = await runFiles('resumed', {
      chunkDocs: 3,
      tasks: ['chunky'],
      backend: withResponseCache(resumedModel, cache, {}),
    });
    // Only docs 6–9 reached the model; the rest came from the cache.
    expect(resumedModel.received.loglikelihood).toHaveLength(4 * CHOICES);
    const asked = resumedModel.received.loglikelihood.map(
      (request) => /test question (\d+)/.exec(request.context)?.[1],
    );
    expect([...new Set(asked)].sort()).toEqual(['6', '7', '8', '9']);
    const fresh = await runFiles('fresh', { chunkDocs: 1000, tasks: ['chunky'], backend: fixedBackend() });
    expect(resumed.samples).toEqual(fresh.samples);
    expect(resumed.results).toEqual(fresh.results);
    expect(resumed.leftovers).toEqual([]);
  });
});
