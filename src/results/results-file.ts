/**
 * The writer's type of results_<time>.json: lm-eval's keys in lm-eval's order, then assay's additions.
 * Readers parse with resultsFileSchema (schema.ts); schema-guards.ts keeps this type readable by it.
 */
import type { RequestLatency } from '../evaluate/execute.js';
import type { PerplexityReport } from '../evaluate/perplexity/types.js';
import type { TaskLatency } from '../evaluate/request-timing.js';
import type { Interval } from '../evaluate/uncertainty.js';
import type { UsageSummary } from '../models/backend.js';
import type { Manifest } from './manifest.js';

export type ResultsEntry = Record<string, unknown>;

/** results_<time>.json: lm-eval's keys in lm-eval's order, then assay's additions. */
export interface ResultsFile {
  results: Record<string, ResultsEntry>;
  groups?: Record<string, ResultsEntry>;
  group_subtasks: Record<string, string[]>;
  configs: Record<string, Record<string, unknown>>;
  versions: Record<string, number | string | null>;
  'n-shot': Record<string, number>;
  higher_is_better: Record<string, Record<string, boolean>>;
  'n-samples': Record<string, { original: number; effective: number }>;
  config: Record<string, unknown>;
  git_hash: string | null;
  date: number;
  task_hashes: Record<string, string>;
  model_source: string;
  model_name: string;
  model_name_sanitized: string;
  system_instruction: string | null;
  system_instruction_sha: string | null;
  fewshot_as_multiturn: boolean;
  chat_template: string | null;
  chat_template_sha: string | null;
  total_evaluation_time_seconds: string;
  assay_schema: string;
  assay_version: string;
  partial: boolean;
  /**
   * Timing, not scores. Per request type: wall seconds and count; `usage` from served backends
   * (requests/s, p50/p95, tokens, cost); `by_task`: each task's own requests (evaluate/request-timing.ts).
   */
  request_stats: RequestLatency & { usage?: UsageSummary; by_task?: Record<string, TaskLatency> };
  manifest: Manifest;
  /** task or group → `metric,filter` → how its stderr and interval were computed (docs/statistics.md). */
  stats: Record<string, Record<string, MetricStats>>;
  /** loglikelihood_rolling task → perplexity mode, parameters, tokenizer and the counts behind each metric. */
  perplexity?: Record<string, PerplexityReport>;
  /** Errored samples: docs a failed request or a failed metric left out of every metric. */
  errors: ErrorsBlock;
  /** Present when the run had a latency cap (`--max_latency_s`): the docs whose requests went over it. */
  timeouts?: TimeoutsBlock;
  /** Present when a reasoning model answered (think_end_token, or a server's reasoning field). */
  reasoning?: ReasoningBlock;
}

/**
 * Per task, the generations of a reasoning model and how many hit max_gen_toks inside the thinking
 * section (answer empty, or under the think_end_token rule the thinking text itself); the sample log marks
 * each with `reasoning[i][j].truncated`.
 */
export interface ReasoningBlock {
  generations: number;
  truncated_in_thinking: number;
  by_task: Record<string, { generations: number; truncated_in_thinking: number }>;
}

/**
 * A capped run's timed-out samples: docs with a request not answered within `max_latency_s` seconds.
 * They are neither wrong nor errors and count in no metric; each task's entry has its `timeouts` count.
 */
export interface TimeoutsBlock {
  max_latency_s: number;
  samples: number;
  by_task: Record<string, number>;
}

/**
 * The run's errored samples. Every task (and group) with any also says so in its own entry:
 * `partial: true`, `errors`, `answered` (the docs its metrics are computed over) and a `note`.
 */
export interface ErrorsBlock {
  samples: number;
  by_task: Record<string, number>;
  /** Absent when the causes are not known (a merged run: sample logs keep the messages only). */
  by_cause?: Record<string, number>;
  first?: { task: string; doc_id: number; message: string } | null;
}

/** The statistics behind one `metric,filter` of results.json, beyond lm-eval's value and stderr. */
export interface MetricStats {
  n: number;
  ci_level: number | null;
  /** wilson (0/1 means), t (other means), percentile-bootstrap, normal (group means: value ± z·stderr). */
  ci_method: Interval['method'] | null;
  clustered?: {
    by: string;
    clusters: number;
    /** null with fewer than 2 clusters, with `note` saying why. */
    stderr: number | null;
    stderr_cr1: number | null;
    naive_stderr: number;
    note?: string;
    estimator: 'miller-2024-eq4';
    cluster_correction_applied: false;
  };
  /**
   * A custom aggregation's bootstrap (assay's own: lm-eval bootstraps no function, and writes a
   * `!function` aggregation's `_stderr` as "N/A"). `stderr` is null when a resample could not be
   * aggregated (the function raised on it, or gave no finite number), with the reason in `note`.
   */
  bootstrap?: { stderr: number | null; iterations: number; note?: string };
  repeats?: {
    k: number;
    questions: number;
    within_question_variance: number;
    variance_of_question_means: number;
    variance_of_mean: number;
    within_share: number | null;
  };
}
