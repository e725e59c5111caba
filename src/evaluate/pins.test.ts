/**
 * Pinned task content: a YAML task's sha256 covers its local data files, the manifest lists them, and
 * `expectSha256` refuses a task that changed before the model is asked anything.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withFlagNames } from '../cli/errors.js';
import { AssayError } from '../errors.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { simpleEvaluate } from '../run/evaluate.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

const YAML = [
  'task: pinned_qa',
  'dataset_path: json',
  'dataset_kwargs:',
  '  data_files:',
  '    test: docs.jsonl',
  'test_split: test',
  'output_type: generate_until',
  'doc_to_text: "Q: {{question}}\\nA:"',
  'doc_to_target: answer',
  'generation_kwargs:',
  '  until: ["\\n"]',
  'metric_list:',
  '  - metric: exact_match',
  '',
].join('\n');
const DOCS = [
  '{"question": "What colour is the sky?", "answer": "blue"}',
  '{"question": "What do bees make?", "answer": "honey"}',
  '',
].join('\n');

/** The dummy backend, counting what it is asked. */
class CountingBackend extends DummyBackend {
  requests = 0;
  override async generate(options: Parameters<DummyBackend['generate']>[0]) {
    this.requests += options.requests.length;
    return super.generate(options);
  }
}

let directory: string;
let task: string;
let docs: string;

/** Edits a file as a user would, some seconds later (file digests are kept while size and mtime hold). */
async function edit(file: string, text: string): Promise<void> {
  const before = await stat(file);
  await writeFile(file, text);
  const later = new Date(before.mtimeMs + 5000);
  await utimes(file, later, later);
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'assay-pins-'));
  task = path.join(directory, 'pinned_qa.yaml');
  docs = path.join(directory, 'docs.jsonl');
  await writeFile(task, YAML);
  await writeFile(docs, DOCS);
  const old = new Date(Date.now() - 60_000);
  await utimes(docs, old, old);
  await utimes(task, old, old);
});

describe('a task’s content sha256', () => {
  it('covers its local data files, which the manifest lists with size and sha256', async () => {
    const outputPath = path.join(directory, 'out');
    const first = await simpleEvaluate({ model: new DummyBackend(), tasks: [task], outputPath });
    const manifest = first.results.manifest.tasks.pinned_qa;
    expect(manifest.data_files).toEqual([
      { split: 'test', path: 'docs.jsonl', size: Buffer.byteLength(DOCS), sha256: sha256(DOCS) },
    ]);
    expect(manifest.config_sha256).toBe(sha256(Buffer.from(sha256(YAML), 'hex')));
    expect(manifest.sha256).not.toBe(manifest.config_sha256);
    // The leaderboard records the same content hash.
    const leaderboard = JSON.parse(readFileSync(first.files?.leaderboard ?? '', 'utf8'));
    expect(leaderboard.tasks.pinned_qa.sha256).toBe(manifest.sha256);

    // One word of the docs changes: the content hash moves, the config hash does not.
    await edit(docs, DOCS.replace('sky', 'sea'));
    const second = await simpleEvaluate({ model: new DummyBackend(), tasks: [task] });
    const changed = second.results.manifest.tasks.pinned_qa;
    expect(changed.config_sha256).toBe(manifest.config_sha256);
    expect(changed.sha256).not.toBe(manifest.sha256);
    expect(changed.data_files[0].sha256).toBe(sha256(await readFile(docs)));

    // And back: the same bytes give the same hash again.
    await edit(docs, DOCS);
    const third = await simpleEvaluate({ model: new DummyBackend(), tasks: [task] });
    expect(third.results.manifest.tasks.pinned_qa.sha256).toBe(manifest.sha256);
  });
});

describe('expectSha256', () => {
  it('runs a task that matches its pin', async () => {
    const pinned = (await simpleEvaluate({ model: new DummyBackend(), tasks: [task] })).results.manifest.tasks
      .pinned_qa.sha256;
    const backend = new CountingBackend();
    const output = await simpleEvaluate({
      model: backend,
      tasks: [task],
      expectSha256: { pinned_qa: pinned.toUpperCase() },
    });
    expect(output.results.manifest.tasks.pinned_qa.sha256).toBe(pinned);
    expect(backend.requests).toBe(2);
  });

  it('refuses a task whose data changed, naming it and both hashes, before any model request', async () => {
    const pinned = (await simpleEvaluate({ model: new DummyBackend(), tasks: [task] })).results.manifest.tasks
      .pinned_qa.sha256;
    await edit(docs, DOCS.replace('sky', 'sea'));
    const backend = new CountingBackend();
    const error = await simpleEvaluate({ model: backend, tasks: [task], expectSha256: { pinned_qa: pinned } })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AssayError);
    const failure = error as AssayError;
    const now = (await simpleEvaluate({ model: new DummyBackend(), tasks: [task] })).results.manifest.tasks
      .pinned_qa;
    expect([failure.code, failure.exitCode]).toEqual(['sha256_mismatch', 2]);
    // The library names the option field (`expectSha256`); the CLI shows the flag, as here.
    expect(withFlagNames(failure.message)).toBe(
      `task pinned_qa is not the pinned content: sha256 ${now.sha256}, expected ${pinned} (--expect_sha256); it covers its config (sha256 ${now.config_sha256}) and 1 data file: docs.jsonl (test, ${Buffer.byteLength(DOCS)} bytes, sha256 ${sha256(await readFile(docs))})`,
    );
    expect(backend.requests).toBe(0);
  });

  it('refuses a pin naming no task of the run, or a value that is no sha256', async () => {
    const run = (expectSha256: Record<string, string>) =>
      simpleEvaluate({ model: new DummyBackend(), tasks: [task], expectSha256 }).catch((error: Error) => {
        throw new Error(withFlagNames(error.message));
      });
    await expect(run({ pinned_q: 'a'.repeat(64) })).rejects.toThrow(
      '--expect_sha256 pins task "pinned_q", which is not in this run; did you mean "pinned_qa"? (tasks: pinned_qa)',
    );
    await expect(run({ pinned_qa: 'abc' })).rejects.toThrow(
      '--expect_sha256: task pinned_qa must map to a sha256 (64 hex digits), got "abc"',
    );
  });
});
