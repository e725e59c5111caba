/**
 * A judge's statistics against a labelled slice (judge_labels): how well it agrees with the humans
 * (accuracy, Cohen's κ, quadratic-weighted κ for score scales, Krippendorff's α), each with a seeded
 * bootstrap interval over the labelled docs, and the task score three ways: the raw judge mean (with the
 * naive interval that takes the judge for the truth), the labels' mean alone, and the PPI++ estimate that
 * corrects the judge mean with the labelled slice (stats/ppi-mean.ts).
 */
import type { JudgeVerdictSpec } from '../metrics/llm-judge-config.js';
import type { JudgeReport, JudgeStatisticsBlock } from '../results/results-file.js';
import { type AgreementInterval, agreementInterval } from '../stats/agreement-interval.js';
import { cohenKappa } from '../stats/cohen-kappa.js';
import { confusionMatrix } from '../stats/confusion-matrix.js';
import { krippendorffAlpha, type MeasurementLevel } from '../stats/krippendorff-alpha.js';
import { ppiMean } from '../stats/ppi-mean.js';
import { ppiMomentsFromPilot } from '../stats/ppi-sample-size.js';
import type { JudgeLabels } from './judge-labels.js';

export const JUDGE_BOOTSTRAP = { iterations: 1000, seed: 0 } as const;

/** judge score per doc id (docs whose judge call errored are absent). */
export function judgeStatistics(
  scores: ReadonlyMap<number, number>,
  labels: JudgeLabels,
  verdict: JudgeVerdictSpec,
  labelsFile: string,
  confidence = 0.95,
): JudgeStatisticsBlock | undefined {
  const pairs: Array<readonly [number, number]> = [];
  const judgeLabelled: number[] = [];
  const humanLabels: number[] = [];
  const judgeUnlabelled: number[] = [];
  for (const [docId, score] of scores) {
    const label = labels.get(docId);
    if (label === undefined) {
      judgeUnlabelled.push(score);
    } else {
      pairs.push([score, label]);
      judgeLabelled.push(score);
      humanLabels.push(label);
    }
  }
  // Fewer than two labelled docs give no variance, so no interval: no statistics rather than made-up ones.
  if (pairs.length < 2) return undefined;
  const level: MeasurementLevel = verdict.type === 'score' ? 'interval' : 'nominal';
  const options = { ...JUDGE_BOOTSTRAP, confidence };
  const judgeOf = (units: readonly (readonly [number, number])[]) => units.map((pair) => pair[0]);
  const humanOf = (units: readonly (readonly [number, number])[]) => units.map((pair) => pair[1]);
  const accuracy = agreementInterval(
    pairs,
    (units) => units.filter(([judge, human]) => judge === human).length / units.length,
    options,
  );
  const kappa = agreementInterval(pairs, (units) => cohenKappa(judgeOf(units), humanOf(units)), options);
  const weighted =
    verdict.type === 'score'
      ? agreementInterval(
          pairs,
          (units) => cohenKappa(judgeOf(units), humanOf(units), { weights: 'quadratic' }),
          options,
        )
      : undefined;
  const alpha = agreementInterval(
    pairs,
    (units) => krippendorffAlpha([judgeOf(units), humanOf(units)], { level }).alpha,
    options,
  );
  const ppi = ppiMean({ labels: humanLabels, judgeLabelled, judgeUnlabelled }, { confidence });
  // What the power planner's judge-run input plans label counts from (stats/ppi-sample-size.ts).
  const moments = ppiMomentsFromPilot(humanLabels, judgeLabelled, [...judgeLabelled, ...judgeUnlabelled]);
  // Label verdicts: the confusion table, rows the humans' labels and columns the judge's, named by label.
  const confusion =
    verdict.type === 'label' ? labelConfusion(humanLabels, judgeLabelled, verdict.labels) : undefined;
  return {
    labels_file: labelsFile,
    confidence,
    labelled: pairs.length,
    unlabelled: judgeUnlabelled.length,
    bootstrap: { ...JUDGE_BOOTSTRAP },
    agreement: {
      accuracy: agreementBlock(accuracy),
      cohen_kappa: agreementBlock(kappa),
      ...(weighted ? { weighted_kappa: agreementBlock(weighted) } : {}),
      krippendorff_alpha: agreementBlock(alpha),
      krippendorff_level: level,
      ...(confusion ? { confusion } : {}),
    },
    judge_mean: estimateBlock(ppi.naive),
    labels_mean: estimateBlock(ppi.classical),
    ppi: { ...estimateBlock(ppi), lambda: ppi.lambda },
    moments: {
      label_variance: moments.labelVariance,
      judge_variance: moments.judgeVariance,
      covariance: moments.covariance,
      documents: pairs.length + judgeUnlabelled.length,
    },
  };
}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

function agreementBlock(interval: AgreementInterval): JudgeStatisticsBlock['agreement']['accuracy'] {
  return {
    estimate: finiteOrNull(interval.estimate),
    low: finiteOrNull(interval.low),
    high: finiteOrNull(interval.high),
    undefined_replicates: interval.undefinedReplicates,
  };
}

function estimateBlock(value: { estimate: number; standardError: number; low: number; high: number }) {
  return { estimate: value.estimate, standard_error: value.standardError, low: value.low, high: value.high };
}

/**
 * Inter-judge agreement of a jury: Krippendorff's α with the jurors as raters over the docs (a juror with no
 * verdict on a doc is a missing value), at the interval level for scores and nominal otherwise, with the
 * same seeded bootstrap over docs.
 */
export function juryAgreement(
  scoresByDoc: ReadonlyMap<number, ReadonlyArray<number | null>>,
  verdict: JudgeVerdictSpec,
  confidence = 0.95,
): NonNullable<JudgeReport['jury_agreement']> | undefined {
  const units = [...scoresByDoc.values()];
  if (units.length < 2) return undefined;
  const level: MeasurementLevel = verdict.type === 'score' ? 'interval' : 'nominal';
  const alphaOf = (drawn: readonly (readonly (number | null)[])[]) => {
    const jurors = drawn[0]?.length ?? 0;
    const ratings = Array.from({ length: jurors }, (_, juror) => drawn.map((unit) => unit[juror]));
    return krippendorffAlpha(ratings, { level }).alpha;
  };
  const interval = agreementInterval(units, alphaOf, { ...JUDGE_BOOTSTRAP, confidence });
  return { krippendorff_alpha: agreementBlock(interval), krippendorff_level: level, units: units.length };
}

function labelConfusion(human: number[], judge: number[], labels: Record<string, number>) {
  const scores = [...new Set(Object.values(labels))].sort((a, b) => a - b);
  const matrix = confusionMatrix(human, judge, scores);
  const names = scores.map((score) =>
    Object.keys(labels)
      .filter((name) => labels[name] === score)
      .join(' / '),
  );
  return { labels: names, counts: matrix.counts };
}
