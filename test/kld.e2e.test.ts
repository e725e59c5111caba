import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { klDivergence } from '../src/kld/kl-divergence.js';
import { randomLlamaGguf } from '../src/models/gguf/llama-model.js';
import { loadNativeAddon } from '../src/models/gguf/native-scorer.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { runCli } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const nativeScorer = requireComponent('native scorer', loadNativeAddon().addon !== undefined);
const directory = tempDir('assay-kld-e2e-');
const base = path.join(directory, 'base.gguf');
const half = path.join(directory, 'half.gguf');
const file = randomLlamaGguf({ seed: 8 });
writeFileSync(base, writeGguf(file));
writeFileSync(
  half,
  writeGguf({
    ...file,
    tensors: file.tensors.map((t) => (t.dims.length === 2 ? { ...t, type: 'F16' as const } : t)),
  }),
);
const text =
  'The sea was calm and the boats came home early, one after another, to the little harbour.\n'.repeat(3);
writeFileSync(path.join(directory, 'text.txt'), text);
// A perplexity task over local documents, as wikitext is over the Hub's.
writeFileSync(
  path.join(directory, 'pages.yaml'),
  [
    'task: kld_pages',
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    '    test: pages.jsonl',
    'test_split: test',
    'output_type: loglikelihood_rolling',
    'doc_to_text: ""',
    'doc_to_target: "{{page}}"',
    'metric_list:',
    '  - metric: word_perplexity',
  ].join('\n'),
);
writeFileSync(
  path.join(directory, 'pages.jsonl'),
  `${text
    .trim()
    .split('\n')
    .map((page) => JSON.stringify({ page }))
    .join('\n')}\n`,
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe.skipIf(!nativeScorer)('assay kld (CLI)', () => {
  it('--text: prints llama-perplexity’s summary and writes the JSON report', async () => {
    const output = path.join(directory, 'kld.json');
    const result = runCli([
      'kld',
      '--base',
      base,
      '--model',
      half,
      '--text',
      path.join(directory, 'text.txt'),
      '-c',
      '64',
      '-o',
      output,
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Mean PPL\(Q\)\/PPL\(base\)\s+: 1\.0\d+ ± 0\.\d+/);
    expect(result.stdout).toMatch(/Mean {4}KLD: 0\.0\d+ ± /);
    expect(result.stdout).toMatch(/Same top p: \d+\.\d+ ± \d+\.\d+ %/);
    // The model against itself, in process through the library `assay kld` calls (the CLI ran above).
    const report = await klDivergence({ basePath: base, modelPath: base, text, nCtx: 64 });
    expect(report.kl_divergence.max).toBe(0);
    expect(report.same_top.value).toBe(1);
    expect(report.chunks).toBe(Math.floor((text.length + 1) / 64));
  });

  // The CLI's main() in this process (test/cli-in-process.ts), in the engine processes the library call
  // above left idle (engine-processes.ts): the child-process run of `assay kld` is the one above.
  it('--tasks: the documents of a perplexity task form the text', async () => {
    // The task's data file is found beside the task file, from whatever folder assay runs in.
    const result = await runCliInProcess([
      'kld',
      '--base',
      base,
      '--model',
      half,
      '--tasks',
      'kld_pages',
      '--include_path',
      directory,
      '-c',
      '64',
      '--format',
      'json',
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.source).toEqual({ tasks: ['kld_pages'], documents: { kld_pages: 3 } });
    expect(report.kl_divergence.mean).toBeGreaterThan(0);
  });

  it('refuses --text and --tasks together', async () => {
    const both = await runCliInProcess([
      'kld',
      '--base',
      base,
      '--model',
      half,
      '--text',
      'x',
      '--tasks',
      'y',
    ]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('give exactly one of --text FILE or --tasks NAME');
  });
});
