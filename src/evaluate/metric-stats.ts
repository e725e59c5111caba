/**
 * Per-run statistics beyond lm-eval's stderr: the clustered stderr of a task that declares
 * `cluster_by: <doc field>`, and the within-question variance of a task with `repeats: K`.
 * Both apply to mean aggregations only: they decompose the variance of a mean of per-doc scores.
 */
import { AssayError } from '../errors.js';
import { buildFilterPipeline, defaultFilterPipeline } from '../metrics/filters/registry.js';
import { clusteredStandardError } from '../stats/clustered-stderr.js';
import { resampledQuestionScores } from '../stats/repeated-samples.js';
import type { PlannedDoc, TaskPlan } from './plan.js';
import { processResults, type ScoredDoc } from './score.js';

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
 * The clustered stderr of a mean over `docs`, clustered by `doc[field]`. A doc without the field is a
 * task-file error (exit 2): silently putting it in an "undefined" cluster would merge unrelated items.
 */
export function clusteredSummary(
  plan: TaskPlan,
  field: string,
  docs: ScoredDoc[],
  values: number[],
): ClusteredSummary | undefined {
  if (values.length < 2) return undefined;
  const byId = new Map(plan.docs.map((planned) => [planned.docId, planned]));
  const clusters = docs.map((scored) => {
    const doc = byId.get(scored.docId)?.doc as Record<string, unknown> | undefined;
    const value = doc?.[field];
    if (value === undefined || value === null) {
      throw new AssayError('bad_data', `cluster_by: doc has no field "${field}"`, {
        location: { task: plan.task.name, docId: scored.docId, field: 'cluster_by' },
      });
    }
    return typeof value === 'number' ? value : typeof value === 'string' ? value : JSON.stringify(value);
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
 * Scores each of the K repeats of every doc on its own (the filter pipeline sees that one response) and
 * summarizes the within-question variance. Filters that need several responses (majority_vote over K,
 * take_first_k) cannot score a repeat alone; then there is no summary for that filter.
 */
export function repeatsSummary(
  plan: TaskPlan,
  filter: string,
  metric: string,
  docs: ScoredDoc[],
): RepeatsSummary | undefined {
  const k = plan.task.config.repeats ?? 1;
  if (k < 2) return undefined;
  const pipelines = plan.task.config.filter_list?.length
    ? plan.task.config.filter_list.map((config) => buildFilterPipeline(config))
    : [defaultFilterPipeline()];
  const pipeline = pipelines.find((candidate) => candidate.name === filter);
  if (!pipeline) return undefined;
  const byId = new Map(plan.docs.map((planned) => [planned.docId, planned]));
  const perQuestion: number[][] = [];
  for (const scored of docs) {
    const planned = byId.get(scored.docId) as PlannedDoc;
    const scores: number[] = [];
    for (let repeat = 0; repeat < k; repeat++) {
      let value: unknown;
      try {
        const filtered = planned.instances.map((instance) =>
          pipeline.apply([instance.resps[repeat]], planned.doc),
        );
        value = processResults(plan, planned, filtered)[metric];
      } catch {
        return undefined;
      }
      const score = typeof value === 'boolean' ? Number(value) : value;
      if (typeof score !== 'number' || !Number.isFinite(score)) return undefined;
      scores.push(score);
    }
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
