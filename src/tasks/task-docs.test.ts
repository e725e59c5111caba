import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { type RunEvent, withListener } from '../events.js';
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

describe('startEvalDocs', () => {
  /** A process_docs that counts its calls and fails while `failing` is set. */
  function counted() {
    const state = { calls: 0, failing: false };
    const fn = (docs: Array<{ q: string; n: number }>) => {
      state.calls++;
      if (state.failing) throw new Error('process_docs failed');
      return docs.map((doc) => ({ ...doc, q: doc.q.toUpperCase() }));
    };
    const task = {
      ...config('test.jsonl'),
      process_docs: { kind: 'function', ref: 'utils.process_docs', file: 'utils.ts', fn },
    } as unknown as TaskConfig;
    return { state, docs: taskDocs(task, path.join(dir, 't.yaml')) };
  }

  it('runs process_docs ahead of evalDocs, once: evalDocs returns that load', async () => {
    const { state, docs } = counted();
    docs.startEvalDocs();
    docs.startEvalDocs();
    expect(state.calls).toBe(0); // it starts after the read, not in the call
    expect(await docs.evalDocs()).toEqual([
      { q: 'A', n: 1 },
      { q: 'B', n: 2 },
    ]);
    await docs.evalDocs();
    expect(state.calls).toBe(1);
  });

  it('a failure is reported by the next evalDocs, without a second process_docs; the call after retries', async () => {
    const { state, docs } = counted();
    state.failing = true;
    docs.startEvalDocs();
    // Let the early load fail before anyone asks for it (the read comes first, which a loaded machine slows).
    await expect.poll(() => state.calls).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(docs.evalDocs()).rejects.toThrow('process_docs failed');
    expect(state.calls).toBe(1);
    state.failing = false;
    expect(await docs.evalDocs()).toHaveLength(2);
    expect(state.calls).toBe(2);
  });
});

describe('process_docs progress', () => {
  it('reports one operation over the split to the listener of the call, ended even when it fails', async () => {
    const events: RunEvent[] = [];
    let failing = false;
    const fn = (docs: Array<{ q: string }>) => {
      if (failing) throw new Error('process_docs failed');
      return docs;
    };
    const task = {
      ...config('test.jsonl'),
      process_docs: { kind: 'function', ref: 'utils.process_docs', file: 'utils.ts', fn },
    } as unknown as TaskConfig;
    const start = {
      type: 'operation-start',
      id: 'process_docs:t:test',
      label: 't: process_docs (utils.process_docs) over 2 docs of test',
      unit: 'docs',
    };
    await withListener(
      (event) => events.push(event),
      () => taskDocs(task, path.join(dir, 't.yaml')).evalDocs(),
    );
    expect(events).toEqual([
      start,
      { type: 'operation-end', id: 'process_docs:t:test', done: 0, seconds: expect.any(Number) },
    ]);
    events.length = 0;
    failing = true;
    await expect(
      withListener(
        (event) => events.push(event),
        () => taskDocs(task, path.join(dir, 't.yaml')).evalDocs(),
      ),
    ).rejects.toThrow('process_docs failed');
    expect(events.map((event) => event.type)).toEqual(['operation-start', 'operation-end']);
  });
});
