/**
 * The results contract (issue 18): one reader, used by compare, gate, merge, view, export and the
 * leaderboard diff, reads lm-eval's own files (no assay fields) as well as assay's; what assay writes
 * parses under every schema; a file from a newer version is refused with the versions this one reads.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadExportSource } from '../export/source.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { proportionConfidenceInterval } from '../stats/proportion-interval.js';
import { discoverRuns } from '../view/discover.js';
import { compareLoadedRuns } from './compare/compare-runs.js';
import { diffLeaderboards, loadLeaderboardSide, resolveComparison } from './compare/leaderboard-diff.js';
import { buildLeaderboard } from './leaderboard.js';
import { parseLeaderboard, readLeaderboard } from './read-leaderboard.js';
import { loadRun, parseResults } from './read-run.js';
import { readSampleLog, readSampleScores } from './read-samples.js';
import {
  leaderboardSchema,
  mergedSampleSchema,
  pairingSampleSchema,
  resultsFileSchema,
  sampleLineSchema,
} from './schema.js';

const STAMP = '2024-05-01T12-00-00.123456';

/**
 * lm-eval's own output, key by key as ../shared/reference/lm-eval-notes.md §5 describes it (and
 * loggers/evaluation_tracker.py writes it): no assay_schema, manifest, stats, errors or intervals.
 */
function lmEvalRun(root: string): string {
  const folder = path.join(root, 'EleutherAI__pythia-70m');
  mkdirSync(folder, { recursive: true });
  const results = {
    results: {
      arc_mini: {
        alias: 'arc_mini',
        name: 'arc_mini',
        sample_len: 4,
        'acc,none': 0.5,
        'acc_stderr,none': 0.28867513459481287,
        'acc_norm,none': 0.25,
        'acc_norm_stderr,none': 0.25,
      },
    },
    group_subtasks: { arc_mini: [] },
    configs: { arc_mini: { task: 'arc_mini', output_type: 'multiple_choice', num_fewshot: 0 } },
    versions: { arc_mini: 1.0 },
    'n-shot': { arc_mini: 0 },
    higher_is_better: { arc_mini: { acc: true, acc_norm: true } },
    'n-samples': { arc_mini: { original: 4, effective: 4 } },
    config: {
      model: 'hf',
      model_args: 'pretrained=EleutherAI/pythia-70m',
      batch_size: 1,
      batch_sizes: [],
      device: 'cpu',
      use_cache: null,
      limit: null,
      bootstrap_iters: 100000,
      gen_kwargs: null,
      random_seed: 0,
      numpy_seed: 1234,
      torch_seed: 1234,
      fewshot_seed: 1234,
    },
    git_hash: 'abc1234',
    date: 1714564800.123,
    pretty_env_info: 'PyTorch version: 2.3.0',
    transformers_version: '4.40.0',
    lm_eval_version: '0.4.8',
    upper_git_hash: null,
    tokenizer_pad_token: ['<|endoftext|>', '0'],
    tokenizer_eos_token: ['<|endoftext|>', '0'],
    tokenizer_bos_token: ['<|endoftext|>', '0'],
    eot_token_id: 0,
    max_length: 2048,
    task_hashes: { arc_mini: 'f'.repeat(64) },
    model_source: 'hf',
    model_name: 'EleutherAI/pythia-70m',
    model_name_sanitized: 'EleutherAI__pythia-70m',
    system_instruction: null,
    system_instruction_sha: null,
    fewshot_as_multiturn: false,
    chat_template: null,
    chat_template_sha: null,
    total_evaluation_time_seconds: '12.5',
  };
  writeFileSync(path.join(folder, `results_${STAMP}.json`), JSON.stringify(results, null, 2));
  const lines = [1, 0, 1, 0].map((acc, docId) => ({
    doc_id: docId,
    doc: { question: `q${docId}`, choices: ['a', 'b'], answer: 0 },
    target: '0',
    arguments: {
      gen_args_0: { arg_0: `Question: q${docId}\nAnswer:`, arg_1: ' a' },
      gen_args_1: { arg_0: `Question: q${docId}\nAnswer:`, arg_1: ' b' },
    },
    resps: [[['-1.5', 'False']], [['-2.5', 'False']]],
    filtered_resps: [
      ['-1.5', 'False'],
      ['-2.5', 'False'],
    ],
    filter: 'none',
    metrics: ['acc', 'acc_norm'],
    doc_hash: `${docId}`.repeat(64),
    prompt_hash: 'p'.repeat(64),
    target_hash: 't'.repeat(64),
    acc,
    acc_norm: docId === 0 ? 1 : 0,
  }));
  writeFileSync(
    path.join(folder, `samples_arc_mini_${STAMP}.jsonl`),
    lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
  );
  return folder;
}

describe('the one reader, on lm-eval’s own files', () => {
  let root = '';
  let folder = '';
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'assay-lm-eval-files-'));
    folder = lmEvalRun(root);
  });

  it('compare, gate, merge and export load it; pairing reads its sample log', () => {
    // The --output_path folder above the model folder, as compare and gate take it.
    const run = loadRun(root);
    expect(run.resultsFile).toBe(path.join(folder, `results_${STAMP}.json`));
    expect([...run.sampleFiles.keys()]).toEqual(['arc_mini']);
    expect(run.results.model_name).toBe('EleutherAI/pythia-70m');
    expect(run.results.assay_schema).toBeUndefined();
    expect(
      readSampleScores(run.sampleFiles.get('arc_mini') as string).map((line) => line.values.acc),
    ).toEqual([1, 0, 1, 0]);
    const comparison = compareLoadedRuns(run, run);
    expect(comparison.tasks.map((row) => [row.name, row.metric, row.n, row.difference])).toEqual([
      ['arc_mini', 'acc', 4, 0],
    ]);
    expect(resolveComparison(root, root).mode).toBe('paired');
    const source = loadExportSource(folder);
    expect([source.resultsFile, source.leaderboardFile, source.stamp]).toEqual([
      run.resultsFile,
      undefined,
      STAMP,
    ]);
  });

  it('the viewer lists it without a problem', async () => {
    const { runs, problems } = await discoverRuns([root]);
    expect(problems).toEqual([]);
    expect(
      runs.map((entry) => [entry.summary.model, entry.summary.tasks, entry.summary.sampleTasks]),
    ).toEqual([['EleutherAI/pythia-70m', ['arc_mini'], ['arc_mini']]]);
    expect(runs[0].summary.scores.arc_mini).toMatchObject({ metric: 'acc', value: 0.5, ci: null });
  });

  it('a leaderboard is derived from it when a diff needs one', () => {
    const side = loadLeaderboardSide(folder);
    expect(side.file).toBe(path.join(folder, `results_${STAMP}.json`));
    expect(side.leaderboard.tasks.arc_mini).toMatchObject({
      metric: 'acc',
      value: 0.5,
      stderr: 0.28867513459481287,
      // lm-eval writes no interval.
      ci: null,
      n: 4,
      errors: 0,
      timeouts: 0,
      latency: null,
      sha256: null,
    });
    expect(side.leaderboard.overall).toBe(0.5);
    expect(leaderboardSchema.safeParse(side.leaderboard).success).toBe(true);
  });
});

describe('what assay writes is what its readers read', () => {
  it('results, every sample line and the leaderboard parse under the contract, keeping every key', async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'assay-contract-'));
    const task = path.join(work, 'qa.jsonl');
    writeFileSync(
      task,
      [0, 1, 2]
        .map((i) => JSON.stringify({ id: i, prompt: `Q${i}?`, targets: ['x'], metric: 'exact_match' }))
        .join('\n'),
    );
    const output = await simpleEvaluate({
      model: new DummyBackend(),
      tasks: [task],
      outputPath: path.join(work, 'out'),
      logSamples: true,
      bootstrapIters: 0,
    });
    const files = output.files;
    if (!files) throw new Error('the run wrote nothing');
    const written = JSON.parse(readFileSync(files.results, 'utf8'));
    const parsed = resultsFileSchema.parse(written);
    // Loose: nothing the writer wrote is dropped (merge and export copy what they do not interpret).
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(written).sort());
    expect(parsed.assay_schema).toBe('assay.results/v1');
    for (const text of readFileSync(files.samples[0], 'utf8').split('\n').filter(Boolean)) {
      const line = JSON.parse(text);
      for (const schema of [sampleLineSchema, pairingSampleSchema, mergedSampleSchema])
        expect(schema.safeParse(line).success).toBe(true);
    }
    expect(readSampleLog(files.samples[0])).toEqual(
      output.samples.qa.map((line) => JSON.parse(JSON.stringify(line))),
    );
    const leaderboard = JSON.parse(readFileSync(files.leaderboard, 'utf8'));
    // The leaderboard's type is the schema's: the parse keeps exactly what was written.
    expect(leaderboardSchema.parse(leaderboard)).toEqual(leaderboard);
    expect(readLeaderboard(files.leaderboard)).toEqual(leaderboard);
    // Derived again from the results and logs, it is the file (what a diff or a merge rebuilds).
    expect(
      buildLeaderboard({
        results: parsed,
        samples: output.samples,
        resultsFile: path.basename(files.results),
      }),
    ).toEqual(leaderboard);
  });
});

describe('versions', () => {
  it('a results file of a newer assay is refused, naming what this one reads', () => {
    expect(() => parseResults({ results: {}, assay_schema: 'assay.results/v9' }, 'r.json')).toThrow(
      'not an assay/lm-eval results file: assay_schema: "assay.results/v9" is not a results version this assay reads (assay.results/v1); it was written by a newer assay',
    );
  });

  it('a leaderboard of another version is refused; a v1 leaderboard reads in v2’s shape, its 999 no score', () => {
    expect(() => parseLeaderboard({ schema: 'assay.leaderboard/v9' }, 'l.json')).toThrow(
      'not an assay leaderboard: its schema is "assay.leaderboard/v9", and this assay reads assay.leaderboard/v1, assay.leaderboard/v2',
    );
    const v1 = parseLeaderboard(
      {
        schema: 'assay.leaderboard/v1',
        model: 'dummy',
        date: 1,
        partial: false,
        errors: 0,
        tasks: {
          arithmetic: {
            metric: 'exact_match',
            filter: 'none',
            score: 0.25,
            n: 40,
            correct: 10,
            mean_latency_ms: 19.33,
            sha256: 'ab',
          },
          generation: {
            metric: 'bypass',
            filter: 'none',
            score: 999,
            n: 6,
            correct: null,
            mean_latency_ms: 1,
            sha256: 'cd',
          },
        },
        overall: 511.625,
      },
      'l.json',
    );
    expect(v1.tasks.arithmetic).toMatchObject({
      metric: 'exact_match',
      value: 0.25,
      n: 40,
      ci: null,
      sha256: 'ab',
    });
    expect(v1.tasks.generation.value).toBeNull();
    expect(v1.overall).toBeNull();
  });
});

describe('leaderboard diff', () => {
  const side = (tasks: Record<string, object>) => ({
    file: 'l.json',
    run: undefined,
    leaderboard: leaderboardSchema.parse({
      schema: 'assay.leaderboard/v2',
      model: 'm',
      date: null,
      results_file: null,
      partial: false,
      predict_only: false,
      errors: 0,
      timeouts: 0,
      tasks: Object.fromEntries(
        Object.entries(tasks).map(([name, task]) => [
          name,
          {
            metric: 'acc',
            filter: 'none',
            higher_is_better: true,
            scale: '[0, 1]',
            value: null,
            stderr: null,
            ci: null,
            ci_level: null,
            n: 100,
            correct: null,
            errors: 0,
            timeouts: 0,
            latency: null,
            sha256: null,
            ...task,
          },
        ]),
      ),
      overall: null,
      overall_tasks: [],
      overall_note: '',
    }),
  });

  it('old, new, Δ and whether Δ’s interval excludes 0; unlike metrics and missing intervals are said', () => {
    // Newcombe 1998's example (a): 48/80 → 56/70, method 10 interval of the difference [0.0524, 0.3339].
    const wilson = (k: number, n: number) => {
      const { low, high } = proportionConfidenceInterval(k, n);
      return { value: k / n, ci: [low, high] };
    };
    const a = side({
      moved: wilson(48, 80),
      same: { value: 0.5, ci: [0.4, 0.6] },
      renamed: { value: 0.5, ci: [0.4, 0.6] },
      bare: { value: 0.5 },
      gone: { value: 0.1 },
    });
    const b = side({
      moved: wilson(56, 70),
      same: { value: 0.52, ci: [0.42, 0.62] },
      renamed: { metric: 'acc_norm', value: 0.7, ci: [0.6, 0.8] },
      bare: { value: 0.6 },
      added: { value: 0.2 },
    });
    const diff = diffLeaderboards(a, b);
    const row = (task: string) => diff.tasks.find((entry) => entry.task === task);
    expect(row('moved')?.delta).toBeCloseTo(0.2, 12);
    expect(row('moved')?.old).toBe(0.6);
    expect(row('moved')?.deltaCi?.[0]).toBeCloseTo(0.0524, 4);
    expect(row('moved')?.deltaCi?.[1]).toBeCloseTo(0.3339, 4);
    expect(row('moved')).toMatchObject({ exceeds: true, change: 'B better' });
    expect(row('same')).toMatchObject({ exceeds: false, change: 'within the intervals' });
    expect(row('renamed')).toMatchObject({
      delta: null,
      change: 'not compared',
      note: 'primary metrics differ: acc,none in A, acc_norm,none in B',
    });
    expect(row('bare')).toMatchObject({ exceeds: null, change: 'no interval', note: 'no 95% interval in A' });
    expect(row('bare')?.delta).toBeCloseTo(0.1, 12);
    expect([diff.onlyInA, diff.onlyInB]).toEqual([['gone'], ['added']]);
  });
});
