/**
 * Runs a code-score request (code-score-request.ts) in the sandbox and turns the outcomes of its
 * programs into metric values.
 */
import { passAtK } from '../stats/pass-at-k.js';
import type { CodeScoreRequest, IoTestsRequest, PassAtKRequest } from './code-score-request.js';
import { judgeIoAnswers, scoreIoTests } from './io-tests.js';
import { classifyRun } from './outcome.js';
import type { CodeSandbox } from './sandbox.js';
import type { CodeOutcome } from './types.js';

export interface CodeScoreResult {
  metrics: Record<string, number>;
  /** One per program, in order: what the sample log shows. */
  outcomes: CodeOutcome[];
}

/** Runs a request's programs in the sandbox and turns their outcomes into metric values. */
export async function runCodeRequest(
  sandbox: CodeSandbox,
  request: CodeScoreRequest,
): Promise<CodeScoreResult> {
  if (request.rule.type === 'pass_at_k') {
    const { k } = request.rule;
    const outcomes = await Promise.all(
      (request as PassAtKRequest).programs.map((program) => sandbox.check(program)),
    );
    const n = outcomes.length;
    const correct = outcomes.filter((outcome) => outcome.status === 'passed').length;
    const metrics: Record<string, number> = {};
    // pass@k is undefined for k > n; leaving it out makes the aggregation skip it rather than guess.
    for (const value of k)
      if (value >= 1 && value <= n) metrics[`pass@${value}`] = passAtK(n, correct, value);
    return { metrics, outcomes };
  }
  const { rule, programs } = request as IoTestsRequest;
  const [program] = programs;
  const run = await sandbox.runIo(program);
  const judged = judgeIoAnswers(run.answered, program.language, rule.tests);
  const { score, outcome } = scoreIoTests(
    classifyRun(run, sandbox.options.limits),
    judged,
    rule.tests.length,
  );
  const metrics: Record<string, number> = { [rule.metric]: score };
  for (const name of rule.alsoAs ?? []) metrics[name] = score;
  return { metrics, outcomes: [outcome] };
}
