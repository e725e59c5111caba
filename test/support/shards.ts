/**
 * What the sharding tests share: a child environment with no scheduler's variables (so a step names its own),
 * and results.json without the fields a merge may change (docs/cluster.md: timing, and the checkout's commit).
 */

// biome-ignore lint/suspicious/noExplicitAny: results.json read as plain JSON, fields deleted by name
export type Json = Record<string, any>;

/** No scheduler but the one a step names: these variables removed from the child's environment. */
export const NO_SCHEDULER: Record<string, undefined> = {
  SLURM_ARRAY_TASK_ID: undefined,
  SLURM_ARRAY_TASK_COUNT: undefined,
  SLURM_ARRAY_TASK_MIN: undefined,
  SLURM_ARRAY_TASK_MAX: undefined,
  SLURM_ARRAY_TASK_STEP: undefined,
  JOB_COMPLETION_INDEX: undefined,
  ASSAY_SHARD_COUNT: undefined,
  RANK: undefined,
  WORLD_SIZE: undefined,
};

/** A task's (or the run's) request times, which are timing: the counts beside them must still agree. */
export function withoutLatencyTimes(latency: Json | null): void {
  if (!latency) return;
  delete latency.mean_ms;
  delete latency.p50_ms;
  delete latency.p95_ms;
}

/**
 * The fields allowed to differ between a merged run and an unsharded one: timing (start date, evaluation
 * seconds, request wall times and latency percentiles, perplexity seconds) and, because other commits can
 * land between two runs of a suite, the checkout's git describe / commit.
 */
export function withoutTiming(results: Json): Json {
  const copy = structuredClone(results);
  delete copy.date;
  delete copy.total_evaluation_time_seconds;
  delete copy.git_hash;
  delete copy.manifest.assay.git_commit;
  const stats = copy.request_stats;
  for (const type of ['loglikelihood', 'loglikelihood_rolling', 'generate_until'])
    if (stats[type]) delete stats[type].seconds;
  if (stats.usage)
    for (const key of ['seconds', 'requestsPerSecond', 'latencyP50Ms', 'latencyP95Ms', 'httpRequests'])
      delete stats.usage[key];
  for (const report of Object.values(copy.perplexity ?? {}) as Json[]) delete report.seconds;
  for (const latency of Object.values(stats.by_task ?? {}) as Json[]) withoutLatencyTimes(latency);
  return copy;
}
