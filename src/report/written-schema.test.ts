import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { writtenResultsSchema } from '../results/results-file.js';
import { writtenSampleLineSchema } from '../results/sample-line.js';
import { resultsFileSchema, sampleLineSchema } from '../results/schema.js';
import { simpleEvaluate } from '../run/evaluate.js';

// The writer's types are the contract's: report/ builds ResultsFile and SampleLine, the types inferred
// from writtenResultsSchema and writtenSampleLineSchema. These checks hold what a run writes to those
// schemas at run time too: every key of results.json is one the schema names with the type it names
// (z.object drops keys it does not name, so a parse equal to the file means none was left out), and every
// sample line parses with the written schema and with the readers'.

async function writeTasks(dir: string): Promise<string[]> {
  await writeFile(
    path.join(dir, 'data.jsonl'),
    [
      '{"q": "one", "a": "1", "choices": ["1", "2", "3"], "gold": 0, "text": "one two three"}',
      '{"q": "two", "a": "2", "choices": ["1", "2", "3"], "gold": 1, "text": "four five"}',
      '',
    ].join('\n'),
  );
  const common = [
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    '    test: data.jsonl',
    'test_split: test',
  ];
  const files: Array<[string, string[]]> = [
    ['gen.yaml', ['task: written_gen', 'doc_to_text: "Q: {{q}}\\nA:"', 'doc_to_target: a']],
    [
      'mc.yaml',
      [
        'task: written_mc',
        'output_type: multiple_choice',
        'doc_to_text: "{{q}}?"',
        'doc_to_choice: "{{choices}}"',
        'doc_to_target: gold',
        'metric_list:',
        '  - metric: acc',
      ],
    ],
    [
      'ppl.yaml',
      [
        'task: written_ppl',
        'output_type: loglikelihood_rolling',
        'doc_to_text: ""',
        'doc_to_target: "{{text}}"',
        'metric_list:',
        '  - metric: word_perplexity',
        '  - metric: byte_perplexity',
        '  - metric: bits_per_byte',
      ],
    ],
  ];
  const paths: string[] = [];
  for (const [name, lines] of files) {
    const file = path.join(dir, name);
    await writeFile(file, [...lines.slice(0, 1), ...common, ...lines.slice(1), ''].join('\n'));
    paths.push(file);
  }
  return paths;
}

describe("the written files are the contract's written schemas", () => {
  it('writes results.json as writtenResultsSchema names every key, and sample lines both schemas read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'assay-written-schema-'));
    const written = await simpleEvaluate({
      model: new DummyBackend(),
      tasks: await writeTasks(dir),
      outputPath: path.join(dir, 'out'),
      logSamples: true,
    });
    const raw = JSON.parse(await readFile(written.files?.results ?? '', 'utf8')) as Record<string, unknown>;
    expect(Object.keys(raw.perplexity as object)).toEqual(['written_ppl']);
    expect(writtenResultsSchema.parse(raw)).toEqual(raw);
    expect(resultsFileSchema.safeParse(raw).success).toBe(true);

    const folder = path.dirname(written.files?.results ?? '');
    const logs = (await readdir(folder)).filter((name) => name.startsWith('samples_'));
    expect(logs).toHaveLength(3);
    for (const log of logs) {
      const lines = (await readFile(path.join(folder, log), 'utf8')).trim().split('\n');
      for (const line of lines) {
        const value = JSON.parse(line) as Record<string, unknown>;
        expect(writtenSampleLineSchema.parse(value), log).toEqual(value);
        expect(sampleLineSchema.safeParse(value).success, log).toBe(true);
      }
      if (log.startsWith('samples_written_ppl_'))
        expect(JSON.parse(lines[0]).ppl_doc).toMatchObject({ scored_spans: expect.any(Boolean) });
    }
  });

  it('refuses a results file without a block the writer always writes, or with a block of the wrong type', () => {
    const minimal = writtenResultsSchema.safeParse({ results: {}, configs: {} });
    expect(minimal.success).toBe(false);
    const paths = minimal.error?.issues.map((issue) => issue.path.join('.')) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining(['manifest', 'errors', 'stats', 'request_stats', 'assay_schema']),
    );
    const line = writtenSampleLineSchema.safeParse({
      doc_id: 0,
      doc: {},
      target: 3,
      arguments: {},
      resps: [],
      filtered_resps: [],
      filter: 'none',
      metrics: [],
      doc_hash: 'a',
      prompt_hash: 'b',
      target_hash: 'c',
      fewshot_ids: [],
    });
    // lm-eval writes the target as str(target); a number is not what assay writes.
    expect(line.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['target']);
  });
});
