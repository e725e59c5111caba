/**
 * The merged results.json: the scores recomputed (by buildResults, as a run lays them out), everything
 * else from shard 0 without its shard marks, and timing merged (earliest start, summed evaluation
 * seconds and request counts). buildResults reads a RunRecord, rebuilt here from shard 0's file.
 */
import type { GroupResult, TaskResult } from '../../evaluate/aggregate.js';
import type { TaskPlan } from '../../evaluate/plan.js';
import type { TaskLatency } from '../../evaluate/request-timing.js';
import type { RunRecord } from '../../evaluate/run-record.js';
import type { ModelInfo } from '../../models/backend.js';
import type { Manifest, ResultsFile } from '../../results/results-file.js';
import type { ShardResults } from '../../results/schema.js';
import type { TaskNode } from '../../tasks/task.js';
import { buildResults } from '../build.js';
import { reasoningBlock } from '../run-output.js';
import { COMPUTED, type ShardRun } from './load-shards.js';

/** What one unsharded run with the shards' settings would have recorded about itself. */
export function recordFromResults(results: ShardResults, raw: Record<string, unknown>): RunRecord {
  const { config, manifest } = results;
  // The shard schema checked the fields read here; these two blocks are copied as assay wrote them.
  const written = raw.manifest as Pick<Manifest, 'code_execution' | 'python'>;
  const { sampling, ...seeds } = manifest.seeds;
  return {
    model: {
      source: results.model_source,
      name: results.model_name,
      args: config.model_args,
      batchSize: config.batch_size,
      info: manifest.model.info as ModelInfo,
      // request_stats (usage included) is merged from every shard instead.
      usage: null,
    },
    chatTemplate: {
      applied: manifest.chat_template.applied,
      name: manifest.chat_template.name,
      text: results.chat_template,
    },
    systemInstruction: results.system_instruction,
    fewshotAsMultiturn: results.fewshot_as_multiturn,
    seeds,
    samplingSeed: sampling,
    limit: config.limit,
    samples: manifest.limit.samples,
    bootstrapIters: config.bootstrap_iters,
    genKwargs: config.gen_kwargs ?? {},
    useCache: config.use_cache,
    mcMode: config.mc_mode === 'generate' ? 'generate' : null,
    // The merged run is the whole run.
    shard: null,
    codeExecution: written.code_execution ?? null,
    python: written.python ?? null,
    maxLatencyS: results.timeouts?.max_latency_s ?? null,
  };
}

/** A shard's results without its shard marks: what a single unsharded run writes. */
function withoutShard(raw: Record<string, unknown>, limited: boolean): Record<string, unknown> {
  const { shard: _configShard, ...config } = raw.config as Record<string, unknown>;
  const { shard: _manifestShard, ...manifest } = raw.manifest as Record<string, unknown>;
  return { ...raw, config, manifest, partial: limited };
}

export function assembleResults(
  runs: ShardRun[],
  computed: {
    nodes: TaskNode[];
    plans: TaskPlan[];
    taskResults: TaskResult[];
    groupResults: GroupResult[];
    taskHashes: Record<string, string>;
  },
): ResultsFile {
  const first = runs[0];
  const single = withoutShard(first.raw, first.results.manifest.limit.used);
  // buildResults lays out the score sections (tree order, aliases, stats) exactly as a run does; the
  // settings it also writes are shard 0's, copied below as that file holds them.
  const built = buildResults({
    ...computed,
    record: recordFromResults(first.results, first.raw),
    latency: {},
    startDate: 0,
    seconds: 0,
  });
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(built)) {
    merged[key] = COMPUTED.has(key) ? built[key as keyof ResultsFile] : single[key];
  }
  merged.date = Math.min(...runs.map((run) => run.results.date));
  merged.total_evaluation_time_seconds = String(
    runs.reduce((sum, run) => sum + Number(run.results.total_evaluation_time_seconds), 0),
  );
  merged.request_stats = mergeRequestStats(runs.map((run) => run.results.request_stats));
  // Each shard counted its own slice of the docs.
  const reasoning = runs.map((run) => run.results.reasoning).filter((block) => block !== undefined);
  if (reasoning.length) {
    const byTask: Record<string, { generations: number; truncated: number }> = {};
    for (const block of reasoning)
      for (const [task, count] of Object.entries(block.by_task)) {
        const sum = byTask[task] ?? { generations: 0, truncated: 0 };
        byTask[task] = {
          generations: sum.generations + count.generations,
          truncated: sum.truncated + count.truncated_in_thinking,
        };
      }
    merged.reasoning = reasoningBlock(byTask);
  }
  // The merged run is partial when it was limited, or when docs errored or timed out in any shard; the
  // causes are the shards' (sample logs keep only the messages).
  merged.partial =
    (single.partial as boolean) || built.errors.samples > 0 || (built.timeouts?.samples ?? 0) > 0;
  const causes = runs.map((run) => run.results.errors.by_cause);
  if (built.errors.samples > 0 && causes.every((byCause) => byCause !== undefined)) {
    const byCause: Record<string, number> = {};
    for (const shard of causes)
      for (const [cause, count] of Object.entries(shard ?? {}))
        byCause[cause] = (byCause[cause] ?? 0) + count;
    merged.errors = { ...built.errors, by_cause: byCause };
  }
  // Every key is either built (typed) or shard 0's value of the same key, which assay wrote under the
  // results version the contract checked.
  return merged as unknown as ResultsFile;
}

type RequestStats = ShardResults['request_stats'];

/**
 * Counts add up, and so do the means' totals; latency percentiles of the union cannot be recovered from
 * per-shard percentiles, so they are null (timing fields, outside the identity with a single run).
 */
function mergeRequestStats(all: RequestStats[]): ResultsFile['request_stats'] {
  const out: ResultsFile['request_stats'] = {};
  for (const stats of all) {
    for (const type of ['loglikelihood', 'loglikelihood_rolling', 'generate_until'] as const) {
      const entry = stats[type];
      if (!entry) continue;
      const sum = out[type] ?? { seconds: 0, requests: 0 };
      out[type] = { seconds: sum.seconds + entry.seconds, requests: sum.requests + entry.requests };
    }
  }
  const usages = all.map((stats) => stats.usage).filter((usage) => usage !== undefined);
  if (usages.length) {
    const total = (pick: (usage: (typeof usages)[number]) => number) =>
      usages.reduce((sum, usage) => sum + pick(usage), 0);
    const seconds = total((usage) => usage.seconds);
    const requests = total((usage) => usage.requests);
    out.usage = {
      requests,
      httpRequests: total((usage) => usage.httpRequests),
      cachedRequests: total((usage) => usage.cachedRequests),
      retries: total((usage) => usage.retries),
      failedRequests: total((usage) => usage.failedRequests),
      seconds,
      requestsPerSecond: seconds > 0 ? requests / seconds : 0,
      latencyP50Ms: null,
      latencyP95Ms: null,
      tokensIn: total((usage) => usage.tokensIn),
      tokensOut: total((usage) => usage.tokensOut),
      ...(usages.some((usage) => typeof usage.reasoningTokens === 'number')
        ? { reasoningTokens: total((usage) => usage.reasoningTokens ?? 0) }
        : {}),
      costUsd: usages.every((usage) => usage.costUsd === null) ? null : total((usage) => usage.costUsd ?? 0),
    };
  }
  const byTask: Record<string, TaskLatency> = {};
  for (const stats of all) {
    for (const [task, latency] of Object.entries(stats.by_task ?? {})) {
      const sum = byTask[task] ?? { requests: 0, mean_ms: 0, p50_ms: null, p95_ms: null };
      const totalMs = (sum.mean_ms ?? 0) * sum.requests + (latency.mean_ms ?? 0) * latency.requests;
      const requests = sum.requests + latency.requests;
      byTask[task] = { requests, mean_ms: requests ? totalMs / requests : null, p50_ms: null, p95_ms: null };
    }
  }
  if (Object.keys(byTask).length) out.by_task = byTask;
  return out;
}
