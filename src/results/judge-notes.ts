/**
 * What the console says under the results table about each `llm_judge` metric: who judged, and how far its
 * score can be trusted. With human labels (`judge_labels`), the judge's agreement with them (Cohen's κ,
 * Krippendorff's α) and the PPI++-corrected estimate beside the raw judge mean; without, that the score takes
 * the judge's word for the truth. A judge mean alone looks like any other score (a demo judge that answers 1
 * on a 1–5 rubric prints 1.000 ± 0.000), so the line that qualifies it is printed where the number is.
 */
import type { JudgeReport } from './results-file.js';

type Agreement = { estimate: number | null; low: number | null; high: number | null };
type Estimate = { estimate: number; low: number; high: number };

const number = (value: number | null): string => (value === null ? 'undefined' : value.toFixed(3));

const interval = (value: Agreement | Estimate): string =>
  value.low === null || value.high === null ? '' : ` [${number(value.low)}, ${number(value.high)}]`;

function judgeName(report: JudgeReport): string {
  return report.jury ? `a jury of ${report.jury.length} (${report.aggregate ?? 'mean'})` : report.model;
}

function judgeLine(task: string, report: JudgeReport): string {
  const parts = [`${task} ${report.metric}: judged by ${judgeName(report)}`];
  if (report.errored > 0) parts.push(`${report.errored} samples errored (their verdicts count in no metric)`);
  if (report.pairwise) {
    const { consistency, win_rate } = report.pairwise;
    parts.push(
      `win rate ${number(win_rate)}, the same verdict in both orders on ${number(consistency)} of the pairs`,
    );
  }
  const statistics = report.statistics;
  if (!statistics) {
    parts.push('no human labels (judge_labels): the score takes the judge for the truth');
    return parts.join('; ');
  }
  const { agreement } = statistics;
  parts.push(
    `against ${statistics.labelled} human labels: Cohen's κ ${number(agreement.cohen_kappa.estimate)}${interval(agreement.cohen_kappa)}, ` +
      `Krippendorff's α ${number(agreement.krippendorff_alpha.estimate)}${interval(agreement.krippendorff_alpha)}`,
  );
  parts.push(
    `PPI++ estimate ${number(statistics.ppi.estimate)}${interval(statistics.ppi)} (λ ${number(statistics.ppi.lambda)}) ` +
      `beside the raw judge mean ${number(statistics.judge_mean.estimate)}${interval(statistics.judge_mean)}`,
  );
  return parts.join('; ');
}

/** One line per judged metric of the run, prefixed `judge: `; none for a run without judges. */
export function judgeNotes(source: { judges?: Record<string, JudgeReport[]> }): string[] {
  return Object.entries(source.judges ?? {}).flatMap(([task, reports]) =>
    reports.map((report) => `judge: ${judgeLine(task, report)}.`),
  );
}
