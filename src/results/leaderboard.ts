import type { TaskResult } from '../evaluate/aggregate.js';
import type { RequestLatency } from '../evaluate/execute.js';
import type { TaskPlan } from '../evaluate/plan.js';
import { taskContentSha256 } from '../tasks/source-hash.js';
import type { SampleLine } from './samples.js';

export const LEADERBOARD_SCHEMA = 'assay.leaderboard/v1';

export interface LeaderboardTask {
  metric: string;
  filter: string;
  score: number;
  n: number;
  /** Samples scoring exactly 1 on a 0/1 metric; null for continuous metrics. */
  correct: number | null;
  /** Mean wall time per request of the request types this task used, in milliseconds. */
  mean_latency_ms: number | null;
  sha256: string;
  /** Set when docs errored: the score covers only the answered docs. */
  partial?: true;
  errors?: number;
  examples?: Array<{ doc_id: number; prediction: unknown; target: string; score: unknown }>;
}

export interface Leaderboard {
  schema: typeof LEADERBOARD_SCHEMA;
  model: string;
  date: number;
  /** A --limit / --samples subset, or a run with errored samples (see each task's `errors`). */
  partial: boolean;
  /** Errored samples in all tasks. */
  errors: number;
  tasks: Record<string, LeaderboardTask>;
  /** Mean of the task scores. */
  overall: number | null;
}

/** A compact per-task summary: the first metric of each task under its first filter is its score. */
export function buildLeaderboard(input: {
  model: string;
  date: number;
  partial: boolean;
  plans: TaskPlan[];
  taskResults: TaskResult[];
  samples: Record<string, SampleLine[]>;
  latency: RequestLatency;
  includePerExample: boolean;
  /** Task → errored samples (results.json `errors.by_task`). */
  errorsByTask: Record<string, number>;
  /** Task → content sha256 as the manifest records it (a merged run's plans hold no data files). */
  taskSha256?: Record<string, string>;
}): Leaderboard {
  const tasks: Record<string, LeaderboardTask> = {};
  const plans = new Map(input.plans.map((plan) => [plan.task.name, plan]));
  for (const result of input.taskResults) {
    const primary = result.metrics[0];
    const plan = plans.get(result.name);
    if (!primary || !plan) continue;
    const lines = (input.samples[result.name] ?? []).filter((line) => line.filter === primary.filter);
    const values = lines.map((line) => line[primary.metric]);
    const binary =
      values.length > 0 && values.every((value) => value === 0 || value === 1 || typeof value === 'boolean');
    const type =
      plan.task.config.output_type === 'multiple_choice' ? 'loglikelihood' : plan.task.config.output_type;
    const stats = input.latency[type as keyof RequestLatency];
    const entry: LeaderboardTask = {
      metric: primary.metric,
      filter: primary.filter,
      score: primary.value,
      n: primary.n,
      correct: binary ? values.filter((value) => value === 1 || value === true).length : null,
      mean_latency_ms: stats && stats.requests > 0 ? (stats.seconds * 1000) / stats.requests : null,
      sha256: input.taskSha256?.[result.name] ?? taskContentSha256(plan.task),
    };
    const errors = input.errorsByTask[result.name] ?? 0;
    if (errors > 0) Object.assign(entry, { partial: true, errors });
    if (input.includePerExample) {
      entry.examples = lines.map((line) => ({
        doc_id: line.doc_id,
        prediction: line.filtered_resps.length === 1 ? line.filtered_resps[0] : line.filtered_resps,
        target: line.target,
        score: line[primary.metric],
      }));
    }
    tasks[result.name] = entry;
  }
  const scores = Object.values(tasks).map((task) => task.score);
  return {
    schema: LEADERBOARD_SCHEMA,
    model: input.model,
    date: input.date,
    partial: input.partial,
    errors: Object.values(input.errorsByTask).reduce((sum, count) => sum + count, 0),
    tasks,
    overall: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
  };
}
