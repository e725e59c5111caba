import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Manifest,
  type ReadSampleLine,
  type ResultsFile,
  readLeaderboard,
  readResultsFile,
  readSamples,
  type SampleLine,
  writtenSampleLineSchema,
} from 'assay/results';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, readJson, readJsonl, repoRoot, sampleStderr, tempDir } from './support/helpers.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const LM_EVAL_KEYS = [
  'results',
  'group_subtasks',
  'configs',
  'versions',
  'n-shot',
  'higher_is_better',
  'n-samples',
  'config',
  'git_hash',
  'date',
  'task_hashes',
  'model_name',
  'model_name_sanitized',
  'system_instruction',
  'chat_template',
  'fewshot_as_multiturn',
  'total_evaluation_time_seconds',
];

/** A sample line's request arguments: open in the contract, keyed by request as written. */
function argsOf(line: ReadSampleLine): SampleLine['arguments'] {
  return line.arguments as SampleLine['arguments'];
}

/** The first request's prompt text of a line. */
function promptOf(line: ReadSampleLine): string {
  return argsOf(line).gen_args_0.arg_0 as string;
}

/** An assay sample log's lines, each parsed with the written contract's schema (all its fields required). */
function readWrittenSamples(file: string) {
  return readJsonl(file).map((line) => writtenSampleLineSchema.parse(line));
}

describe('assay run, end to end on the real CLI', () => {
  // The one child process of this file: bin/assay.js and dist/ as a user runs them. The rest run the CLI's
  // main() in process (test/support/cli-in-process.ts), with the same arguments and checks.
  it('JSONL task: results, samples, leaderboard and manifest, field by field', () => {
    const out = tempDir();
    const run = runCli([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('|  Tasks   |Version|Filter|n-shot|  Metric   |   |Value |   |Stderr|');
    const dir = path.join(out, 'dummy');
    const resultsFile = findOne(dir, /^results_.*\.json$/);
    // The keys as written (the reader defaults lm-eval's absent keys, so it cannot tell they are there).
    const written = readJson<Record<string, unknown>>(resultsFile);
    for (const key of LM_EVAL_KEYS) expect(written).toHaveProperty([key]);
    const results = readResultsFile(resultsFile);
    expect(results.model_name).toBe('dummy');
    expect(results['n-samples']).toEqual({ arithmetic: { original: 40, effective: 40 } });
    expect(results['n-shot']).toEqual({ arithmetic: 0 });
    expect(results.config).toMatchObject({
      model: 'dummy',
      limit: null,
      bootstrap_iters: 100000,
      random_seed: 0,
      fewshot_seed: 1234,
    });
    expect(typeof results.total_evaluation_time_seconds).toBe('string');
    expect(results.partial).toBe(false);

    // Lines as written, checked against the written contract (no defaults: `filter` must be there).
    const samples = readWrittenSamples(findOne(dir, /^samples_arithmetic_.*\.jsonl$/));
    expect(samples).toHaveLength(40);
    const source = readFileSync(path.join(repoRoot, 'examples/tasks/arithmetic.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    samples.forEach((sample, i) => {
      expect(sample.doc_id).toBe(i);
      expect(sample.filter).toBe('none');
      expect(sample.arguments.gen_args_0.arg_0).toBe(source[i].prompt);
      expect(sample.doc_hash).toBe(sha256(JSON.stringify(sample.doc, null, 2)));
      expect(sample.prompt_hash).toBe(sha256(source[i].prompt));
      expect(sample.target_hash).toBe(sha256(sample.target));
      expect(sample.metrics).toEqual(['exact_match']);
      expect([0, 1]).toContain(sample.exact_match);
      expect(sample.fewshot_ids).toEqual([]);
    });
    const scores = samples.map((sample) => sample.exact_match as number);
    const entry = results.results.arithmetic;
    expect(entry['exact_match,none']).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 12);
    const expectedStderr = sampleStderr(scores);
    if (Number.isFinite(expectedStderr) && expectedStderr > 0)
      expect(entry['exact_match_stderr,none']).toBeCloseTo(expectedStderr, 12);
    const [lo, hi] = entry['exact_match_ci,none'] as [number, number];
    expect(lo).toBeLessThanOrEqual(entry['exact_match,none'] as number);
    expect(hi).toBeGreaterThanOrEqual(entry['exact_match,none'] as number);
    expect((results.task_hashes as ResultsFile['task_hashes']).arithmetic).toBe(
      sha256(samples.map((sample) => sample.doc_hash + sample.prompt_hash + sample.target_hash).join('')),
    );

    // The manifest is assay's block, typed as the contract writes it.
    const manifest = results.manifest as Manifest;
    expect(manifest.tasks.arithmetic).toMatchObject({
      format: 'jsonl',
      num_fewshot: 0,
      scoring_mode: 'generation',
      fewshot_seed: 1234,
    });
    // The content hash is sha256 over each source file's own sha256 digest (src/tasks/source-hash.ts).
    const fileDigest = createHash('sha256')
      .update(readFileSync(path.join(repoRoot, 'examples/tasks/arithmetic.jsonl')))
      .digest();
    expect(manifest.tasks.arithmetic.sha256).toBe(createHash('sha256').update(fileDigest).digest('hex'));
    expect(manifest.limit).toEqual({ used: false, value: null, samples: false });
    expect(manifest.hardware.cores).toBeGreaterThan(0);

    // One leaderboard per run, named with its results file's time stamp.
    const leaderboardFile = findOne(dir, /^leaderboard_.*\.json$/);
    expect(path.basename(leaderboardFile).slice('leaderboard_'.length)).toBe(
      path.basename(findOne(dir, /^results_.*\.json$/)).slice('results_'.length),
    );
    const leaderboard = readLeaderboard(leaderboardFile);
    // Issue 20: v2, each task's primary metric with its direction, scale, value, interval and n.
    expect(leaderboard.schema).toBe('assay.leaderboard/v2');
    expect(leaderboard.tasks.arithmetic).toMatchObject({
      metric: 'exact_match',
      filter: 'none',
      higher_is_better: true,
      scale: '[0, 1]',
      value: entry['exact_match,none'],
      ci: entry['exact_match_ci,none'],
      ci_level: 0.95,
      n: 40,
      correct: scores.filter((s) => s === 1).length,
      errors: 0,
      timeouts: 0,
    });
    // The task's own 40 requests.
    expect(leaderboard.tasks.arithmetic.latency?.requests).toBe(40);
    expect(leaderboard.overall).toBe(entry['exact_match,none']);
    expect(leaderboard.overall_tasks).toEqual(['arithmetic']);
  });

  it('writes byte-identical sample logs for two runs with the same seed', async () => {
    const runs: string[] = [];
    for (const out of [tempDir(), tempDir()]) {
      const run = await runCliInProcess([
        'run',
        '--model',
        'dummy',
        '--tasks',
        'examples/tasks/medqa/medqa_mini.yaml',
        '--num_fewshot',
        '2',
        '--output_path',
        out,
        '--log_samples',
      ]);
      expect(run.status).toBe(0);
      runs.push(readFileSync(findOne(path.join(out, 'dummy'), /^samples_medqa_mini_.*\.jsonl$/), 'utf8'));
    }
    expect(runs[0]).toBe(runs[1]);
  });

  it('YAML multiple choice with few-shot: contexts, continuations and acc from the logged log-likelihoods', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/medqa/medqa_mini.yaml',
      '--num_fewshot',
      '2',
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.status).toBe(0);
    const dir = path.join(out, 'dummy');
    const results = readResultsFile(findOne(dir, /^results_.*\.json$/));
    const samples = readSamples(findOne(dir, /^samples_medqa_mini_.*\.jsonl$/));
    expect(samples).toHaveLength(8);
    const description = 'The following are multiple choice questions (with answers) about medicine.\n\n';
    const first = samples[0];
    expect(first.fewshot_ids).toEqual([0, 1]);
    expect(Object.keys(argsOf(first))).toEqual(['gen_args_0', 'gen_args_1', 'gen_args_2', 'gen_args_3']);
    expect(promptOf(first).startsWith(`${description}Question: Which blood cells carry oxygen?`)).toBe(true);
    expect(promptOf(first)).toContain('\nAnswer: A\n\nQuestion: Where is the mitral valve?');
    expect(promptOf(first).endsWith('D. Lumbar puncture\nAnswer:')).toBe(true);
    expect(
      ['gen_args_0', 'gen_args_1', 'gen_args_2', 'gen_args_3'].map((k) => argsOf(first)[k].arg_1),
    ).toEqual([' A', ' B', ' C', ' D']);
    let correct = 0;
    for (const sample of samples) {
      const lls = (sample.resps as string[][][]).map((resp) => Number(resp[0][0]));
      const pred = lls.indexOf(Math.max(...lls));
      const gold = ['A', 'B', 'C', 'D'].indexOf((sample.doc as { answer_idx: string }).answer_idx);
      expect(sample.acc).toBe(pred === gold ? 1 : 0);
      correct += sample.acc as number;
    }
    expect(results.results.medqa_mini['acc,none']).toBeCloseTo(correct / 8, 12);
    expect(results['n-shot'].medqa_mini).toBe(2);
    expect(results.versions.medqa_mini).toBe(1);
    expect(results.configs.medqa_mini).toMatchObject({
      task: 'medqa_mini',
      output_type: 'multiple_choice',
      target_delimiter: ' ',
    });
  });

  it('TypeScript task with a custom metric and aggregation', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/medical-ner.task.ts',
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    const dir = path.join(out, 'dummy');
    const results = readResultsFile(findOne(dir, /^results_.*\.json$/));
    const samples = readSamples(findOne(dir, /^samples_medical-ner_.*\.jsonl$/));
    expect(samples).toHaveLength(6);
    const values = samples.map((sample) => sample.entity_f1 as number);
    expect(results.results['medical-ner']['entity_f1,none']).toBeCloseTo(
      values.reduce((a, b) => a + b, 0) / 6,
      12,
    );
    expect(results.higher_is_better['medical-ner']).toEqual({ entity_f1: true });
  });

  it('--limit marks the run partial everywhere', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--limit',
      '0.1',
      '--output_path',
      out,
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('WARNING: partial run (--limit 0.1)');
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_.*\.json$/));
    expect(results['n-samples'].arithmetic).toEqual({ original: 40, effective: 4 });
    expect(results.partial).toBe(true);
    expect((results.manifest as Manifest).limit).toEqual({ used: true, value: 0.1, samples: false });
    expect(readLeaderboard(findOne(path.join(out, 'dummy'), /^leaderboard_.*\.json$/)).partial).toBe(true);
  });

  it('--predict_only logs samples and reports bypass', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/generation.jsonl',
      '--predict_only',
      '--output_path',
      out,
    ]);
    expect(run.status).toBe(0);
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_.*\.json$/));
    expect(results.results.generation['bypass,none']).toBe(999);
    expect(readSamples(findOne(path.join(out, 'dummy'), /^samples_generation_.*\.jsonl$/))).toHaveLength(6);
    // Issue 20: lm-eval's 999 placeholder stays in results.json, but the leaderboard shows no score.
    const leaderboard = readLeaderboard(findOne(path.join(out, 'dummy'), /^leaderboard_.*\.json$/));
    expect(leaderboard).toMatchObject({ predict_only: true, overall: null, overall_tasks: [] });
    expect(leaderboard.overall_note).toBe('a predict-only run: nothing was scored');
    expect(leaderboard.tasks.generation).toMatchObject({ metric: 'bypass', value: null, ci: null, n: 0 });
    // No value anywhere is the placeholder (a substring test would trip on latency digits like 0.02299999).
    const numbers: number[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'number') numbers.push(value);
      else if (typeof value === 'string' && value.trim() === '999') numbers.push(999);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(leaderboard);
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).not.toContain(999);
  });

  it('a group with aggregate_metric_list reports a weighted group score', async () => {
    const dir = tempDir();
    const data = path.join(dir, 'data.jsonl');
    writeFileSync(
      data,
      Array.from({ length: 6 }, (_, i) =>
        JSON.stringify({ q: `Question ${i}?`, choices: ['yes', 'no'], label: i % 2 }),
      ).join('\n'),
    );
    const task = (name: string, extra = '') =>
      `task: ${name}\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\ntest_split: test\noutput_type: multiple_choice\ndoc_to_text: "{{q}}"\ndoc_to_choice: "{{choices}}"\ndoc_to_target: label\n${extra}metadata:\n  version: 2\n`;
    writeFileSync(path.join(dir, 'yn_a.yaml'), task('yn_a'));
    writeFileSync(path.join(dir, 'yn_b.yaml'), task('yn_b', 'description: "Answer.\\n"\n'));
    writeFileSync(
      path.join(dir, 'yn.yaml'),
      'group: yn\ntask:\n  - yn_a\n  - yn_b\naggregate_metric_list:\n  - metric: acc\n    weight_by_size: true\nmetadata:\n  version: 1\n',
    );
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'yn',
      '--include_path',
      dir,
      '--output_path',
      out,
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('|Groups|');
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_.*\.json$/));
    expect(results.group_subtasks).toEqual({ yn: ['yn_a', 'yn_b'] });
    const a = results.results.yn_a['acc,none'] as number;
    const b = results.results.yn_b['acc,none'] as number;
    expect(results.groups?.yn['acc,none']).toBeCloseTo((a * 6 + b * 6) / 12, 12);
    expect(results.results.yn_a.alias).toBe(' - yn_a');
    expect(results.versions).toMatchObject({ yn: 1, yn_a: 2, yn_b: 2 });
  });
});

describe('assay run, bad input: one clear line and exit code 2', () => {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'tasks'), { recursive: true });
  writeFileSync(path.join(dir, 'data.jsonl'), '{"q": "hi", "a": "x"}\n');
  const base =
    'dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: ../data.jsonl\ntest_split: test\n';
  const write = (name: string, body: string) => {
    const file = path.join(dir, 'tasks', `${name}.yaml`);
    writeFileSync(file, body);
    return file;
  };
  const cases: Array<[string, () => string[], RegExp]> = [
    [
      'malformed YAML names file:line:col',
      () => [write('broken', `task: broken\n${base}doc_to_text: [unclosed\n`)],
      /broken\.yaml:\d+:\d+/,
    ],
    [
      'unknown field suggests the right one',
      () => [write('typo', `task: typo\n${base}doc_to_txt: q\n`)],
      /doc_to_txt.*did you mean.*doc_to_text/,
    ],
    [
      'template error names task, doc and field',
      () => [write('tmpl', `task: tmpl\n${base}doc_to_text: "{{missing_field}}"\ndoc_to_target: a\n`)],
      /missing_field.*tmpl|tmpl.*missing_field/,
    ],
    [
      'unknown metric lists valid ones',
      () => [
        write(
          'badmetric',
          `task: badmetric\n${base}doc_to_text: q\ndoc_to_target: a\nmetric_list:\n  - metric: exact_mtch\n`,
        ),
      ],
      /exact_mtch.*exact_match/,
    ],
    [
      'unknown filter lists valid ones',
      () => [
        write(
          'badfilter',
          `task: badfilter\n${base}doc_to_text: q\ndoc_to_target: a\nfilter_list:\n  - name: x\n    filter:\n      - function: take_frst\n`,
        ),
      ],
      /take_frst.*take_first/,
    ],
    [
      'unknown output_type lists valid ones',
      () => [write('badtype', `task: badtype\n${base}output_type: multiple_choise\ndoc_to_text: q\n`)],
      /multiple_choise.*multiple_choice/,
    ],
    [
      'missing data file names both places',
      () => [
        write(
          'nodata',
          `task: nodata\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: nowhere.jsonl\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\n`,
        ),
      ],
      /nowhere\.jsonl/,
    ],
  ];
  for (const [name, make, pattern] of cases) {
    it(name, async () => {
      const [file] = make();
      const out = tempDir();
      const run = await runCliInProcess(['run', '--model', 'dummy', '--tasks', file, '--output_path', out]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(pattern);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(path.join(out, 'dummy')) ? readdirSync(path.join(out, 'dummy')) : []).toEqual([]);
    });
  }

  it('bad JSONL line names file:line', async () => {
    const file = path.join(dir, 'bad.jsonl');
    writeFileSync(
      file,
      '# comment\n{"id": 1, "prompt": "p", "targets": ["a"], "metric": "exact_match"}\n{"id": 2, "prompt": \n',
    );
    const run = await runCliInProcess(['run', '--model', 'dummy', '--tasks', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/bad\.jsonl:3/);
  });

  it('bad --limit', async () => {
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--limit',
      'lots',
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--limit must be');
  });

  it('unknown task suggests close names', async () => {
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'medqa_mimi',
      '--include_path',
      path.join(repoRoot, 'examples/tasks'),
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/medqa_mimi.*medqa_mini/);
  });

  it('kebab-case flags work like snake_case', async () => {
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--num-fewshot',
      '0',
      '--limit',
      '2',
    ]);
    expect(run.status).toBe(0);
  });
});
