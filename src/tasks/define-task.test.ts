import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { defineTask, loadModuleTask } from './define-task.js';
import { resolveTasks } from './manager.js';
import type { LoadedTask } from './task.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-define-'));
});

const meanOf = (items: unknown[]) =>
  items.reduce<number>((sum, item) => sum + Number(item), 0) / items.length;

describe('defineTask', () => {
  it('makes a LoadedTask with custom scoring and FunctionRefs for its functions', async () => {
    const task = defineTask<{ question: string; answer: string }>({
      name: 'inline_qa',
      docs: [
        { question: 'a?', answer: 'A' },
        { question: 'b?', answer: 'B' },
      ],
      docToText: (doc) => `Q: ${doc.question}\nA:`,
      docToTarget: (doc) => doc.answer,
      processResults: (doc, results) => ({ correct: String(results[0]).trim() === doc.answer ? 1 : 0 }),
      aggregation: { correct: meanOf },
      higherIsBetter: { correct: true },
      version: 3,
    });
    expect(task.name).toBe('inline_qa');
    expect(task.version).toBe(3);
    expect(task.config.output_type).toBe('generate_until');
    expect(task.config.generation_kwargs).toEqual({
      temperature: 0.0,
      do_sample: false,
      max_gen_toks: 256,
      until: ['\n\n'],
    });
    const docToText = task.config.doc_to_text as { ref: string; fn: (doc: unknown) => string };
    expect(docToText.ref).toBe('<inline>#docToText');
    expect(docToText.fn({ question: 'x' })).toBe('Q: x\nA:');
    const docs = await task.evalDocs();
    expect(docs).toHaveLength(2);
    expect(task.custom?.processResults(docs[0], [' A'])).toEqual({ correct: 1 });
    expect(task.custom?.aggregation.correct([1, 0])).toBe(0.5);
    expect(task.source).toEqual({ format: 'typescript', path: '', sha256: task.source.sha256 });
    expect(task.source.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects a metric without higherIsBetter', () => {
    expect(() =>
      defineTask({
        name: 'x',
        docs: [],
        docToText: () => '',
        docToTarget: () => '',
        processResults: () => ({}),
        aggregation: { f1: meanOf },
        higherIsBetter: {},
      }),
    ).toThrowError(
      new AssayError('invalid_config', 'defineTask("x"): higherIsBetter.f1 must be true or false'),
    );
  });

  it('rejects an unknown outputType, listing the valid ones', () => {
    expect(() =>
      defineTask({
        name: 'x',
        docs: [],
        outputType: 'classify' as never,
        docToText: () => '',
        docToTarget: () => '',
        processResults: () => ({}),
        aggregation: { a: meanOf },
        higherIsBetter: { a: true },
      }),
    ).toThrowError(
      /unknown outputType "classify"; valid output types: loglikelihood, loglikelihood_rolling, multiple_choice, generate_until/,
    );
  });
});

describe('*.task.ts modules', () => {
  const defineTaskModule = fileURLToPath(new URL('./define-task.ts', import.meta.url));

  async function writeModule(name: string, taskName: string): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(path.join(dir, 'data.jsonl'), '{"text": "aspirin 100 mg", "entities": ["aspirin"]}\n');
    await writeFile(
      file,
      [
        `import { defineTask } from ${JSON.stringify(defineTaskModule)};`,
        'export default defineTask({',
        `  name: ${JSON.stringify(taskName)},`,
        "  dataset_path: 'json',",
        "  dataset_kwargs: { data_files: { test: 'data.jsonl' } },",
        "  test_split: 'test',",
        '  docToText: (doc: { text: string }) => doc.text,',
        '  docToTarget: (doc: { entities: string[] }) => doc.entities,',
        '  processResults: () => ({ f1: 1 }),',
        '  aggregation: { f1: (items: unknown[]) => items.length },',
        '  higherIsBetter: { f1: true },',
        '});',
        '',
      ].join('\n'),
    );
    return file;
  }

  it('loads a module by name from the index, rebinding refs and data paths to its file', async () => {
    const file = await writeModule('ner.task.ts', 'ner');
    const [task] = (await resolveTasks(['ner'], { includePath: [dir], builtinDir: false })) as LoadedTask[];
    expect(task.name).toBe('ner');
    expect(task.source.format).toBe('typescript');
    expect(task.source.path).toBe(file);
    expect((task.config.doc_to_text as { ref: string }).ref).toBe('ner.task.ts#docToText');
    expect(task.evalSplit).toBe('test');
    expect(await task.evalDocs()).toEqual([{ text: 'aspirin 100 mg', entities: ['aspirin'] }]);
  });

  it('refuses a module whose task name differs from its file name', async () => {
    const file = await writeModule('other.task.ts', 'renamed');
    const error = await loadModuleTask(file, 'other').then(
      () => undefined,
      (thrown: unknown) => thrown as AssayError,
    );
    expect(error?.code).toBe('invalid_config');
    expect(error?.message).toBe(
      'other.task.ts defines task "renamed", but its file name makes it "other"; rename one',
    );
  });

  it('refuses a module without a defineTask default export', async () => {
    const file = path.join(dir, 'plain.task.ts');
    await writeFile(file, 'export default { name: "plain" };\n');
    const error = await loadModuleTask(file).then(
      () => undefined,
      (thrown: unknown) => thrown as AssayError,
    );
    expect(error?.message).toBe('plain.task.ts must `export default defineTask({...})`');
  });
});
