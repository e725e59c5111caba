/**
 * Perplexity modes: assay run --ppl_mode, assay ppl --text, assay compare across tokenizers. One CLI run per
 * command checks the flags and the output; the other runs go in process, through `simpleEvaluate` on one
 * GGUF backend per model held across the runs (the backend `--model gguf --model_args model=…,n_ctx=64,
 * threads=1` makes; an engine costs about 1 CPU s to start), or, where a command's output is checked,
 * through the CLI's main() (test/support/cli-in-process.ts), so that no CLI process is started per check.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PerplexityOptions } from '../src/evaluate/perplexity/settings.js';
import { AssayError, evaluate, simpleEvaluate } from '../src/index.js';
import { createGgufBackend } from '../src/models/gguf/create.js';
import { DEMO_CORPUS } from '../src/models/gguf/demo-corpus.js';
import { ensureDemoModel } from '../src/models/gguf/demo-model.js';
import type { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import { randomLlamaGguf } from '../src/models/gguf/llama-model.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, tempDir } from './support/helpers.js';

const work = tempDir('assay-ppl-e2e-');
const randomModel = path.join(work, 'random.gguf');
writeFileSync(randomModel, writeGguf(randomLlamaGguf({ seed: 5 })));
const demoModel = await ensureDemoModel(path.join(work, 'demo'));
const paragraphs = DEMO_CORPUS.split('\n').filter(Boolean);
const docs = [0, 1, 2].map((i) => paragraphs.slice(i * 3, i * 3 + 6).join('\n'));
writeFileSync(path.join(work, 'docs.jsonl'), `${docs.map((text) => JSON.stringify({ text })).join('\n')}\n`);
writeFileSync(
  path.join(work, 'stories_ppl.yaml'),
  `task: stories_ppl
dataset_path: json
dataset_kwargs:
  data_files:
    test: docs.jsonl
test_split: test
output_type: loglikelihood_rolling
doc_to_text: ""
doc_to_target: text
metadata:
  version: 1.0
`,
);
const task = path.join(work, 'stories_ppl.yaml');
const textFile = path.join(work, 'corpus.txt');
writeFileSync(textFile, DEMO_CORPUS);

function run(model: string, out: string, extra: string[]) {
  return runCli([
    'run',
    '--model',
    'gguf',
    '--model_args',
    `model=${model},n_ctx=64,threads=1`,
    '--tasks',
    task,
    '--output_path',
    out,
    '--log_samples',
    '--bootstrap_iters',
    '0',
    ...extra,
  ]);
}

/**
 * The backend `--model gguf --model_args model=MODEL,n_ctx=64,threads=1` makes (createGgufBackend, as the
 * CLI does), one per model, started on first use and held for the file's in-process runs.
 */
const backends = new Map<string, Promise<GgufBackend>>();
function backendFor(model: string): Promise<GgufBackend> {
  let backend = backends.get(model);
  if (!backend) {
    backend = createGgufBackend({ model, n_ctx: 64, threads: 1 });
    backends.set(model, backend);
  }
  return backend;
}
afterAll(async () => {
  for (const backend of backends.values()) await (await backend).close();
});

/** `run` in process: `simpleEvaluate` on that backend, with the options the CLI builds from the same flags. */
async function runInProcess(model: string, out: string, perplexity?: PerplexityOptions): Promise<void> {
  await simpleEvaluate({
    model: await backendFor(model),
    modelName: 'gguf',
    tasks: [task],
    outputPath: out,
    logSamples: true,
    bootstrapIters: 0,
    perplexity,
  });
}

/** --output_path puts results one level down, under the sanitized model name. */
// biome-ignore lint/suspicious/noExplicitAny: results.json read as untyped JSON, checked field by field below
function readResults(out: string): Record<string, any> {
  const [directory] = readdirSync(out).map((name) => path.join(out, name));
  return JSON.parse(readFileSync(findOne(directory, /^results_.*\.json$/), 'utf8'));
}

describe('assay run --ppl_mode', () => {
  it('strided: results name the mode, parameters, tokenizer and counts, and add token_perplexity', () => {
    const out = path.join(work, 'strided');
    const result = run(randomModel, out, [
      '--ppl_mode',
      'strided',
      '--ppl_max_length',
      '32',
      '--ppl_stride',
      '16',
    ]);
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.status).toBe(0);
    const results = readResults(out);
    const report = results.perplexity.stories_ppl;
    expect(report.mode).toBe('strided');
    expect(report.mode_source).toBe('cli');
    expect(report.parameters).toEqual({ max_length: 32, stride: 16 });
    expect(report.tokenizer.name).toBe('gguf:llama');
    expect(report.tokenizer.vocab_size).toBe(results.manifest.model.info.vocabSize);
    expect(report.tokenizer.vocab_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.docs).toBe(3);
    expect(report.scored_tokens).toBe(report.text_tokens);
    expect(report.counts.bytes).toBe(docs.reduce((total, text) => total + Buffer.byteLength(text), 0));
    expect(report.counts.words).toBe(docs.reduce((total, text) => total + text.split(/\s+/).length, 0));
    expect(report.counts_from).toBe('text');
    const entry = results.results.stories_ppl;
    expect(entry['token_perplexity,none']).toBeCloseTo(report.token_perplexity, 9);
    expect(entry['bits_per_byte,none']).toBeCloseTo(report.bits_per_byte, 9);
    expect(entry['word_perplexity,none']).toBeCloseTo(report.word_perplexity, 9);
  });

  it('chunked: per-document chunks, counts from the scored spans, llama-perplexity estimate', async () => {
    const out = path.join(work, 'chunked');
    await runInProcess(randomModel, out, { mode: 'chunked', maxLength: 32 });
    const report = readResults(out).perplexity.stories_ppl;
    expect(report.mode).toBe('chunked');
    expect(report.parameters).toEqual({
      n_ctx: 32,
      scored_positions: '17..31 of each chunk',
      bos_at_chunk_start: true,
    });
    expect(report.scored_tokens).toBe(report.windows * 15);
    expect(report.counts_from).toBe('scored spans');
    expect(report.llama_cpp.ppl).toBeCloseTo(report.token_perplexity, 9);
    expect(report.llama_cpp.ppl_stderr).toBeGreaterThan(0);
  });

  it('a backend without token-level scoring stops at planning (exit 2); rolling still runs', async () => {
    const failed = await evaluate({ model: 'dummy', tasks: [task], perplexity: { mode: 'chunked' } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(AssayError);
    expect((failed as AssayError).exitCode).toBe(2);
    expect((failed as AssayError).message).toMatch(
      /perplexity mode chunked \(task stories_ppl\).*model dummy does not declare token-level scoring/,
    );
    const rolling = await evaluate({ model: 'dummy', tasks: [task] });
    expect(rolling.results.results.stories_ppl).toBeDefined();
  });
});

describe('assay ppl --text', () => {
  it('scores a text file in chunked mode and prints the report as JSON', async () => {
    const result = runCli([
      'ppl',
      '--model',
      'gguf',
      '--model_args',
      `model=${randomModel},n_ctx=64,threads=1`,
      '--text',
      textFile,
      '--ppl_mode',
      'chunked',
      '--ppl_max_length',
      '64',
      '--format',
      'json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.mode).toBe('chunked');
    expect(report.tokenizer.name).toBe('gguf:llama');
    expect(report.windows).toBe(Math.floor((report.text_tokens + 1) / 64));
    expect(report.scored_tokens).toBe(report.windows * 31);
    expect(report.text.bytes).toBe(Buffer.byteLength(DEMO_CORPUS));
    // The text report through the CLI's main() in process (test/support/cli-in-process.ts).
    const text = await runCliInProcess([
      'ppl',
      '--model',
      'gguf',
      '--model_args',
      `model=${randomModel},n_ctx=64,threads=1`,
      '--text',
      textFile,
    ]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      /^mode: rolling \(max_length=64, context_len=1, disjoint_windows=true\)\ntokenizer: gguf:llama, vocab \d+, vocab sha256 [0-9a-f]{64}\n/,
    );
  });
});

describe('assay compare across tokenizers', () => {
  it('refuses token_perplexity with the reason, and compares bits_per_byte', async () => {
    const a = path.join(work, 'cmp-a');
    const b = path.join(work, 'cmp-b');
    await runInProcess(randomModel, a);
    await runInProcess(demoModel, b);
    // assay compare through its main() in process; test/compare.e2e.test.ts runs the real one.
    const refused = await runCliInProcess(['compare', a, b, '--metric', 'token_perplexity']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /token_perplexity of stories_ppl is not compared: run A counted tokens with gguf:llama \(vocab \d+, sha256 [0-9a-f]{12}\) and run B with .*different tokenizers are on different scales; compare bits_per_byte/,
    );
    const bits = await runCliInProcess(['compare', a, b, '--metric', 'bits_per_byte', '--format', 'json']);
    expect(bits.status).toBe(0);
    const report = JSON.parse(bits.stdout);
    expect(report.tasks.map((row: { metric: string; n: number }) => [row.metric, row.n])).toEqual([
      ['bits_per_byte', 3],
    ]);
  });
});
