import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Manifest,
  type ReadSampleLine,
  type ResultsFile,
  readResultsFile,
  readSamples,
  type SampleLine,
} from 'assay/results';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, repoRoot, tempDir } from './support/helpers.js';

/** A sample line's request arguments: open in the contract, keyed by request as written. */
function argsOf(line: ReadSampleLine): SampleLine['arguments'] {
  return line.arguments as SampleLine['arguments'];
}

function taskDir(): string {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'docs.jsonl'),
    [
      { text: 'The cat sat on the mat.', q: 'Is the sky blue?', choices: ['yes', 'no'], label: 0 },
      { text: 'Dogs bark loudly at night.', q: 'Is fire cold?', choices: ['yes', 'no'], label: 1 },
      { text: 'Rain fell on the quiet town.', q: 'Do fish swim?', choices: ['yes', 'no'], label: 0 },
    ]
      .map((doc) => JSON.stringify(doc))
      .join('\n'),
  );
  const data =
    'dataset_path: json\ndataset_kwargs:\n  data_files:\n    train: docs.jsonl\n    test: docs.jsonl\ntraining_split: train\ntest_split: test\n';
  writeFileSync(
    path.join(dir, 'ppl.yaml'),
    `task: ppl\n${data}output_type: loglikelihood_rolling\ndoc_to_text: ""\ndoc_to_target: text\n`,
  );
  writeFileSync(
    path.join(dir, 'yesno.yaml'),
    `task: yesno\n${data}output_type: multiple_choice\ndescription: "Answer yes or no."\ndoc_to_text: "Q: {{q}}\\nA:"\ndoc_to_choice: "{{choices}}"\ndoc_to_target: label\nmetric_list:\n  - metric: acc\n  - metric: acc_mutual_info\n`,
  );
  writeFileSync(
    path.join(dir, 'gen3.yaml'),
    `task: gen3\n${data}output_type: generate_until\ndoc_to_text: "Q: {{q}}\\nA:"\ndoc_to_target: "{{choices[label]}}"\nrepeats: 3\ngeneration_kwargs:\n  until: ["\\n"]\n  do_sample: true\n  temperature: 0.8\nfilter_list:\n  - name: vote\n    filter:\n      - function: majority_vote\n      - function: take_first\n`,
  );
  return dir;
}

describe('run options end to end', () => {
  // The CLI's main() runs in process (test/support/cli-in-process.ts) with the same arguments and checks; the real
  // child process stays for --config (a file the CLI reads) and for one run each of ls and validate.
  const dir = taskDir();

  it('loglikelihood_rolling reports word/byte perplexity and bits per byte with lm-eval’s weighting', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'ppl',
      '--include_path',
      dir,
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_ppl_/));
    const lls = samples.map((s) => Number((s.resps as unknown[][])[0][0]));
    const texts = samples.map((s) => (s.doc as { text: string }).text);
    const words = texts.reduce((a, t) => a + t.split(/\s+/).length, 0);
    const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
    const total = lls.reduce((a, b) => a + b, 0);
    const entry = results.results.ppl;
    expect(entry['word_perplexity,none']).toBeCloseTo(Math.exp(-total / words), 9);
    expect(entry['byte_perplexity,none']).toBeCloseTo(Math.exp(-total / bytes), 9);
    expect(entry['bits_per_byte,none']).toBeCloseTo(-total / bytes / Math.log(2), 9);
    expect(entry['word_perplexity_stderr,none']).toBe('N/A');
    expect(results.higher_is_better.ppl).toEqual({
      word_perplexity: false,
      byte_perplexity: false,
      bits_per_byte: false,
    });
    // The rolling request is the whole target text.
    expect(argsOf(samples[0]).gen_args_0.arg_0).toBe(texts[0]);
  });

  it('acc_mutual_info adds unconditional requests and scores ll(cond) − ll(uncond)', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'yesno',
      '--include_path',
      dir,
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.status).toBe(0);
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_yesno_/));
    for (const sample of samples) {
      const args = Object.values(argsOf(sample));
      expect(args).toHaveLength(4);
      expect(args[2]).toEqual({ arg_0: '', arg_1: ' yes' });
      expect(args[3]).toEqual({ arg_0: '', arg_1: ' no' });
      const lls = (sample.resps as string[][][]).map((r) => Number(r[0][0]));
      const mi = [lls[0] - lls[2], lls[1] - lls[3]];
      expect(sample.acc_mutual_info).toBe(
        (mi[0] > mi[1] ? 0 : 1) === (sample.doc as { label: number }).label ? 1 : 0,
      );
    }
  });

  it('repeats with sampling: three responses per doc, reduced by the majority_vote filter', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'gen3',
      '--include_path',
      dir,
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.status).toBe(0);
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_gen3_/));
    for (const sample of samples) {
      expect(sample.filter).toBe('vote');
      expect(sample.resps[0]).toHaveLength(3);
      const counts = new Map<string, number>();
      for (const r of (sample.resps as string[][])[0]) counts.set(r, (counts.get(r) ?? 0) + 1);
      const best = Math.max(...counts.values());
      expect(counts.get(sample.filtered_resps[0] as string)).toBe(best);
    }
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    expect(results.results.gen3).toHaveProperty(['exact_match,vote']);
  });

  it('--apply_chat_template renders few-shot turns with the model’s template and drops the MC delimiter', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'yesno',
      '--include_path',
      dir,
      '--num_fewshot',
      '1',
      '--apply_chat_template',
      '--system_instruction',
      'Be terse.',
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_yesno_/));
    const context = argsOf(samples[0]).gen_args_0.arg_0 as string;
    expect(
      context.startsWith('<|im_start|>system\nBe terse.\n\nAnswer yes or no.<|im_end|>\n<|im_start|>user\n'),
    ).toBe(true);
    expect(
      context.endsWith('<|im_start|>user\nQ: Is the sky blue?\nA:<|im_end|>\n<|im_start|>assistant\n'),
    ).toBe(true);
    expect(context).toContain('<|im_start|>assistant\n');
    expect(argsOf(samples[0]).gen_args_0.arg_1).toBe('yes');
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    expect(results.fewshot_as_multiturn).toBe(true);
    expect(results.chat_template).toContain('<|im_start|>');
    expect((results.manifest as Manifest).chat_template.applied).toBe(true);
  });

  it('--samples evaluates the chosen doc ids and marks the run partial', async () => {
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'yesno',
      '--include_path',
      dir,
      '--samples',
      '{"yesno": [2, 0]}',
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.status).toBe(0);
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_yesno_/));
    expect(samples.map((s) => s.doc_id)).toEqual([0, 2]);
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    expect(results['n-samples'].yesno).toEqual({ original: 3, effective: 2 });
    expect(results.partial).toBe(true);
  });

  it('--config YAML supplies flags and the command line wins', () => {
    const out = tempDir();
    const config = path.join(dir, 'run.yaml');
    writeFileSync(
      config,
      `model: dummy\ntasks: yesno\ninclude_path: ${dir}\nlimit: 1\noutput_path: ${out}\n`,
    );
    const run = runCli(['run', '--config', config, '--limit', '2']);
    expect(run.status).toBe(0);
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    expect(results['n-samples'].yesno.effective).toBe(2);
  });

  it('--use_cache with an in-process backend: a rerun answers from the cache with identical results', async () => {
    const cache = path.join(tempDir(), 'responses.sqlite');
    const outs = [tempDir(), tempDir()];
    for (const out of outs) {
      const run = await runCliInProcess([
        'run',
        '--model',
        'dummy',
        '--tasks',
        'yesno',
        '--include_path',
        dir,
        '--use_cache',
        cache,
        '--output_path',
        out,
        '--log_samples',
      ]);
      expect(run.status).toBe(0);
    }
    // 3 docs × 2 conditional choices, plus the 2 unconditional requests that every doc shares.
    const db = new Database(cache, { readonly: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n).toBe(8);
    db.close();
    const [a, b] = outs.map((out) =>
      readFileSync(findOne(path.join(out, 'dummy'), /^samples_yesno_/), 'utf8'),
    );
    expect(b).toBe(a);
    const results = readResultsFile(findOne(path.join(outs[1], 'dummy'), /^results_/));
    expect(results.config.use_cache).toBe(cache);
  });

  // In process: ls's and validate's real CLI runs are in task-overrides.e2e.test.ts and task-tree.e2e.test.ts.
  it('ls and validate', async () => {
    const ls = await runCliInProcess(['ls', 'tasks', '--include_path', dir]);
    expect(ls.status).toBe(0);
    expect(ls.stdout).toMatch(/\|ppl\s*\|.*ppl\.yaml\s*\|loglikelihood_rolling\s*\|/);
    const validate = await runCliInProcess(['validate', '--tasks', 'yesno,ppl', '--include_path', dir]);
    expect(validate.status).toBe(0);
    expect(validate.stdout).toContain('ok  yesno: 3 docs, multiple_choice, doc 0 → 4 request(s)');
    expect(validate.stdout).toContain('2 task(s) valid');
    const bad = await runCliInProcess(['validate', '--tasks', 'nope', '--include_path', dir]);
    expect(bad.status).toBe(2);
  });
});

describe('multiple-input tasks (winogrande-shaped)', () => {
  it('scores against doc_to_text’s index and logs doc_to_target as the target, as lm-eval does', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'wg.jsonl'),
      [
        {
          sentence: 'The trophy did not fit in the suitcase because _ was too big.',
          option1: 'the trophy',
          option2: 'the suitcase',
          answer: '1',
        },
        {
          sentence: 'Anna thanked Mary because _ had helped her.',
          option1: 'Anna',
          option2: 'Mary',
          answer: '2',
        },
      ]
        .map((doc) => JSON.stringify(doc))
        .join('\n'),
    );
    writeFileSync(
      path.join(dir, 'wg.yaml'),
      [
        'task: wg',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: wg.jsonl',
        'test_split: test',
        'output_type: multiple_choice',
        // lm-eval's winogrande preprocess, written as templates: the gold index, the shared continuation, the two contexts.
        "doc_to_text: \"{{ {'1': 0, '2': 1}[answer] }}\"",
        'doc_to_target: "{{ sentence[sentence.index(\'_\') + 1:].strip() }}"',
        "doc_to_choice: \"{{ [sentence[:sentence.index('_')] + option1, sentence[:sentence.index('_')] + option2] }}\"",
        '',
      ].join('\n'),
    );
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'wg',
      '--include_path',
      dir,
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_wg_/));
    expect(samples[0].target).toBe('was too big.');
    expect(argsOf(samples[0]).gen_args_0).toEqual({
      arg_0: 'The trophy did not fit in the suitcase because the trophy',
      arg_1: ' was too big.',
    });
    expect(argsOf(samples[0]).gen_args_1.arg_0).toBe(
      'The trophy did not fit in the suitcase because the suitcase',
    );
    samples.forEach((sample, i) => {
      const lls = (sample.resps as string[][][]).map((r) => Number(r[0][0]));
      const gold = i === 0 ? 0 : 1;
      expect(sample.acc).toBe(lls.indexOf(Math.max(...lls)) === gold ? 1 : 0);
    });
  });
});

describe('!function metrics and aggregations in metric_list', () => {
  it("scores with the function, reports under its name, and bootstraps the custom aggregation under assay's own key", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'qa.jsonl'),
      [
        '{"q": "Capital of France?", "a": "Paris"}',
        '{"q": "Colour of grass?", "a": "green"}',
        '{"q": "2+2?", "a": "4"}',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'utils.ts'),
      [
        'export function answer_length(input: { references: string[]; prediction: string }): number {',
        '  return input.prediction.trim().length;',
        '}',
        'export function largest(items: unknown[]): number {',
        '  return Math.max(...items.map(Number));',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'qa_len.yaml'),
      [
        'task: qa_len',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: qa.jsonl',
        'test_split: test',
        'output_type: generate_until',
        'doc_to_text: "Q: {{q}}\\nA:"',
        'doc_to_target: a',
        'metric_list:',
        '  - metric: !function utils.answer_length',
        '    aggregation: !function utils.largest',
        '    higher_is_better: false',
        '  - metric: exact_match',
        '',
      ].join('\n'),
    );
    const out = tempDir();
    const run = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'qa_len',
      '--include_path',
      dir,
      '--output_path',
      out,
      '--log_samples',
    ]);
    expect(run.stderr).not.toContain('error');
    expect(run.status).toBe(0);
    const samples = readSamples(findOne(path.join(out, 'dummy'), /^samples_qa_len_/));
    const lengths = samples.map((sample) => (sample.filtered_resps[0] as string).trim().length);
    samples.forEach((sample, i) => expect(sample.answer_length).toBe(lengths[i]));
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    expect(results.results.qa_len['answer_length,none']).toBe(Math.max(...lengths));
    // lm-eval bootstraps no function: its stderr key says N/A; assay's bootstrap is in stats.
    expect(results.results.qa_len['answer_length_stderr,none']).toBe('N/A');
    const stats = results.stats as ResultsFile['stats'];
    expect(typeof stats.qa_len['answer_length,none'].bootstrap?.stderr).toBe('number');
    expect(results.higher_is_better.qa_len).toEqual({ answer_length: false, exact_match: true });
  });
});

describe('simpleEvaluate', () => {
  it('evaluates a backend object in-process and writes nothing', async () => {
    const cwd = tempDir();
    const before = process.cwd();
    process.chdir(cwd);
    try {
      const result = await simpleEvaluate({
        model: new DummyBackend({ seed: 3 }),
        tasks: [path.join(repoRoot, 'examples/tasks/arithmetic.jsonl')],
        limit: 5,
      });
      expect(result.files).toBeUndefined();
      expect(result.results.results.arithmetic['exact_match,none']).toBeGreaterThanOrEqual(0);
      expect(result.samples.arithmetic).toHaveLength(5);
      expect(existsSync(path.join(cwd, 'dummy'))).toBe(false);
      expect(readFileSync(path.join(repoRoot, 'examples/tasks/arithmetic.jsonl'), 'utf8')).toContain(
        'arith-000',
      );
    } finally {
      process.chdir(before);
    }
  });
});
