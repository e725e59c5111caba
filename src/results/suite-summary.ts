/**
 * `suites/NAME/summary.json`, what `assay suite summarize` writes: per model × task the primary metric
 * with its interval and n, per scenario group the macro averages (like metrics only), HELM's mean win
 * rate with an interval, rank intervals, the paired head-to-head matrices and the minimum detectable
 * difference. A versioned contract: the viewer and any script read it through this schema
 * (read-suite-summary.ts). Zod only: the viewer's web app imports its types.
 */
import { z } from 'zod';

export const SUITE_SUMMARY_SCHEMA = 'assay.suite-summary/v1';
/** The summary's file name in the suite's folder. */
export const SUITE_SUMMARY_FILE = 'summary.json';

const interval = z.tuple([z.number(), z.number()]);
const rank = z.object({ point: z.number().int(), best: z.number().int(), worst: z.number().int() });

export const summaryCellSchema = z.object({
  model: z.string(),
  task: z.string(),
  task_set: z.string(),
  /** ok; partial (a limit or samples: part of the task); errored (some samples failed); failed or missing (no value). */
  status: z.enum(['ok', 'partial', 'errored', 'failed', 'missing']),
  metric: z.string(),
  value: z.number().nullable(),
  /** The run's own 95% interval of the metric (results.json `<metric>_ci`). */
  ci: interval.nullable(),
  n: z.number().int().nullable(),
  errored_samples: z.number().int(),
  latency_p50_ms: z.number().nullable(),
  /** The cell's cost (the whole task set's run), when its backend reports one. */
  cost_usd: z.number().nullable(),
  results_file: z.string().nullable(),
  /** Why a cell has no value. */
  reason: z.string().nullable(),
});

export const pairEntrySchema = z.object({
  a: z.string(),
  b: z.string(),
  /** Docs both models scored. */
  n: z.number().int(),
  /** mean B − mean A on those docs. */
  difference: z.number(),
  ci: interval,
  p_value: z.number(),
  /** Holm-adjusted over every pair of this matrix. */
  p_holm: z.number(),
  test: z.string(),
});

export const headToHeadSchema = z.object({
  scope: z.enum(['task', 'group']),
  name: z.string(),
  metric: z.string(),
  higher_is_better: z.boolean(),
  pairs: z.array(pairEntrySchema),
  /** Why there is no matrix (fewer than two models, unlike metrics). */
  reason: z.string().nullable(),
});

export const taskSummarySchema = z.object({
  task: z.string(),
  task_set: z.string(),
  metric: z.string(),
  filter: z.string(),
  higher_is_better: z.boolean(),
  /** Docs scored by every model that ran the task: what its rank intervals use. */
  shared_n: z.number().int(),
  /** Smallest difference between two models this n detects at α = 0.05 with power 0.8; null without two models. */
  minimum_detectable_difference: z.number().nullable(),
  /** Rank by the value on the shared docs; best–worst: the simultaneous 95% rank interval. */
  ranks: z.array(z.object({ model: z.string(), value: z.number(), rank })),
});

export const groupSummarySchema = z.object({
  group: z.string(),
  tasks: z.array(z.string()),
  /** The metric every task of the group reports; null when they differ (no macro average). */
  metric: z.string().nullable(),
  /** Why the group has no macro average or rank intervals, when it has none. */
  macro_average_reason: z.string().nullable(),
  models: z.array(
    z.object({
      model: z.string(),
      macro_average: z.object({ value: z.number(), ci: interval.nullable() }).nullable(),
      /** HELM's mean win rate over the group's tasks, and the simultaneous 95% interval of it. */
      mean_win_rate: z.number().nullable(),
      win_rate_interval: interval.nullable(),
      rank: rank.nullable(),
    }),
  ),
});

export const suiteSummarySchema = z.object({
  schema: z.literal(SUITE_SUMMARY_SCHEMA),
  suite: z.string(),
  version: z.string(),
  suite_sha256: z.string(),
  confidence: z.number(),
  bootstrap_iterations: z.number().int(),
  seed: z.number().int(),
  models: z.array(
    z.object({
      name: z.string(),
      model: z.string(),
      cells_done: z.number().int(),
      cells_failed: z.number().int(),
      cells_missing: z.number().int(),
      cost_usd: z.number().nullable(),
      seconds: z.number().nullable(),
    }),
  ),
  cells: z.array(summaryCellSchema),
  tasks: z.array(taskSummarySchema),
  groups: z.array(groupSummarySchema),
  head_to_head: z.array(headToHeadSchema),
});

export type SuiteSummary = z.output<typeof suiteSummarySchema>;
export type SummaryCell = z.output<typeof summaryCellSchema>;
export type TaskSummary = z.output<typeof taskSummarySchema>;
export type GroupSummary = z.output<typeof groupSummarySchema>;
export type HeadToHead = z.output<typeof headToHeadSchema>;
export type PairEntry = z.output<typeof pairEntrySchema>;
