import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { taskDocs } from './task-docs.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-task-docs-'));
  await writeFile(path.join(dir, 'test.jsonl'), '{"q": "a", "n": 1}\n{"q": "b", "n": 2}\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function config(file: string): TaskConfig {
  return {
    task: 't',
    dataset_path: 'json',
    dataset_kwargs: { data_files: { test: file } },
    test_split: 'test',
  } as unknown as TaskConfig;
}

describe('prefetchEvalDocs', () => {
  it('reads the split ahead of evalDocs, which then returns the same docs and records the same file', async () => {
    const plain = taskDocs(config('test.jsonl'), path.join(dir, 't.yaml'));
    const early = taskDocs(config('test.jsonl'), path.join(dir, 't.yaml'));
    early.prefetchEvalDocs();
    expect(await early.evalDocs()).toEqual([
      { q: 'a', n: 1 },
      { q: 'b', n: 2 },
    ]);
    expect(await early.evalDocs()).toEqual(await plain.evalDocs());
    expect(early.dataFiles()).toEqual(plain.dataFiles());
    expect(early.dataFiles()).toHaveLength(1);
  });

  it('a file that cannot be read fails in evalDocs with the error it has without the prefetch', async () => {
    const plain = taskDocs(config('missing.jsonl'), path.join(dir, 't.yaml'));
    const early = taskDocs(config('missing.jsonl'), path.join(dir, 't.yaml'));
    early.prefetchEvalDocs();
    const expected = await plain.evalDocs().catch((error: unknown) => error);
    const actual = await early.evalDocs().catch((error: unknown) => error);
    expect(expected).toBeInstanceOf(AssayError);
    expect(actual).toBeInstanceOf(AssayError);
    expect((actual as AssayError).message).toBe((expected as AssayError).message);
    expect((actual as AssayError).code).toBe((expected as AssayError).code);
  });
});
