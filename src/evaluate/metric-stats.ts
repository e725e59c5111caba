/**
 * Per-run statistics beyond lm-eval's stderr: the clustered stderr of a task that declares
 * `cluster_by: <doc field>`, and the within-question variance of a task with `repeats: K`.
 * Both apply to mean aggregations only: they decompose the variance of a mean of per-doc scores.
 */
import { AssayError } from '../errors.js';
import { clusteredStandardError } from '../stats/clustered-stderr.js';
import { resampledQuestionScores } from '../stats/repeated-samples.js';
import type { ScoredDoc } from './score.js';

export interface ClusteredSummary {
  /** The doc field named by `cluster_by`. */
  by: string;
  clusters: number;
  /** Miller (2024) eq. 4, as published: no C/(C−1) small-sample factor. null with fewer than 2 clusters. */
  stderr: number | null;
  /** CR1: the sandwich estimator times C/(C−1), for readers who want the factor; null below 2 clusters. */
  stderrCr1: number | null;
  /** Why the stderrs are null. */
  note?: string;
  /** Items treated as independent (the lm-eval stderr), for comparison. */
  naiveStderr: number;
}

export interface RepeatsSummary {
  /** Samples per question. */
  k: number;
  questions: number;
  /** Mean over questions of the n−1 variance of a question's K per-repeat scores: E[σ²ᵢ]. */
  withinQuestionVariance: number;
  /** n−1 variance of the per-question mean scores. */
  varianceOfQuestionMeans: number;
  /** Var(question means)/questions: the squared stderr of the task mean with questions as the unit. */
  varianceOfMean: number;
  /**
   * Share of varianceOfMean that is sampling noise, min(1, E[σ²ᵢ/K]/Var(question means)): what more repeats
   * could remove (clipped: see stats/repeated-samples.ts).
   */
  withinShare: number;
}

/**
 * The clustered stderr of a mean over `docs`, clustered by each doc's `clusterKey` (scoring took it from
 * `doc[field]`). A doc without the field is a task-file error (exit 2): silently putting it in an
 * "undefined" cluster would merge unrelated items.
 */
export function clusteredSummary(
  task: string,
  field: string,
  docs: ScoredDoc[],
  values: number[],
): ClusteredSummary | undefined {
  if (values.length < 2) return undefined;
  const clusters = docs.map((scored) => {
    if (scored.clusterKey === undefined) {
      throw new AssayError('bad_data', `cluster_by: doc has no field "${field}"`, {
        location: { task, docId: scored.docId, field: 'cluster_by' },
      });
    }
    return scored.clusterKey;
  });
  const eq4 = clusteredStandardError(values, clusters);
  // With one cluster the data say nothing about between-cluster variance: both are null, with a note.
  const cr1 =
    eq4.clusterCount >= 2
      ? clusteredStandardError(values, clusters, { estimator: 'sandwich', clusterCorrection: true })
      : undefined;
  return {
    by: field,
    clusters: eq4.clusterCount,
    stderr: eq4.standardError,
    stderrCr1: cr1?.standardError ?? null,
    naiveStderr: eq4.naiveStandardError,
    ...(eq4.note ? { note: eq4.note } : {}),
  };
}

/**
 * The within-question variance of a metric over docs scored K times, from the per-repeat scores scoring
 * logged (ScoredDoc.repeatScores). A doc without them for this metric (a value that is not a number, a
 * filter that needs every response at once: see score.ts repeatScoring) leaves the metric without a
 * summary.
 */
export function repeatsSummary(k: number, metric: string, docs: ScoredDoc[]): RepeatsSummary | undefined {
  if (k < 2) return undefined;
  const perQuestion: number[][] = [];
  for (const scored of docs) {
    const scores = scored.repeatScores?.[metric];
    if (scores?.length !== k) return undefined;
    perQuestion.push(scores);
  }
  if (perQuestion.length < 2) return undefined;
  const summary = resampledQuestionScores(perQuestion);
  const questions = perQuestion.length;
  const varianceOfQuestionMeans = summary.standardError ** 2 * questions;
  return {
    k,
    questions,
    withinQuestionVariance: summary.meanWithinVariance,
    varianceOfQuestionMeans,
    varianceOfMean: summary.standardError ** 2,
    withinShare: summary.withinShare,
  };
}
