/**
 * pass@k for a set of problems and a paired comparison of two systems on the same problems. The problem
 * is the unit of independence (Miller 2024): each problem's unbiased pass@k estimate (the stable product
 * form in `passAtK`) is one observation, the interval is a bootstrap over problems, and two systems are
 * compared on the per-problem differences of their estimates, paired by problem id.
 */
import { mean } from './descriptive.js';
import { pairedBootstrapInterval } from './paired-bootstrap.js';
import { pairedTTest } from './paired-t-test.js';
import { passAtK, passAtKAggregate } from './pass-at-k.js';
import { pairedPermutationTest } from './permutation-test.js';
import { badArgument } from './validate.js';
import { wilcoxonSignedRank } from './wilcoxon.js';

/** One problem: n generations of which c passed. */
export interface PassKProblem {
  id: string;
  n: number;
  c: number;
}

export interface PassKEvaluation {
  k: number;
  problems: number;
  /** Mean over problems of the unbiased pass@k. */
  passAtK: number;
  standardError: number;
  /** Percentile bootstrap interval over problems. */
  interval: [number, number];
  confidence: number;
}

export function evaluatePassK(
  problems: readonly PassKProblem[],
  k: number,
  options: { confidence?: number; iterations?: number; seed?: number } = {},
): PassKEvaluation {
  const aggregate = passAtKAggregate(
    problems.map((problem) => problem.n),
    problems.map((problem) => problem.c),
    k,
    options,
  );
  return {
    k,
    problems: problems.length,
    passAtK: aggregate.mean,
    standardError: aggregate.standardError,
    interval: [aggregate.interval.low, aggregate.interval.high],
    confidence: aggregate.interval.confidence,
  };
}

export type PassKComparisonMethod = 'permutation' | 'bootstrap' | 't' | 'wilcoxon';

export interface PassKComparison {
  k: number;
  method: PassKComparisonMethod;
  /** Problems present in both; the others are counted and left out. */
  paired: number;
  unpairedA: number;
  unpairedB: number;
  passAtKA: number;
  passAtKB: number;
  /** passAtKB − passAtKA. */
  difference: number;
  /** Paired bootstrap interval of the difference. */
  interval: [number, number];
  /** Two-sided p-value of `method`; null for `bootstrap`, whose answer is the interval. */
  pValue: number | null;
}

export function comparePassK(
  a: readonly PassKProblem[],
  b: readonly PassKProblem[],
  k: number,
  method: PassKComparisonMethod = 'permutation',
  options: { confidence?: number; iterations?: number; seed?: number } = {},
): PassKComparison {
  const byId = new Map(b.map((problem) => [problem.id, problem]));
  if (byId.size !== b.length) throw badArgument('comparePassK', 'problem ids in b must be unique');
  const scoresA: number[] = [];
  const scoresB: number[] = [];
  const seen = new Set<string>();
  for (const problem of a) {
    if (seen.has(problem.id))
      throw badArgument('comparePassK', `problem id ${problem.id} appears twice in a`);
    seen.add(problem.id);
    const partner = byId.get(problem.id);
    if (!partner) continue;
    scoresA.push(passAtK(problem.n, problem.c, k));
    scoresB.push(passAtK(partner.n, partner.c, k));
  }
  if (scoresA.length < 2)
    throw badArgument('comparePassK', `needs at least 2 shared problems, got ${scoresA.length}`);
  const seed = options.seed ?? 0;
  const bootstrap = pairedBootstrapInterval(scoresA, scoresB, {
    iterations: options.iterations ?? 10_000,
    seed,
    confidence: options.confidence,
  });
  const differences = scoresB.map((value, i) => value - scoresA[i]);
  let pValue: number | null = null;
  if (method === 'permutation') pValue = pairedPermutationTest(differences, { seed }).pValue;
  else if (method === 't') {
    const test = pairedTTest(scoresB, scoresA);
    pValue = Number.isNaN(test.pValue) ? null : test.pValue;
  } else if (method === 'wilcoxon') {
    pValue = differences.every((d) => d === 0) ? 1 : wilcoxonSignedRank(differences).pValue;
  }
  return {
    k,
    method,
    paired: scoresA.length,
    unpairedA: a.length - scoresA.length,
    unpairedB: b.length - scoresA.length,
    passAtKA: mean(scoresA),
    passAtKB: mean(scoresB),
    difference: bootstrap.difference,
    interval: [bootstrap.low, bootstrap.high],
    pValue,
  };
}
