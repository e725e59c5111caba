import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { streamSampleLines } from './run-output.js';

// A run builds its sample lines and task hashes only when something reads them (report/run-output.ts),
// and each doc's three hashes once for all its filters. These checks hold the written files to lm-eval's
// definitions (loggers/evaluation_tracker.py: task_hashes[task] = sha256 over the concatenated
// doc_hash + prompt_hash + target_hash of the logged samples, in log order; doc_hash = sha256 of the
// doc's json.dumps(indent=2), prompt_hash of arguments' first arg_0, target_hash of the target), and the
// lazily built values to the written ones.
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Line {
  doc_id: number;
  filter: string;
  doc: unknown;
  target: string;
  arguments: { gen_args_0: { arg_0: string } };
  doc_hash: string;
  prompt_hash: string;
  target_hash: string;
}

async function writeTasks(dir: string): Promise<string[]> {
  await writeFile(
    path.join(dir, 'data.jsonl'),
    [
      '{"q": "one", "a": "1", "choices": ["1", "2", "3"], "gold": 0}',
      '{"q": "two", "a": "2", "choices": ["1", "2", "3"], "gold": 1}',
      '{"q": "thré", "a": "3", "choices": ["x", "y", "3"], "gold": 2}',
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
  const gen = path.join(dir, 'gen.yaml');
  await writeFile(
    gen,
    [
      'task: gen_two_filters',
      ...common,
      'doc_to_text: "Q: {{q}}\\nA:"',
      'doc_to_target: a',
      'generation_kwargs:',
      '  max_new_tokens: 5',
      'filter_list:',
      '  - name: upper',
      '    filter:',
      '      - function: uppercase',
      '      - function: take_first',
      '  - name: first',
      '    filter:',
      '      - function: take_first',
      '',
    ].join('\n'),
  );
  const mc = path.join(dir, 'mc.yaml');
  await writeFile(
    mc,
    [
      'task: mc_task',
      ...common,
      'output_type: multiple_choice',
      'doc_to_text: "{{q}}?"',
      'doc_to_choice: "{{choices}}"',
      'doc_to_target: gold',
      'metric_list:',
      '  - metric: acc',
      '  - metric: acc_norm',
      '',
    ].join('\n'),
  );
  return [gen, mc];
}

describe('sample lines and task hashes built on first read', () => {
  it('writes the sample lines and task_hashes lm-eval defines, equal to the lazily built ones', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'assay-lazy-samples-'));
    const tasks = await writeTasks(dir);
    const out = path.join(dir, 'out');
    const written = await simpleEvaluate({
      model: new DummyBackend(),
      tasks,
      outputPath: out,
      logSamples: true,
    });
    const folder = path.dirname(written.files?.results ?? '');
    const files = await readdir(folder);
    const results = JSON.parse(await readFile(written.files?.results ?? '', 'utf8')) as {
      task_hashes: Record<string, string>;
    };
    const logged: Record<string, Line[]> = {};
    for (const task of ['gen_two_filters', 'mc_task']) {
      // The writer streamed the lines (built, written, dropped one by one): the returned record still
      // builds them on first read.
      expect(Object.getOwnPropertyDescriptor(written.samples, task)?.get).toBeTypeOf('function');
      const name = files.find((file) => file.startsWith(`samples_${task}_`));
      expect(name).toBeDefined();
      const text = await readFile(path.join(folder, name ?? ''), 'utf8');
      logged[task] = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Line);
      // The returned lines are the written ones, line for line.
      expect(text).toBe(written.samples[task].map((line) => `${JSON.stringify(line)}\n`).join(''));
    }
    // Filter by filter, docs by id within each.
    expect(logged.gen_two_filters.map((line) => [line.filter, line.doc_id])).toEqual([
      ['upper', 0],
      ['upper', 1],
      ['upper', 2],
      ['first', 0],
      ['first', 1],
      ['first', 2],
    ]);
    expect(logged.mc_task).toHaveLength(3);
    for (const [task, lines] of Object.entries(logged)) {
      for (const line of lines) {
        expect(line.doc_hash).toBe(sha256(JSON.stringify(line.doc, null, 2)));
        expect(line.prompt_hash).toBe(sha256(line.arguments.gen_args_0.arg_0));
        expect(line.target_hash).toBe(sha256(line.target));
      }
      const expected = sha256(
        lines.map((line) => line.doc_hash + line.prompt_hash + line.target_hash).join(''),
      );
      expect(results.task_hashes[task]).toBe(expected);
      expect(written.results.task_hashes[task]).toBe(expected);
    }

    // A run that writes nothing: its task hashes, read before any sample line is built, are the same,
    // and so are the lines built afterwards.
    const unwritten = await simpleEvaluate({ model: new DummyBackend(), tasks });
    expect({ ...unwritten.results.task_hashes }).toEqual(results.task_hashes);
    expect(Object.keys(unwritten.samples)).toEqual(['gen_two_filters', 'mc_task']);
    expect(JSON.parse(JSON.stringify(unwritten.samples))).toEqual(logged);
    // Once built, or in a plain record, a task's lines are the record's own array.
    expect(streamSampleLines(unwritten.samples, 'mc_task')).toBe(unwritten.samples.mc_task);
    const plain = { mc_task: unwritten.samples.mc_task };
    expect(streamSampleLines(plain, 'mc_task')).toBe(plain.mc_task);
    expect([...streamSampleLines(plain, 'no_such_task')]).toEqual([]);
  });
});
