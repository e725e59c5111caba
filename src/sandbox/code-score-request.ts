/**
 * The seam between sync per-sample metrics and async code execution. A metric that needs to run code
 * returns a CodeScoreRequest (plain data: the programs and the rule that turns their outcomes into
 * numbers) in place of its value; the evaluator's code stage runs every request's programs through the
 * sandbox pool (code-score.ts) and swaps in the numbers before aggregation.
 *
 * Task modules (say tasks/humaneval/utils.ts) build these objects without importing assay, so the
 * check is structural, not `instanceof`; a request that does not have the shape is an error that says
 * what is wrong, never a silent zero. This file loads no sandbox code: every run's scoring looks for
 * requests, and only a run that finds one loads the sandbox.
 */
import type { IoTest } from './io-tests.js';
import type { CheckedProgram, IoProgram } from './types.js';
import { LANGUAGES } from './types.js';

export const CODE_SCORE_KIND = 'assay.code_score';

/** n checked programs, one per sample of a problem; each passes when its test returns. Reports pass@k for every k ≤ n. */
export interface PassAtKRequest {
  kind: typeof CODE_SCORE_KIND;
  programs: CheckedProgram[];
  rule: { type: 'pass_at_k'; k: number[] };
}

/** One answer called on each test's input; the metric is the fraction of tests matched. */
export interface IoTestsRequest {
  kind: typeof CODE_SCORE_KIND;
  programs: [IoProgram];
  /** `alsoAs`: more metric names reporting the same fraction (a mixed JSONL file's task `score`). */
  rule: { type: 'io_tests'; metric: string; tests: IoTest[]; alsoAs?: string[] };
}

export type CodeScoreRequest = PassAtKRequest | IoTestsRequest;

const isString = (value: unknown): value is string => typeof value === 'string';
const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

/** Why a value marked as a code-score request is not a valid one; undefined when it is. */
export function codeScoreProblem(value: Record<string, unknown>): string | undefined {
  const { programs, rule } = value as {
    programs?: unknown;
    rule?: { type?: unknown } & Record<string, unknown>;
  };
  if (!Array.isArray(programs)) return '"programs" must be a list';
  if (!rule || typeof rule !== 'object') return '"rule" must be an object';
  if (rule.type === 'pass_at_k') {
    if (!Array.isArray(rule.k) || !rule.k.every((k) => Number.isInteger(k)))
      return 'rule "pass_at_k" needs "k": a list of integers';
    const index = programs.findIndex(
      (program) =>
        !program ||
        typeof program !== 'object' ||
        program.language !== 'python' ||
        !isString(program.program) ||
        !isString(program.test) ||
        !optionalString(program.prelude) ||
        !optionalString(program.entryPoint),
    );
    if (index >= 0)
      return `programs[${index}] must be {"language": "python", "program": code, "test": code, "prelude"?: code, "entryPoint"?: name}: the test runs apart from the program, which cannot judge itself`;
    return undefined;
  }
  if (rule.type === 'io_tests') {
    if (!isString(rule.metric) || !Array.isArray(rule.tests))
      return 'rule "io_tests" needs "metric" and "tests"';
    if (rule.alsoAs !== undefined && !(Array.isArray(rule.alsoAs) && rule.alsoAs.every(isString)))
      return 'rule "io_tests" "alsoAs" must be a list of metric names';
    const [program] = programs as IoProgram[];
    if (
      programs.length !== 1 ||
      !program ||
      !LANGUAGES.includes(program.language) ||
      !isString(program.code) ||
      !Array.isArray(program.inputs) ||
      program.inputs.length !== rule.tests.length
    )
      return 'rule "io_tests" needs one program {"language", "code", "inputs"} with an input per test';
    return undefined;
  }
  return `unknown rule type ${JSON.stringify(rule.type)} (pass_at_k or io_tests)`;
}

export function isCodeScoreMarked(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && (value as Record<string, unknown>).kind === CODE_SCORE_KIND;
}

export function isCodeScoreRequest(value: unknown): value is CodeScoreRequest {
  return isCodeScoreMarked(value) && codeScoreProblem(value) === undefined;
}

/** A request for n samples of a problem, each checked by its test (HumanEval, MBPP). */
export function passAtKRequest(programs: CheckedProgram[], k: number[]): PassAtKRequest {
  return { kind: CODE_SCORE_KIND, programs, rule: { type: 'pass_at_k', k } };
}
