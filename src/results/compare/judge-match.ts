/**
 * Judge metrics in compare and gate. A difference between two runs' judge scores measures the models only
 * when one judge scored both (same judge model, same args, same rubric, the same verdict taken the same way); and a judge score is only worth
 * gating on when the judge agreed with the humans on the labelled slice (results.json `judges`).
 */
import type { ReadResults } from '../schema.js';

type JudgeEntry = NonNullable<ReadResults['judges']>[string][number];

/** Agreement statistics a gate can require, as results.json `judges[].statistics.agreement` names them. */
export const JUDGE_AGREEMENT_STATISTICS = [
  'cohen_kappa',
  'weighted_kappa',
  'krippendorff_alpha',
  'accuracy',
] as const;
export type JudgeAgreementStatistic = (typeof JUDGE_AGREEMENT_STATISTICS)[number];

export interface JudgeAgreement {
  statistic: JudgeAgreementStatistic;
  /** null: no labelled slice, or the statistic is undefined on it (e.g. κ with one category). */
  estimate: number | null;
  low: number | null;
  high: number | null;
  labelled: number;
}

/** The judge that scored `metric` of `task` in a run, if the run records one. */
export function judgeOf(results: ReadResults, task: string, metric: string): JudgeEntry | undefined {
  return results.judges?.[task]?.find((entry) => entry.metric === metric);
}

/** JSON with sorted keys: two args objects written in different key orders are the same args. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * What the identity of a judge is: its model (or jury), its args, its rubric, and how its verdict is taken
 * (a written answer, or the options' log-likelihoods: the same model and rubric give different scores).
 */
function identity(entry: JudgeEntry): {
  model: string;
  args: string;
  rubric: string;
  by: string;
  verdict: string;
} {
  const { by = 'generate', ...verdict } = entry.verdict ?? {};
  return {
    model: entry.jury === undefined ? entry.model : `jury ${canonical(entry.jury)}`,
    args: canonical(entry.model_args ?? {}),
    rubric: entry.rubric_sha256,
    by: String(by),
    // The scale, labels and their scores, the pattern: what the judge may answer and what it is worth.
    verdict: canonical(verdict),
  };
}

/**
 * Why `metric` of `task` cannot be compared between runs A and B, or undefined when one judge scored both
 * (or neither run records a judge for it).
 */
export function judgeMismatch(
  a: ReadResults,
  b: ReadResults,
  task: string,
  metric: string,
): string | undefined {
  const left = judgeOf(a, task, metric);
  const right = judgeOf(b, task, metric);
  if (!left && !right) return undefined;
  const refused = `${metric} of ${task} is not compared`;
  if (!left || !right)
    return `${refused}: run ${left ? 'B' : 'A'} records no judge for it, so the two scores may come from different judges`;
  const x = identity(left);
  const y = identity(right);
  const differences: string[] = [];
  if (x.model !== y.model) differences.push(`judge model ${left.model} in run A and ${right.model} in run B`);
  if (x.args !== y.args) differences.push(`judge model_args ${x.args} in run A and ${y.args} in run B`);
  if (x.rubric !== y.rubric)
    differences.push(`rubric sha256 ${x.rubric.slice(0, 12)} in run A and ${y.rubric.slice(0, 12)} in run B`);
  if (x.by !== y.by) differences.push(`verdict by ${x.by} in run A and by ${y.by} in run B`);
  if (x.verdict !== y.verdict) differences.push(`verdict ${x.verdict} in run A and ${y.verdict} in run B`);
  if (!differences.length) return undefined;
  return `${refused}: the runs were judged by different judges (${differences.join('; ')}), so the difference would mix the models with the judges; judge both runs with one judge`;
}

/** The judge's agreement with the labelled slice on one statistic; null when the run has no labelled slice. */
export function judgeAgreement(entry: JudgeEntry, statistic: JudgeAgreementStatistic): JudgeAgreement | null {
  const statistics = entry.statistics;
  if (!statistics) return null;
  const value = (statistics.agreement as Record<string, unknown>)[statistic] as
    | { estimate: number | null; low: number | null; high: number | null }
    | undefined;
  return {
    statistic,
    estimate: value?.estimate ?? null,
    low: value?.low ?? null,
    high: value?.high ?? null,
    labelled: statistics.labelled,
  };
}

/** "κ 0.62 [0.41, 0.80], 30 labelled" — the agreement as the reports print it. */
export function formatJudgeAgreement(agreement: JudgeAgreement | null): string {
  if (!agreement) return 'agreement unknown (no labelled slice, `judge_labels`)';
  const name = {
    cohen_kappa: 'κ',
    weighted_kappa: 'weighted κ',
    krippendorff_alpha: 'α',
    accuracy: 'accuracy',
  }[agreement.statistic];
  if (agreement.estimate === null) return `${name} undefined on the ${agreement.labelled} labelled docs`;
  const interval =
    agreement.low === null || agreement.high === null
      ? ''
      : ` [${agreement.low.toFixed(3)}, ${agreement.high.toFixed(3)}]`;
  return `${name} ${agreement.estimate.toFixed(3)}${interval}, ${agreement.labelled} labelled`;
}
