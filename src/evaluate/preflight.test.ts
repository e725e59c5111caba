/**
 * Bad data and bad options stop a run with exit-2 errors that name the place, before the model sees a
 * single request: each case runs the real evaluator on real task files against a backend that counts
 * what reaches it.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeIn } from '../../test/support/helpers.js';
import { AssayError } from '../errors.js';
import type { GenerateCallOptions, LoglikelihoodCallOptions, RollingCallOptions } from '../models/backend.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { evaluate, type SimpleEvaluateOptions, simpleEvaluate } from '../run/evaluate.js';

/** The dummy model, counting every request that reaches it. */
class CountingBackend extends DummyBackend {
  requests = 0;
  override async loglikelihood(options: LoglikelihoodCallOptions) {
    const { requests } = options;
    this.requests += requests.length;
    return super.loglikelihood(options);
  }
  override async loglikelihoodRolling(options: RollingCallOptions) {
    const { requests } = options;
    this.requests += requests.length;
    return super.loglikelihoodRolling(options);
  }
  override async generate(options: GenerateCallOptions) {
    const { requests } = options;
    this.requests += requests.length;
    return super.generate(options);
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-preflight-'));
});

const write = (name: string, content: string | Buffer) => writeIn(dir, name, content);

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

const arithmetic = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    JSON.stringify({ id: i, prompt: `${i}+1=`, targets: [String(i + 1)], metric: 'exact_match' }),
  ).join('\n');

describe('pre-flight of the options', () => {
  it('a samples key naming no task is an error with a did-you-mean', async () => {
    const task = await write('arithmetic.jsonl', arithmetic(3));
    const { error, requests } = await failure({ tasks: [task], samples: { arithmetc: [0, 1] } });
    expect(requests).toBe(0);
    expect(error.code).toBe('bad_option');
    expect(error.message).toBe(
      '`samples` names task "arithmetc", which is not in this run; did you mean "arithmetic"? (tasks: arithmetic)',
    );
  });

  it('numFewshot on tasks that cannot take few-shot examples is an error; on some of them, a warning', async () => {
    const jsonlTask = await write('arithmetic.jsonl', arithmetic(2));
    const { error, requests } = await failure({ tasks: [jsonlTask], numFewshot: 100 });
    expect(requests).toBe(0);
    expect(error.code).toBe('bad_option');
    expect(error.message).toBe(
      '`numFewshot` 100: no task in this run can take few-shot examples (arithmetic: a JSONL task has no examples to draw from); drop `numFewshot`',
    );
    // Beside a task that takes them, the JSONL task runs 0-shot and the run says so.
    const yaml = await choiceTask(
      'shots',
      [
        { question: 'a?', label: 1 },
        { question: 'b?', label: 0 },
      ],
      'fewshot_split: test\n',
    );
    const warnings: string[] = [];
    const backend = new CountingBackend();
    const result = await simpleEvaluate({
      model: backend,
      tasks: [jsonlTask, yaml],
      numFewshot: 1,
      bootstrapIters: 0,
      logger: { warn: (message) => warnings.push(message) },
    });
    expect(warnings).toContain(
      '`numFewshot` 1 does not apply to arithmetic (a JSONL task has no examples to draw from): it runs 0-shot',
    );
    expect(result.results['n-shot']).toEqual({ arithmetic: 0, shots: 1 });
  });

  it('a missing includePath folder is an error', async () => {
    const task = await write('arithmetic.jsonl', arithmetic(1));
    const missing = path.join(dir, 'no-such-folder');
    const { error, requests } = await failure({ tasks: [task], includePath: [missing] });
    expect(requests).toBe(0);
    expect(error.code).toBe('not_found');
    expect(error.message).toBe(`\`includePath\`: ${missing} does not exist`);
    const file = await write('plain.txt', 'x');
    expect((await failure({ tasks: [task], includePath: [file] })).error.message).toBe(
      `\`includePath\`: ${file} is not a folder`,
    );
  });
});

describe('pre-flight of the model args, on every backend', () => {
  it('unknown model args are rejected with a did-you-mean before any HTTP request', async () => {
    let received = 0;
    const server = createServer((_request, response) => {
      received++;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
    try {
      const task = await write('arithmetic.jsonl', arithmetic(2));
      const cases: Array<[string, Record<string, unknown>, string]> = [
        [
          'local-completions',
          { model: 'm', base_url: url, num_concurent: 8 },
          '`modelArgs` for local-completions: unknown argument "num_concurent"; did you mean "num_concurrent"?',
        ],
        [
          'local-chat-completions',
          { model: 'm', base_url: url, bogus: 1 },
          '`modelArgs` for local-chat-completions: unknown argument "bogus"',
        ],
        [
          'local-completions',
          { model: 'm', base_url: url, pretrained: 'gpt2' },
          '`modelArgs` for local-completions: model=m and pretrained=gpt2 name different models; give one of them',
        ],
        [
          'gguf',
          { model: 'x.gguf', thread: 2 },
          '`modelArgs` for gguf: unknown argument "thread"; did you mean "threads"?',
        ],
        ['dummy', { temperature: 1 }, '`modelArgs` for dummy: unknown argument "temperature"'],
        ['demo', { model: 'x.gguf' }, '`modelArgs` for demo: the built-in demo model takes no model='],
      ];
      for (const [model, modelArgs, message] of cases) {
        const error = await evaluate({ model, modelArgs, tasks: [task] }).then(
          () => undefined,
          (thrown: unknown) => thrown as AssayError,
        );
        expect(error).toBeInstanceOf(AssayError);
        expect(error?.exitCode).toBe(2);
        expect(error?.message.startsWith(message)).toBe(true);
      }
      expect(received).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('pre-flight of the output path', () => {
  it('an unusable outputPath fails before the model is asked anything, with the reason', async () => {
    const task = await write('arithmetic.jsonl', arithmetic(2));
    const file = await write('a-file', 'x');
    const cases: Array<[string, RegExp]> = [
      [path.join(file, 'out'), /^`outputPath`: .*a-file is a file, not a folder \(ENOTDIR\)$/],
      // Node's recursive mkdir spins forever here.
      [
        '/proc/nope/',
        /^`outputPath`: cannot create folder \/proc\/nope: ENOENT \(no such file or directory\)$/,
      ],
      // Root may write anywhere but sysfs, which refuses files (EACCES) and folders (EPERM) alike.
      [
        '/sys/kernel',
        /^`outputPath`: cannot (create folder|write in) \/sys\/kernel(\/dummy)?: E(ACCES|PERM) /,
      ],
    ];
    for (const [outputPath, message] of cases) {
      const started = performance.now();
      const { error, requests } = await failure({ tasks: [task], outputPath, modelName: 'dummy' });
      expect(requests).toBe(0);
      expect(error.exitCode).toBe(2);
      expect(error.message).toMatch(message);
      expect(performance.now() - started).toBeLessThan(5000);
    }
  });

  it('the output folder is made before the run', async () => {
    const outputPath = path.join(dir, 'new', 'deeper');
    const backend = new CountingBackend();
    const task = await write('arithmetic.jsonl', arithmetic(2));
    const result = await simpleEvaluate({ model: backend, tasks: [task], outputPath, modelName: 'dummy' });
    expect(result.files?.results.startsWith(path.join(outputPath, 'dummy', 'results_'))).toBe(true);
  });
});
