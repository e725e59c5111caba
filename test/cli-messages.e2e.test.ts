/**
 * The real CLI's messages: library errors name option fields and the user sees the flag that sets each
 * one; lm-eval's flags are accepted with their meaning or refused with one `assay:` line; commander's
 * own errors carry the `assay:` prefix and a hint; `run --help` lists every model and three examples.
 * Errors end a run, so it is one message per run: each through the CLI's main() in process
 * (test/support/cli-in-process.ts, stdout, stderr and exit code as a child process returns them); `run --help` is
 * the real child process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendNames } from '../src/models/registry.js';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

const arithmetic = 'examples/tasks/arithmetic.jsonl';
const run = (...args: string[]) =>
  runCliInProcess(['run', '--model', 'dummy', '--tasks', arithmetic, ...args]);

/** A folder with one generate_until YAML task over two local rows; `lines` add to (or set) its keys. */
function taskFolder(...lines: string[]): string {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'rows.jsonl'),
    '{"question": "a", "answer": "b"}\n{"question": "c", "answer": "d"}\n',
  );
  const yaml = [
    lines[0],
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    '    test: rows.jsonl',
    'test_split: test',
    'output_type: generate_until',
    ...lines.slice(1),
    'doc_to_target: answer',
    'metric_list:',
    '  - metric: exact_match',
    '',
  ];
  writeFileSync(path.join(dir, `${lines[0].replace('task: ', '')}.yaml`), yaml.join('\n'));
  return dir;
}

describe('library errors through the CLI name flags, not option fields', () => {
  it('`limit` and `samples` are --limit and --samples', async () => {
    const result = await run('--limit', '2', '--samples', '{"arithmetic": [0]}');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('assay: error: --limit and --samples cannot be used together\n');
  });

  it('`maxBatchSize` and `modelArgs` are --max_batch_size and --model_args (lm-eval flag, refused for dummy)', async () => {
    const result = await run('--max_batch_size', '8');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "assay: error: --max_batch_size bounds lm-eval's batch_size=auto search, which assay does not run; model dummy batches as its --model_args say (batch_size=N); it applies to vllm and sglang (the sequences the server batches)\n",
    );
  });

  it('`device` is --device (lm-eval flag, refused with the reason for dummy)', async () => {
    const result = await run('--device', 'cuda:0');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'assay: error: --device does not apply to model dummy: it runs no model; it applies to gguf (gpu=) and sglang\n',
    );
  });

  it('`outDirectory` of assay view is --export', async () => {
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const result = await runCliInProcess(['view', '--export', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`assay: error: --export: ${file} is a file, not a folder\n`);
  });
});

describe("lm-eval's run flags", () => {
  it('--cache_requests, --check_integrity, --trust_remote_code and --metadata are accepted with their meaning', async () => {
    const tasks = taskFolder(
      'task: answered',
      'doc_to_text: "{{ question }}"',
      'metadata:',
      '  version: 2.0',
    );
    const out = tempDir();
    const result = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'answered',
      '--include_path',
      tasks,
      '--limit',
      '2',
      '--cache_requests',
      '--check_integrity',
      '--trust_remote_code',
      '--metadata',
      '{"max_seq_lengths": [4096]}',
      '--output_path',
      out,
    ]);
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toContain(
      'assay: --cache_requests: nothing to cache (assay builds its requests in milliseconds); the flag does nothing',
    );
    expect(lines).toContain(
      'assay: --trust_remote_code: model dummy loads no code from the Hub (assay reads datasets as parquet and tokenizers as tokenizer.json), so the flag does nothing; it reaches the servers --model vllm and sglang start',
    );
    // lm-eval's warning, with lm-eval's flag name.
    expect(lines).toContain(
      'assay: warning: --limit SHOULD ONLY BE USED FOR TESTING. REAL METRICS SHOULD NOT BE COMPUTED USING LIMIT.',
    );
    const results = JSON.parse(readFileSync(findOne(path.join(out, 'dummy'), /^results_/), 'utf8'));
    // Merged into the task's own metadata (TaskManager(metadata=…), `cfg.metadata | meta`): its version stays.
    expect(results.configs.answered.metadata).toEqual({ version: 2, max_seq_lengths: [4096] });
  });

  it('--check_integrity stops before the model on a task that fails validation; --verbosity ERROR prints only errors', async () => {
    const dir = taskFolder('task: broken', 'doc_to_text: "{{ question.upper( }}"');
    const result = await runCliInProcess([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'broken',
      '--include_path',
      dir,
      '--limit',
      '2',
      '--check_integrity',
      '--verbosity',
      'ERROR',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^assay: error: --check_integrity: 1 of 1 entries failed \(task broken: .*broken\.yaml:8:1: invalid Jinja template: .* in doc_to_text of task broken\); run assay validate on them for every failure\n$/,
    );
  });
});

describe('commander errors and help', () => {
  it('an unknown flag is one assay: line and a hint, exit 2', async () => {
    const result = await run('--num_fewshots', '5');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "assay: error: unknown option '--num_fewshots'; did you mean --num_fewshot?\nassay: hint: assay run --help lists its flags (lm-eval's spellings, snake or kebab case, are accepted)\n",
    );
  });

  it('run --help lists every model, demo included, and three examples', async () => {
    const result = runCli(['run', '--help']);
    expect(result.status).toBe(0);
    const models = result.stdout.slice(result.stdout.indexOf('Models (--model):'));
    for (const name of backendNames()) expect(models).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(backendNames()).toContain('demo');
    const examples = result.stdout.slice(result.stdout.indexOf('Examples:'));
    expect(examples.match(/^ {2}assay run --model /gm)).toHaveLength(3);
  });
});
