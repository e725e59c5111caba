/**
 * Bad data and bad options stop a run with exit-2 errors that name the place, before the model sees a
 * single request: each case runs the real evaluator on real task files against a backend that counts
 * what reaches it.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import type { GenerateRequest, LoglikelihoodRequest, RollingRequest } from '../models/backend.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { type SimpleEvaluateOptions, simpleEvaluate } from './evaluate.js';

/** The dummy model, counting every request that reaches it. */
class CountingBackend extends DummyBackend {
  requests = 0;
  override async loglikelihood(requests: LoglikelihoodRequest[]) {
    this.requests += requests.length;
    return super.loglikelihood(requests);
  }
  override async loglikelihoodRolling(requests: RollingRequest[]) {
    this.requests += requests.length;
    return super.loglikelihoodRolling(requests);
  }
  override async generate(requests: GenerateRequest[]) {
    this.requests += requests.length;
    return super.generate(requests);
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-preflight-'));
});

async function write(name: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

const jsonl = (rows: unknown[]) => rows.map((row) => `${JSON.stringify(row)}\n`).join('');

/** A yes/no multiple-choice task over a local JSONL file. */
async function choiceTask(name: string, rows: unknown[], extra = ''): Promise<string> {
  await write(`${name}.jsonl`, jsonl(rows));
  return write(
    `${name}.yaml`,
    `task: ${name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: ${name}.jsonl
test_split: test
output_type: multiple_choice
doc_to_text: "{{question}}"
doc_to_choice: ["no", "yes"]
doc_to_target: label
${extra}`,
  );
}

/** Runs the evaluator and returns its error, with the count of requests the model received. */
async function failure(
  options: Omit<SimpleEvaluateOptions, 'model'>,
): Promise<{ error: AssayError; requests: number }> {
  const backend = new CountingBackend();
  const error = await simpleEvaluate({ ...options, model: backend }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AssayError);
  return { error: error as AssayError, requests: backend.requests };
}

describe('bad data', () => {
  it('an empty evaluation split is an error naming the task file and split', async () => {
    const file = await choiceTask('empty', []);
    const { error, requests } = await failure({ tasks: [file] });
    expect(requests).toBe(0);
    expect(error.code).toBe('bad_data');
    expect(error.exitCode).toBe(2);
    expect(error.location).toEqual({ file, task: 'empty', field: 'test_split' });
    expect(error.message).toBe('task empty has no documents in its evaluation split "test"');
  });

  it('a gold label outside the choices (label 7 of 2) is an error naming the doc, before any request', async () => {
    const file = await choiceTask('labels', [
      { question: 'a?', label: 1 },
      { question: 'b?', label: 7 },
    ]);
    const { error, requests } = await failure({ tasks: [file] });
    expect(requests).toBe(0);
    expect(error.code).toBe('bad_data');
    expect(error.location).toEqual({ file, task: 'labels', docId: 1 });
    expect(error.message).toBe('gold label 7 is not a choice index: the doc has 2 choices ["no","yes"]');
  });

  it('a gold label that is no choice (a text, a negative index, a list member) is an error before any request', async () => {
    const cases: Array<[unknown, string]> = [
      ['maybe', 'gold label "maybe" is not one of the choices ["no","yes"]'],
      [-1, 'gold label -1 is not a choice index: the doc has 2 choices ["no","yes"]'],
      [[0, 2], 'gold label 2 is not a choice index: the doc has 2 choices ["no","yes"]'],
      [1.5, 'gold label 1.5 is neither a choice index nor a choice'],
    ];
    for (const [index, [label, message]] of cases.entries()) {
      const file = await choiceTask(`gold${index}`, [{ question: 'q?', label }]);
      const { error, requests } = await failure({ tasks: [file] });
      expect(requests).toBe(0);
      expect(error.message).toBe(message);
      expect(error.location).toEqual({ file, task: `gold${index}`, docId: 0 });
    }
  });

  it('valid labels (an index, a choice text, a list) still run', async () => {
    const file = await choiceTask('fine', [
      { question: 'a?', label: 1 },
      { question: 'b?', label: 'no' },
      { question: 'c?', label: [0, 1] },
    ]);
    const backend = new CountingBackend();
    const result = await simpleEvaluate({ model: backend, tasks: [file], bootstrapIters: 0 });
    expect(backend.requests).toBe(6);
    expect(result.results.results.fine['acc,none']).toEqual(expect.any(Number));
  });
});
