/** The code-score request is checked where it enters: a malformed one says what is wrong. */
import { describe, expect, it } from 'vitest';
import { codeScoreProblem, isCodeScoreRequest, passAtKRequest } from './code-score-request.js';

describe('code-score requests', () => {
  it('accept checked programs and io tests, and refuse a program that would judge itself', () => {
    expect(
      isCodeScoreRequest(passAtKRequest([{ language: 'python', program: 'x = 1', test: 'assert x' }], [1])),
    ).toBe(true);
    expect(
      isCodeScoreRequest({
        kind: 'assay.code_score',
        programs: [{ language: 'javascript', code: 'function f() {}', inputs: [[1]] }],
        rule: { type: 'io_tests', metric: 'code_exec', tests: [{ input: [1], output: 1 }] },
      }),
    ).toBe(true);
    // The shape before the checker: one source whose exit status was the verdict.
    expect(
      codeScoreProblem({
        kind: 'assay.code_score',
        programs: [{ language: 'python', source: 'def f(): ...\nassert f()' }],
        rule: { type: 'pass_at_k', k: [1] },
      }),
    ).toBe(
      'programs[0] must be {"language": "python", "program": code, "test": code, "prelude"?: code, "entryPoint"?: name}: the test runs apart from the program, which cannot judge itself',
    );
    expect(
      codeScoreProblem({
        kind: 'assay.code_score',
        programs: [{ language: 'python', code: '', inputs: [] }],
        rule: { type: 'io_tests', metric: 'code_exec', tests: [{ input: [1], output: 1 }] },
      }),
    ).toBe('rule "io_tests" needs one program {"language", "code", "inputs"} with an input per test');
    expect(codeScoreProblem({ kind: 'assay.code_score', programs: [], rule: { type: 'exit_status' } })).toBe(
      'unknown rule type "exit_status" (pass_at_k or io_tests)',
    );
  });
});
