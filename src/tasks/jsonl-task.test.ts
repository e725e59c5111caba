import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { isCodeScoreRequest } from '../sandbox/code-score-request.js';
import type { Doc } from '../task-config/doc.js';
import { codeExecRequest, codeExecTests, loadJsonlTask, parseJsonlTask } from './jsonl-task.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-jsonl-'));
});

function parseError(text: string): AssayError {
  try {
    parseJsonlTask(text, '/tasks/t.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(AssayError);
    return error as AssayError;
  }
  throw new Error('expected an error');
}

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ id: 1, prompt: 'p', targets: ['t'], metric: 'exact_match', ...fields });

describe('parseJsonlTask', () => {
  it('skips blank lines and # comments', () => {
    const lines = parseJsonlTask(
      `# header\n\n${line({})}\n   \n# another\n${line({ id: 'b', extras: { k: 1 } })}\n`,
      'f',
    );
    expect(lines).toEqual([
      { id: 1, prompt: 'p', targets: ['t'], metric: 'exact_match' },
      { id: 'b', prompt: 'p', targets: ['t'], metric: 'exact_match', extras: { k: 1 } },
    ]);
  });

  it.each([
    ['{"id": 1, "prompt": ', 'invalid JSON: '],
    ['[1, 2]', 'expected a JSON object with id, prompt, targets and metric'],
    [line({ promt: 'x' }), 'unknown key "promt"; did you mean "prompt"? (put extra data under "extras")'],
    [line({ id: null }), '"id" must be a string or number'],
    [line({ prompt: 3 }), '"prompt" must be a string'],
    [line({ targets: [] }), '"targets" must be a non-empty list of strings'],
    [line({ targets: 'x' }), '"targets" must be a non-empty list of strings'],
    [
      line({ metric: 'bleu' }),
      '"metric" must be one of exact_match, substring_contains, multiple_choice, rouge_l, code_exec, llm_judge; got "bleu"',
    ],
    [line({ extras: [1] }), '"extras" must be a JSON object'],
  ])('rejects %s with file:line', (bad, message) => {
    const error = parseError(`# ok\n${line({ id: 0 })}\n${bad}\n`);
    expect(error.code).toBe('bad_jsonl_line');
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.location).toEqual({ file: '/tasks/t.jsonl', line: 3 });
  });

  it('rejects duplicate ids', () => {
    const error = parseError(`${line({ id: 7 })}\n${line({ id: 7 })}\n`);
    expect(error.message).toBe('duplicate id 7 (first on line 1)');
    expect(error.location).toEqual({ file: '/tasks/t.jsonl', line: 2 });
  });

  it('checks code_exec extras: tests with an input and something to compare', () => {
    const noTests = parseError(`${line({ metric: 'code_exec', targets: [] })}\n`);
    expect(noTests.code).toBe('bad_jsonl_line');
    expect(noTests.message).toBe(
      'code_exec needs "extras.tests": a non-empty list of {"input": [args], "output": value, "stdout"?: text}, or "extras.io_pairs": a non-empty list of [input, output]',
    );
    expect(noTests.location).toEqual({ file: '/tasks/t.jsonl', line: 1 });
    const noExpectation = parseError(
      `${line({ metric: 'code_exec', extras: { tests: [{ input: [1] }] } })}\n`,
    );
    expect(noExpectation.message).toBe(
      'code_exec "extras.tests[0]" needs "output", "stdout" or both to compare against',
    );
    const badLanguage = parseError(
      `${line({ metric: 'code_exec', extras: { language: 'ruby', tests: [{ input: [1], output: 1 }] } })}\n`,
    );
    expect(badLanguage.message).toBe(
      'code_exec "extras.language" must be one of python, javascript; got "ruby"',
    );
    const [ok] = parseJsonlTask(
      `${line({ metric: 'code_exec', targets: [], extras: { tests: [{ input: [2], output: 4 }] } })}\n`,
      'f',
    );
    expect(ok).toEqual({
      id: 1,
      prompt: 'p',
      targets: [],
      metric: 'code_exec',
      extras: { tests: [{ input: [2], output: 4 }] },
    });
  });

  it('accepts the lesson\'s code_exec line: io_pairs and targets ["ok"]', () => {
    // The line, verbatim: rejected before with 'code_exec needs "extras.tests"'.
    const lesson =
      '{"id": "code-00", "prompt": "python: write a function f that doubles its input", "targets": ["ok"], "metric": "code_exec", "extras": {"io_pairs": [[1, 2], [3, 6]]}}';
    const [parsed] = parseJsonlTask(`${lesson}\n`, 'f');
    expect(parsed).toEqual({
      id: 'code-00',
      prompt: 'python: write a function f that doubles its input',
      targets: ['ok'],
      metric: 'code_exec',
      extras: {
        io_pairs: [
          [1, 2],
          [3, 6],
        ],
      },
    });
    // Each pair is one argument: a list input stays one list argument, never spread over f's parameters.
    expect(
      codeExecTests({
        io_pairs: [
          [1, 2],
          [[1, 2], 3],
          [{ a: 1 }, null],
        ],
      }),
    ).toEqual([
      { input: [1], output: 2 },
      { input: [[1, 2]], output: 3 },
      { input: [{ a: 1 }], output: null },
    ]);
    const request = codeExecRequest(parsed as unknown as Doc, 'def f(x):\n    return x * 2\n');
    expect(request).toEqual({
      kind: 'assay.code_score',
      // Only the inputs reach the sandbox; the expected outputs stay with the host's judge.
      programs: [{ language: 'python', code: 'def f(x):\n    return x * 2\n', inputs: [[1], [3]] }],
      rule: {
        type: 'io_tests',
        metric: 'code_exec',
        tests: [
          { input: [1], output: 2 },
          { input: [3], output: 6 },
        ],
      },
    });
    expect(isCodeScoreRequest(request)).toBe(true);
  });

  it.each([
    [{ io_pairs: [] }, 'code_exec "extras.io_pairs" must be a non-empty list of [input, output]'],
    [{ io_pairs: 'x' }, 'code_exec "extras.io_pairs" must be a non-empty list of [input, output]'],
    [
      { io_pairs: [[1, 2], [3]] },
      'code_exec "extras.io_pairs[1]" must be [input, output] (f is called with the one argument input), got [3]',
    ],
    [
      { io_pairs: [[1, 2, 3]] },
      'code_exec "extras.io_pairs[0]" must be [input, output] (f is called with the one argument input), got [1,2,3]',
    ],
    [
      { io_pairs: [[1, 2]], tests: [{ input: [1], output: 2 }] },
      'code_exec takes "extras.tests" or "extras.io_pairs", not both (they would be two definitions of the same check)',
    ],
  ])('rejects code_exec extras %j with file:line', (extras, message) => {
    const error = parseError(
      `${line({ id: 0 })}\n${line({ metric: 'code_exec', targets: ['ok'], extras })}\n`,
    );
    expect(error.code).toBe('bad_jsonl_line');
    expect(error.message).toBe(message);
    expect(error.location).toEqual({ file: '/tasks/t.jsonl', line: 2 });
  });

  it('rejects an empty file', () => {
    expect(parseError('# nothing\n\n').message).toBe('the task file has no lines');
  });
});

describe('loadJsonlTask', () => {
  it('stops at a task file that is not UTF-8, naming the byte offset (never U+FFFD)', async () => {
    const file = path.join(dir, 'latin1.jsonl');
    const head = '{"id": 1, "prompt": "caf';
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from(head),
        Buffer.from([0xe9]),
        Buffer.from('", "targets": ["t"], "metric": "exact_match"}\n'),
      ]),
    );
    const error = await loadJsonlTask(file).then(
      () => undefined,
      (thrown: unknown) => thrown as AssayError,
    );
    expect(error).toBeInstanceOf(AssayError);
    expect(error?.code).toBe('bad_data');
    expect(error?.location).toEqual({ file, line: 1 });
    expect(error?.message).toMatch(/^not UTF-8: byte offset 24 \(line 1\)/);
  });
  it('maps the file to a generate_until task scored per line by its own metric', async () => {
    const file = path.join(dir, 'arith.jsonl');
    await writeFile(
      file,
      [
        '{"id": "a", "prompt": "2+2=", "targets": ["4"], "metric": "exact_match"}',
        '{"id": "b", "prompt": "Capital of France?", "targets": ["Paris"], "metric": "substring_contains"}',
        '{"id": "c", "prompt": "Pick A or B", "targets": ["B"], "metric": "multiple_choice", "extras": {"note": "x"}}',
        '{"id": "d", "prompt": "Say it", "targets": ["the cat sat"], "metric": "rouge_l"}',
        '',
      ].join('\n'),
    );
    const task = await loadJsonlTask(file);
    expect(task.name).toBe('arith');
    expect(task.config).toEqual({
      task: 'arith',
      output_type: 'generate_until',
      doc_to_text: 'prompt',
      doc_to_target: 'targets',
      target_delimiter: ' ',
      fewshot_delimiter: '\n\n',
      num_fewshot: 0,
      repeats: 1,
      generation_kwargs: { temperature: 0.0, do_sample: false, max_gen_toks: 256, until: ['\n\n'] },
    });
    expect(task.source.format).toBe('jsonl');
    expect(task.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    const docs = await task.evalDocs();
    expect(docs.map((doc) => doc.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(await task.fewshotDocs()).toEqual([]);
    const custom = task.custom;
    if (!custom) throw new Error('JSONL tasks score with custom scoring');
    // A file mixing metrics: each line reports its own metric and the task score, the same value.
    expect(custom.processResults(docs[0], ['  4 '])).toEqual({ score: 1, exact_match: 1 });
    expect(custom.processResults(docs[0], ['5'])).toEqual({ score: 0, exact_match: 0 });
    expect(custom.processResults(docs[1], ['It is Paris.'])).toEqual({ score: 1, substring_contains: 1 });
    expect(custom.processResults(docs[2], ['b) because'])).toEqual({ score: 1, multiple_choice: 1 });
    // LCS "the cat" of 2 tokens: precision 2/2, recall 2/3, F1 0.8.
    expect(custom.processResults(docs[3], ['the cat'])).toEqual({ score: 0.8, rouge_l: 0.8 });
    // The task score comes first: it is the task's primary metric.
    expect(Object.keys(custom.aggregation)).toEqual([
      'score',
      'exact_match',
      'substring_contains',
      'multiple_choice',
      'rouge_l',
    ]);
    expect(custom.aggregation.exact_match([1, 0, 1, 1])).toBe(0.75);
    expect(custom.higherIsBetter).toEqual({
      score: true,
      exact_match: true,
      substring_contains: true,
      multiple_choice: true,
      rouge_l: true,
    });
  });
});
