/**
 * Sharded runs then a merge, compared with one unsharded run field by field: only timing fields may
 * differ, and the sample logs must be the same bytes. The runs and merges go through the library
 * (evaluate() with `shard: {index, count}`, mergeShards()) in this process, the GGUF ones on one engine
 * held across them; the real CLI runs once for `assay run --shard` (a shard merged with shards the
 * library wrote, so both write the same run), once for `assay merge`, and once for the parser's --shard
 * refusal, and the unsharded run whose table the merge must print goes through the CLI's main() in
 * process. Refusals the library raises are shown as the CLI shows them, by its one error reporter
 * (src/cli/errors.ts).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readLeaderboard, readResultsFile } from 'assay/results';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportError } from '../src/cli/errors.js';
import { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import { randomLlamaGguf } from '../src/models/gguf/llama-model.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { type MergeOptions, type MergeResult, mergeShards } from '../src/report/merge/merge-shards.js';
import {
  type EvaluateOptions,
  type EvaluateResult,
  evaluate,
  type SimpleEvaluateOptions,
  simpleEvaluate,
} from '../src/run/evaluate.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';
import { type Json, withoutLatencyTimes, withoutTiming } from './support/shards.js';

let taskDir: string;
beforeAll(() => {
  taskDir = tempDir('assay-shard-tasks-');
  const data = path.join(taskDir, 'data');
  mkdirSync(data);
  const mc = (split: string, count: number) =>
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        question: `${split} item ${i}: which follows ${i % 7} and ${i % 5}?`,
        choices: ['red', 'green', 'blue', `word ${i}`],
        answer: i % 4,
      }),
    ).join('\n');
  writeFileSync(path.join(data, 'mc_test.jsonl'), `${mc('test', 25)}\n`);
  writeFileSync(path.join(data, 'mc_train.jsonl'), `${mc('train', 9)}\n`);
  const gen = Array.from({ length: 22 }, (_, i) =>
    JSON.stringify({ question: `What is ${i} plus ${i % 3}?`, answer: `the answer is ${i + (i % 3)}` }),
  ).join('\n');
  writeFileSync(path.join(data, 'gen_test.jsonl'), `${gen}\n`);
  const mcTask = (name: string, template: string, metrics: string[]) =>
    [
      `task: ${name}`,
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: data/mc_test.jsonl',
      '    train: data/mc_train.jsonl',
      'test_split: test',
      'fewshot_split: train',
      'num_fewshot: 2',
      'output_type: multiple_choice',
      `doc_to_text: "${template}"`,
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: answer',
      'metric_list:',
      ...metrics.map((metric) => `  - metric: ${metric}`),
      '',
    ].join('\n');
  writeFileSync(
    path.join(taskDir, 'shard_mc_a.yaml'),
    mcTask('shard_mc_a', '{{question}}\\nAnswer:', ['acc']),
  );
  writeFileSync(
    path.join(taskDir, 'shard_mc_b.yaml'),
    mcTask('shard_mc_b', 'Q: {{question}}\\nA:', ['acc', 'acc_norm']),
  );
  writeFileSync(
    path.join(taskDir, 'shard_group.yaml'),
    [
      'group: shard_group',
      'task:',
      '  - shard_mc_a',
      '  - shard_mc_b',
      'aggregate_metric_list:',
      '  - metric: acc',
      '    weight_by_size: true',
      'metadata:',
      '  version: 1',
      '',
    ].join('\n'),
  );
  // Two filters and a bootstrapped corpus metric (bleu): its stderr resamples the items in doc order.
  writeFileSync(
    path.join(taskDir, 'shard_gen.yaml'),
    [
      'task: shard_gen',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: data/gen_test.jsonl',
      'test_split: test',
      'output_type: generate_until',
      'doc_to_text: "Q: {{question}}\\nA:"',
      'doc_to_target: answer',
      'generation_kwargs:',
      '  until: ["\\n"]',
      '  max_gen_toks: 12',
      'filter_list:',
      '  - name: whole',
      '    filter:',
      '      - function: take_first',
      '  - name: last-word',
      '    filter:',
      '      - function: regex',
      '        regex_pattern: "(\\\\w+)\\\\s*$"',
      '      - function: take_first',
      'metric_list:',
      '  - metric: exact_match',
      '  - metric: bleu',
      '',
    ].join('\n'),
  );
});

/** Every sample log and the results and leaderboard files of one run directory (`<out>/<model>/`). */
function readRun(directory: string): {
  results: Json;
  leaderboard: Json;
  samples: Record<string, string>;
} {
  const results = readResultsFile(findOne(directory, /^results_.*\.json$/));
  const samples: Record<string, string> = {};
  for (const name of readdirSync(directory)) {
    const match = /^samples_(.+)_\d{4}-\d{2}-\d{2}T[\d.-]+\.jsonl$/.exec(name);
    if (match) samples[match[1]] = readFileSync(path.join(directory, name), 'utf8');
  }
  const leaderboard = readLeaderboard(findOne(directory, /^leaderboard_.*\.json$/));
  return { results, leaderboard, samples };
}

function leaderboardWithoutTiming(leaderboard: Json): Json {
  const copy = structuredClone(leaderboard);
  delete copy.date;
  // The results file's name carries the run's time stamp.
  delete copy.results_file;
  for (const task of Object.values(copy.tasks) as Json[]) withoutLatencyTimes(task.latency);
  return copy;
}

function expectSameRun(single: ReturnType<typeof readRun>, merged: ReturnType<typeof readRun>): void {
  // Key order too: the files must read the same, not just hold the same values.
  expect(JSON.stringify(withoutTiming(merged.results), null, 2)).toBe(
    JSON.stringify(withoutTiming(single.results), null, 2),
  );
  expect(leaderboardWithoutTiming(merged.leaderboard)).toEqual(leaderboardWithoutTiming(single.leaderboard));
  expect(Object.keys(merged.samples).sort()).toEqual(Object.keys(single.samples).sort());
  for (const [task, text] of Object.entries(single.samples)) expect(merged.samples[task]).toBe(text);
}

/** A merge in this process; a run's or merge's warnings are collected so that a test can read them. */
async function merge(shards: string[], outputPath: string, warnings: string[] = []): Promise<MergeResult> {
  const options: MergeOptions = { shards, outputPath, logger: { warn: (message) => warnings.push(message) } };
  return mergeShards(options);
}

/**
 * A library call that must be refused, shown as `assay` shows it: the CLI's one error reporter writes the
 * stderr line and picks the exit code.
 */
async function refusal(work: () => Promise<unknown>): Promise<{ status: number; stderr: string }> {
  let error: unknown;
  try {
    await work();
  } catch (caught) {
    error = caught;
  }
  if (error === undefined) return { status: 0, stderr: '' };
  let stderr = '';
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { status: reportError(error), stderr };
  } finally {
    write.mockRestore();
  }
}

describe('--shard i/N and assay merge (dummy backend)', () => {
  const out = tempDir('assay-shard-dummy-');
  const tasks = ['shard_group', 'shard_gen', 'examples/tasks/arithmetic.jsonl'];
  const common = [
    'run',
    '--model',
    'dummy',
    '--tasks',
    ...tasks,
    '--include_path',
    '',
    '--log_samples',
    '--bootstrap_iters',
    '500',
  ];
  const args = (output: string, extra: string[] = []) => {
    const list = [...common, '--output_path', output, ...extra];
    list[list.indexOf('--include_path') + 1] = taskDir;
    return list;
  };
  /** The run `args` makes, through the library: the options `assay run` passes for those flags. */
  const run = (output: string, extra: Partial<EvaluateOptions> = {}): Promise<EvaluateResult> =>
    evaluate({
      model: 'dummy',
      tasks,
      includePath: [taskDir],
      logSamples: true,
      bootstrapIters: 500,
      batchSize: 1,
      outputPath: output,
      ...extra,
    });

  it('three shards merge into exactly the single run', async () => {
    // The single run through the CLI's main() in process (test/support/cli-in-process.ts): its table is compared
    // with the real `assay merge`'s below.
    const single = await runCliInProcess(args(path.join(out, 'single')));
    expect(single.stderr).not.toMatch(/error/);
    expect(single.status).toBe(0);
    // Shard 1 through the CLI, shards 0 and 2 through the library: the merge checks they were run alike.
    for (let index = 0; index < 3; index++) {
      if (index === 1) {
        const shard = runCli(args(path.join(out, `shard${index}`), ['--shard', `${index}/3`]));
        expect(shard.status).toBe(0);
        expect(shard.stdout).toContain(`--shard ${index}/3; combine the shards with assay merge`);
      } else {
        const shard = await run(path.join(out, `shard${index}`), { shard: { index, count: 3 } });
        expect(shard.results.errors.samples).toBe(0);
        expect(shard.results.config.shard).toBe(`${index}/3`);
      }
    }
    const shard1 = readRun(path.join(out, 'shard1', 'dummy'));
    expect(shard1.results.config.shard).toBe('1/3');
    expect(shard1.results.partial).toBe(true);
    expect(shard1.results.manifest.shard).toEqual({
      index: 1,
      count: 3,
      tasks: ['shard_group', 'shard_gen', 'examples/tasks/arithmetic.jsonl'],
      include_path: [taskDir],
      samples: null,
      predict_only: false,
    });
    // Positions 1, 4, 7, … of 25 docs; few-shot draws are those of the single run.
    expect(shard1.results['n-samples'].shard_mc_a).toEqual({ original: 25, effective: 8 });
    const shardLines = shard1.samples.shard_mc_a
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(shardLines.map((line) => line.doc_id)).toEqual([1, 4, 7, 10, 13, 16, 19, 22]);
    const singleRun = readRun(path.join(out, 'single', 'dummy'));
    const singleLines = singleRun.samples.shard_mc_a
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(shardLines.map((line) => line.fewshot_ids)).toEqual(
      [1, 4, 7, 10, 13, 16, 19, 22].map((id) => singleLines[id].fewshot_ids),
    );

    // The real `assay merge`: shards given out of order, as directories of different depths.
    const merge = runCli([
      'merge',
      path.join(out, 'shard2'),
      path.join(out, 'shard0', 'dummy'),
      findOne(path.join(out, 'shard1', 'dummy'), /^results_.*\.json$/),
      '--output_path',
      path.join(out, 'merged'),
    ]);
    expect(merge.stderr).toContain('assay: merged 3 shards into');
    expect(merge.status).toBe(0);
    const merged = readRun(path.join(out, 'merged', 'dummy'));
    expectSameRun(singleRun, merged);
    // The identity covers the statistics, not only the point values.
    expect(merged.results.results.shard_gen['bleu_stderr,whole']).toBe(
      singleRun.results.results.shard_gen['bleu_stderr,whole'],
    );
    expect(typeof merged.results.results.shard_gen['bleu_stderr,whole']).toBe('number');
    expect(merged.results.groups.shard_group['acc_ci,none']).toEqual(
      singleRun.results.groups.shard_group['acc_ci,none'],
    );
    expect(merged.results.partial).toBe(false);
    expect(merged.results.config.shard).toBeUndefined();
    expect(merged.results.manifest.shard).toBeUndefined();
    // Request counts add up to the single run's.
    expect(merged.results.request_stats.loglikelihood.requests).toBe(
      singleRun.results.request_stats.loglikelihood.requests,
    );
    expect(merged.results.request_stats.generate_until.requests).toBe(
      singleRun.results.request_stats.generate_until.requests,
    );
    // And the merged stdout table is the single run's.
    expect(merge.stdout).toBe(single.stdout.slice(single.stdout.indexOf('\n') + 1));
  });

  it('--samples in any order: shards split by position, and the merge aggregates in the given order', async () => {
    const samples = {
      shard_gen: [17, 3, 9, 0, 21, 5, 12, 8, 1],
      shard_mc_a: [24, 2, 11, 6, 19],
    };
    const single = await run(path.join(out, 'samples-single'), { samples });
    expect(single.results.errors.samples).toBe(0);
    for (let index = 0; index < 2; index++) {
      expect(
        (await run(path.join(out, `samples-shard${index}`), { samples, shard: { index, count: 2 } })).results
          .errors.samples,
      ).toBe(0);
    }
    const shard0 = readRun(path.join(out, 'samples-shard0', 'dummy'));
    const ids = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).doc_id);
    expect([...new Set(ids(shard0.samples.shard_gen))]).toEqual([1, 9, 12, 17, 21]);
    const merged = await merge(
      [path.join(out, 'samples-shard0'), path.join(out, 'samples-shard1')],
      path.join(out, 'samples-merged'),
    );
    expect(merged.erroredSamples).toBe(0);
    expectSameRun(
      readRun(path.join(out, 'samples-single', 'dummy')),
      readRun(path.join(out, 'samples-merged', 'dummy')),
    );
  });

  it('--limit with more shards than some tasks have docs', async () => {
    const single = await run(path.join(out, 'limit-single'), { limit: 4 });
    expect(single.results.errors.samples).toBe(0);
    for (let index = 0; index < 5; index++) {
      expect(
        (await run(path.join(out, `limit-shard${index}`), { limit: 4, shard: { index, count: 5 } })).results
          .errors.samples,
      ).toBe(0);
    }
    const shard4 = readRun(path.join(out, 'limit-shard4', 'dummy'));
    expect(shard4.samples.shard_gen).toBe('');
    const result = await merge(
      Array.from({ length: 5 }, (_, index) => path.join(out, `limit-shard${index}`)),
      path.join(out, 'limit-merged'),
    );
    expect(result.erroredSamples).toBe(0);
    const merged = readRun(path.join(out, 'limit-merged', 'dummy'));
    expectSameRun(readRun(path.join(out, 'limit-single', 'dummy')), merged);
    expect(merged.results.partial).toBe(true);
  });

  it('refuses shards that do not fit together (exit 2, the reason named)', async () => {
    const shard = (index: number) => path.join(out, `shard${index}`);
    const refusedMerge = (...shards: string[]) => refusal(() => merge(shards, path.join(out, 'refused')));

    let result = await refusedMerge(shard(0), shard(2));
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('assay: error: missing shard 1/3: a merge needs all 3\n');

    result = await refusedMerge(shard(0), shard(1), shard(1), shard(2));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^assay: error: shard 1\/3 given twice: /);

    result = await refusedMerge(shard(0), shard(1), path.join(out, 'samples-shard1'));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/shards of different splits: .* is 0\/3, .* is 1\/2/);

    result = await refusedMerge(shard(0), path.join(out, 'single'));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /results_.*\.json is not a shard run \(its manifest has no shard\); run each part with --shard i\/N/,
    );

    // Another seed for shard 1 (--seed 7 sets all four): the model args and seeds differ.
    const seeded = await run(path.join(out, 'seeded1'), {
      shard: { index: 1, count: 3 },
      seeds: { random: 7, numpy: 7, torch: 7, fewshot: 7 },
    });
    expect(seeded.results.errors.samples).toBe(0);
    result = await refusedMerge(shard(0), path.join(out, 'seeded1'), shard(2));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^assay: error: shard 1\/3 \(.*\) was not run like shard 0\/3 \(.*\): config\.random_seed is 0 in one and 7 in the other\n$/,
    );

    // Same --limit everywhere but a different one in shard 2.
    result = await refusedMerge(path.join(out, 'limit-shard0'), path.join(out, 'limit-shard1'), shard(2));
    expect(result.status).toBe(2);

    // A shard without sample logs.
    const bare = path.join(out, 'bare2');
    expect((await run(bare, { shard: { index: 2, count: 3 } })).results.errors.samples).toBe(0);
    for (const name of readdirSync(path.join(bare, 'dummy')))
      if (name.startsWith('samples_')) rmSync(path.join(bare, 'dummy', name));
    result = await refusedMerge(shard(0), shard(1), bare);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /no sample logs beside .*: assay merge re-aggregates from the sample logs, so every shard must be run with --log_samples/,
    );

    // A shard without sample logs is refused before anything runs.
    const withoutLogs = await refusal(() =>
      evaluate({
        model: 'dummy',
        tasks: ['examples/tasks/arithmetic.jsonl'],
        shard: { index: 0, count: 2 },
        outputPath: bare,
        batchSize: 1,
      }),
    );
    expect(withoutLogs.status).toBe(2);
    expect(withoutLogs.stderr).toBe(
      'assay: error: --shard needs --output_path and --log_samples: assay merge reads the sample logs\n',
    );
    // The flag's own parsing, in the real CLI.
    const badShard = runCli([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--shard',
      '3/3',
      '-o',
      bare,
      '--log_samples',
    ]);
    expect(badShard.status).toBe(2);
    expect(badShard.stderr).toBe(
      'assay: error: --shard 3/3: i must be between 0 and 2 (shards are numbered from 0)\n',
    );
  });
});

describe('--shard and assay merge through the HTTP backend', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(async () => {
    await server.close();
  });

  it('three local-completions shards merge into the single run', async () => {
    const out = tempDir('assay-shard-http-');
    // The shards run at the same time, against the one loopback server.
    const run = (output: string, extra: Partial<EvaluateOptions> = {}) =>
      evaluate({
        model: 'local-completions',
        // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
        modelArgs: {
          tokenized_requests: false,
          model: 'test',
          base_url: server.completionsUrl,
          num_concurrent: 4,
          batch_size: 3,
        },
        tasks: ['shard_group', 'shard_gen'],
        includePath: [taskDir],
        samples: { shard_gen: [20, 1, 14, 7, 3, 11, 0] },
        outputPath: output,
        logSamples: true,
        batchSize: 1,
        ...extra,
      });
    const single = await run(path.join(out, 'single'));
    expect(single.results.errors.samples).toBe(0);
    const shards = await Promise.all(
      [0, 1, 2].map((index) => run(path.join(out, `shard${index}`), { shard: { index, count: 3 } })),
    );
    for (const shard of shards) expect(shard.results.errors.samples).toBe(0);
    const result = await merge(
      [0, 1, 2].map((index) => path.join(out, `shard${index}`)),
      path.join(out, 'merged'),
    );
    expect(result.erroredSamples).toBe(0);
    const singleRun = readRun(path.join(out, 'single', 'test'));
    const merged = readRun(path.join(out, 'merged', 'test'));
    expectSameRun(singleRun, merged);
    // Usage counts add up across shards: every prompt was sent once, by exactly one shard.
    expect(merged.results.request_stats.usage.requests).toBe(singleRun.results.request_stats.usage.requests);
    expect(merged.results.request_stats.usage.tokensIn).toBe(singleRun.results.request_stats.usage.tokensIn);
    expect(merged.results.request_stats.usage.latencyP50Ms).toBeNull();
  });
});
describe('assay merge of perplexity runs (loglikelihood_rolling)', () => {
  const out = tempDir('assay-shard-ppl-');
  const words = ['alpha', 'beta', 'gamma', 'delta', 'river', 'stone', 'light', 'seven', 'north', 'quiet'];
  const texts = Array.from({ length: 7 }, (_, doc) =>
    Array.from(
      { length: 30 + doc * 9 },
      (_, i) => words[(i * (doc + 3) + doc) % words.length] + (i % 11 === 10 ? '.\n' : ' '),
    )
      .join('')
      .trim(),
  );
  writeFileSync(
    path.join(out, 'texts.jsonl'),
    `${texts.map((text) => JSON.stringify({ text })).join('\n')}\n`,
  );
  const task = path.join(out, 'shard_ppl.yaml');
  writeFileSync(
    task,
    [
      'task: shard_ppl',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: texts.jsonl',
      'test_split: test',
      'output_type: loglikelihood_rolling',
      'doc_to_text: ""',
      'doc_to_target: text',
      'metadata:',
      '  version: 1.0',
      '',
    ].join('\n'),
  );
  // The same task with lm-eval's wikitext metric_list: a tokenizing backend adds token_perplexity to what
  // is aggregated, never to the task's own config (results.json's `configs` records the file's list, as
  // lm-eval does), so the shards' recorded config is still the task file's and the merge takes them.
  const listed = path.join(out, 'shard_ppl_listed.yaml');
  writeFileSync(
    listed,
    [
      'task: shard_ppl_listed',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: texts.jsonl',
      'test_split: test',
      'output_type: loglikelihood_rolling',
      'doc_to_text: ""',
      'doc_to_target: text',
      'metric_list:',
      '  - metric: word_perplexity',
      '  - metric: byte_perplexity',
      '  - metric: bits_per_byte',
      'metadata:',
      '  version: 1.0',
      '',
    ].join('\n'),
  );
  const model = path.join(out, 'random.gguf');
  writeFileSync(model, writeGguf(randomLlamaGguf({ seed: 5 })));

  /**
   * The single run, then each shard, then the merge. `model` is a backend by name (evaluate creates and
   * closes one per run) or one backend held across all the runs (simpleEvaluate): a GGUF engine costs
   * about 1.3 CPU s to start, and which process scores a shard's windows does not change what the merge
   * must add up to.
   */
  async function singleAndMerged(
    name: string,
    model: Partial<EvaluateOptions> | Pick<SimpleEvaluateOptions, 'model' | 'modelName' | 'perplexity'>,
    shards: number,
    taskFile = task,
  ) {
    const warnings: string[] = [];
    const run = (output: string, extra: Pick<EvaluateOptions, 'shard'> = {}) => {
      const common = {
        tasks: [taskFile],
        outputPath: path.join(out, name, output),
        logSamples: true,
        batchSize: 1,
        logger: { warn: (message: string) => warnings.push(message) },
      };
      return typeof model.model === 'object'
        ? simpleEvaluate({ ...(model as SimpleEvaluateOptions), ...common, ...extra })
        : evaluate({ model: 'dummy', ...(model as Partial<EvaluateOptions>), ...common, ...extra });
    };
    const single = await run('single');
    expect(warnings.join('\n')).not.toMatch(/Error/);
    expect(single.results.errors.samples).toBe(0);
    for (let index = 0; index < shards; index++)
      expect((await run(`shard${index}`, { shard: { index, count: shards } })).results.errors.samples).toBe(
        0,
      );
    const mergeWarnings: string[] = [];
    const result = await merge(
      Array.from({ length: shards }, (_, index) => path.join(out, name, `shard${index}`)),
      path.join(out, name, 'merged'),
      mergeWarnings,
    );
    expect(mergeWarnings.join('\n')).not.toMatch(/error/i);
    expect(result.erroredSamples).toBe(0);
    const [directory] = readdirSync(path.join(out, name, 'single'));
    return {
      single: readRun(path.join(out, name, 'single', directory)),
      merged: readRun(path.join(out, name, 'merged', directory)),
    };
  }

  it('dummy backend, rolling: the merged perplexity block and logs equal the single run', async () => {
    const { single, merged } = await singleAndMerged('dummy', { model: 'dummy' }, 3);
    const report = single.results.perplexity.shard_ppl;
    expect(report.mode).toBe('rolling');
    expect(report.docs).toBe(7);
    expect(report.tokenizer).toBeNull();
    expectSameRun(single, merged);
    expect(merged.results.perplexity.shard_ppl.loglikelihood).toBe(report.loglikelihood);
    expect(merged.results.perplexity.shard_ppl.counts).toEqual(report.counts);
  });

  // --model gguf --model_args model=…,n_ctx=64,threads=1,batch_size=1: one engine for every run of both
  // modes (each mode's single run, its shards), started by the first test that needs it.
  let engine: Promise<GgufBackend> | undefined;
  afterAll(async () => {
    await (await engine)?.close();
  });

  for (const [mode, perplexity] of [
    ['strided', { mode: 'strided', maxLength: 32, stride: 16 }],
    ['chunked', { mode: 'chunked', maxLength: 16 }],
  ] as const) {
    it(`gguf, ${mode}: the merged block is what the merged logs add up to; counts and tokenizer equal the single run's`, async () => {
      engine ??= GgufBackend.create({ modelPath: model, nCtx: 64, threads: 1, sequences: 1 });
      const backend = await engine;
      const { single, merged } = await singleAndMerged(
        `gguf-${mode}`,
        { model: backend, modelName: 'gguf', perplexity: { ...perplexity } },
        2,
      );
      const report = single.results.perplexity.shard_ppl;
      expect(report.mode).toBe(mode);
      expect(report.scored_tokens).toBeGreaterThan(100);
      expect(report.tokenizer.vocab_sha256).toMatch(/^[0-9a-f]{64}$/);
      if (mode === 'chunked') {
        expect(report.counts_from).toBe('scored spans');
        expect(typeof report.llama_cpp.ppl_stderr).toBe('number');
      }
      // The engine's sums are not bit-reproducible across batch compositions (a shard packs other
      // windows together and shares other prefixes), so scores agree to ~1e-8 relative, not bit for bit; the
      // merge itself is exact: its block is what the merged logs add up to, and every count is the
      // single run's.
      const block = merged.results.perplexity.shard_ppl;
      for (const key of [
        'mode',
        'mode_source',
        'parameters',
        'tokenizer',
        'docs',
        'windows',
        'text_tokens',
        'scored_tokens',
        'counts',
        'counts_from',
      ])
        expect(block[key], key).toEqual(report[key]);
      const lines = merged.samples.shard_ppl
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      let total = 0;
      for (const line of lines) total += line.ppl_doc.logprob;
      expect(block.loglikelihood).toBe(total);
      expect(block.token_perplexity).toBe(Math.exp(-total / block.scored_tokens));
      const singleLines = single.samples.shard_ppl
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map(({ ppl_doc: { logprob: _l, nll_squares: _n, ...counts } }) => counts)).toEqual(
        singleLines.map(({ ppl_doc: { logprob: _l, nll_squares: _n, ...counts } }) => counts),
      );
      const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
      for (const key of [
        'loglikelihood',
        'token_perplexity',
        'word_perplexity',
        'byte_perplexity',
        'bits_per_byte',
      ])
        expect(relative(block[key], report[key]), key).toBeLessThan(1e-6);
      if (mode === 'chunked') {
        expect(block.llama_cpp.chunks).toBe(report.llama_cpp.chunks);
        expect(relative(block.llama_cpp.ppl, report.llama_cpp.ppl)).toBeLessThan(1e-6);
        expect(relative(block.llama_cpp.ppl_stderr, report.llama_cpp.ppl_stderr)).toBeLessThan(1e-6);
      }
      // The task's metrics in results: the merge aggregates token_perplexity as the single run does (the
      // perplexity block's own token_perplexity, to the same precision), no metric dropped.
      const singleMetrics = single.results.results.shard_ppl;
      const mergedMetrics = merged.results.results.shard_ppl;
      expect(Object.keys(mergedMetrics).sort()).toEqual(Object.keys(singleMetrics).sort());
      expect(relative(singleMetrics['token_perplexity,none'], report.token_perplexity)).toBeLessThan(1e-12);
      expect(relative(mergedMetrics['token_perplexity,none'], block.token_perplexity)).toBeLessThan(1e-12);
    });
  }

  it("gguf with the task's own metric_list (wikitext's): token_perplexity is aggregated but not written into the recorded config, and the shards merge", async () => {
    engine ??= GgufBackend.create({ modelPath: model, nCtx: 64, threads: 1, sequences: 1 });
    const backend = await engine;
    const { single, merged } = await singleAndMerged(
      'gguf-listed',
      { model: backend, modelName: 'gguf', perplexity: { mode: 'chunked', maxLength: 16 } },
      2,
      listed,
    );
    const listedMetrics = ['word_perplexity', 'byte_perplexity', 'bits_per_byte'];
    for (const run of [single, merged]) {
      expect(
        run.results.configs.shard_ppl_listed.metric_list.map((entry: { metric: string }) => entry.metric),
      ).toEqual(listedMetrics);
      const metrics = run.results.results.shard_ppl_listed;
      const block = run.results.perplexity.shard_ppl_listed;
      expect(
        Math.abs(metrics['token_perplexity,none'] - block.token_perplexity) / block.token_perplexity,
      ).toBeLessThan(1e-12);
      expect(run.results.higher_is_better.shard_ppl_listed.token_perplexity).toBe(false);
    }
    expect(Object.keys(merged.results.results.shard_ppl_listed).sort()).toEqual(
      Object.keys(single.results.results.shard_ppl_listed).sort(),
    );
  });
});
