/**
 * The seam between sync per-sample metrics and async code execution. A metric that needs to run code
 * returns a CodeScoreRequest (plain data: the programs and the rule that turns their outcomes into
 * numbers) in place of its value; the evaluator's code stage runs every request's programs through the
 * sandbox pool and swaps in the numbers before aggregation.
 *
 * Task modules (say tasks/humaneval/utils.ts) build these objects without importing assay, so the
 * check is structural, not `instanceof`.
 */
import { passAtK } from '../stats/index.js';
import { type IoTest, scoreIoTests } from './io-tests.js';
import { classifyRun } from './outcome.js';
import type { CodeOutcome, Language, Program, RunResult, SandboxLimits } from './types.js';
import { LANGUAGES } from './types.js';

export const CODE_SCORE_KIND = 'assay.code_score';

export type CodeScoreRule =
  /** One program per sample of a problem; each passes when it exits 0. Reports pass@k for every k ≤ n. */
  | { type: 'pass_at_k'; k: number[] }
  /** One io-tests harness program; the metric is the fraction of tests matched. */
  | { type: 'io_tests'; metric: string; nonce: string; tests: IoTest[] };

export interface CodeScoreRequest {
  kind: typeof CODE_SCORE_KIND;
  programs: Program[];
  rule: CodeScoreRule;
}

export interface CodeScoreResult {
  metrics: Record<string, number>;
  /** One per program, in order: what the sample log shows. */
  outcomes: CodeOutcome[];
}

export function isCodeScoreRequest(value: unknown): value is CodeScoreRequest {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    record.kind === CODE_SCORE_KIND &&
    Array.isArray(record.programs) &&
    record.programs.every(
      (program) =>
        program &&
        typeof program === 'object' &&
        typeof (program as Program).source === 'string' &&
        LANGUAGES.includes((program as Program).language),
    ) &&
    !!record.rule &&
    typeof record.rule === 'object'
  );
}

/** Turns the programs' run results into metric values and per-program outcomes. */
export function scoreCodeRequest(
  request: CodeScoreRequest,
  runs: RunResult[],
  limits: SandboxLimits,
): CodeScoreResult {
  const { rule } = request;
  if (rule.type === 'pass_at_k') {
    const outcomes = runs.map((run) => classifyRun(run, limits));
    const n = outcomes.length;
    const correct = outcomes.filter((outcome) => outcome.status === 'passed').length;
    const metrics: Record<string, number> = {};
    // pass@k is undefined for k > n; leaving it out makes the aggregation skip it rather than guess.
    for (const k of rule.k) if (k >= 1 && k <= n) metrics[`pass@${k}`] = passAtK(n, correct, k);
    return { metrics, outcomes };
  }
  const [run] = runs;
  const { score, outcome } = scoreIoTests(run, classifyRun(run, limits), rule.nonce, rule.tests.length);
  return { metrics: { [rule.metric]: score }, outcomes: [outcome] };
}

/** A request for n samples of a program checked by exit status (HumanEval, MBPP). */
export function passAtKRequest(language: Language, sources: string[], k: number[]): CodeScoreRequest {
  return {
    kind: CODE_SCORE_KIND,
    programs: sources.map((source) => ({ language, source })),
    rule: { type: 'pass_at_k', k },
  };
}
