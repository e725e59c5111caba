/**
 * Backends kept open across several evaluations of the same model: a suite runs each model's task sets
 * as separate runs (one results file each, as `assay run` writes), but a managed vLLM or SGLang server,
 * or a GGUF engine, is started once for all of them. A pooled backend is closed by the pool's owner,
 * never by the evaluation that used it.
 *
 * Each evaluation gets a lease: the backend itself, except that `usage()` (cumulative over the backend's
 * life) reports what was used since the lease began, so each run's results record its own requests,
 * tokens and cost. Latency percentiles cannot be taken apart that way: a lease after the first reports
 * them as null (unknown) rather than the percentiles of every earlier run mixed in.
 */
import { hasUsage, type ModelBackend, type UsageSummary } from '../models/backend.js';
import { type BackendContext, createBackend } from '../models/registry.js';

export interface BackendPool {
  /**
   * The backend for this name, model args and response cache: created by the first call (as `createBackend`
   * does), the same backend for every later call with equal values.
   */
  acquire(name: string, args: Record<string, unknown>, context: BackendContext): Promise<ModelBackend>;
  /** How many backends the pool has created (a suite starts one per model). */
  readonly created: number;
  /** Closes every backend it created; the pool can be used again after. */
  close(): Promise<void>;
}

/** The usage between two cumulative summaries of the same backend. */
export function usageBetween(before: UsageSummary, after: UsageSummary): UsageSummary {
  const requests = after.requests - before.requests;
  const cachedRequests = after.cachedRequests - before.cachedRequests;
  const failedRequests = after.failedRequests - before.failedRequests;
  const seconds = Math.max(0, after.seconds - before.seconds);
  const fresh = before.requests === 0;
  const costUsd = after.costUsd === null ? null : after.costUsd - (before.costUsd ?? 0);
  return {
    requests,
    httpRequests: after.httpRequests - before.httpRequests,
    cachedRequests,
    retries: after.retries - before.retries,
    failedRequests,
    seconds,
    requestsPerSecond: seconds > 0 ? (requests - cachedRequests - failedRequests) / seconds : 0,
    latencyP50Ms: fresh ? after.latencyP50Ms : null,
    latencyP95Ms: fresh ? after.latencyP95Ms : null,
    tokensIn: after.tokensIn - before.tokensIn,
    tokensOut: after.tokensOut - before.tokensOut,
    ...(after.reasoningTokens === undefined
      ? {}
      : { reasoningTokens: after.reasoningTokens - (before.reasoningTokens ?? 0) }),
    costUsd,
  };
}

/** The backend as one evaluation sees it: closing is the pool's business, usage counts from now. */
function lease(backend: ModelBackend): ModelBackend {
  const start = hasUsage(backend) ? backend.usage() : undefined;
  return new Proxy(backend, {
    get(target, property) {
      if (property === 'close') return undefined;
      if (property === 'usage' && start && hasUsage(target)) return () => usageBetween(start, target.usage());
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function createBackendPool(): BackendPool {
  const open = new Map<string, Promise<ModelBackend>>();
  let created = 0;
  return {
    async acquire(name, args, context) {
      const key = JSON.stringify([name, args, context.cachePath ?? null]);
      let backend = open.get(key);
      if (!backend) {
        created++;
        backend = createBackend(name, args, context);
        open.set(key, backend);
        // A backend that failed to start is not kept: the next call tries again.
        backend.catch(() => open.delete(key));
      }
      return lease(await backend);
    },
    get created() {
      return created;
    },
    async close() {
      const backends = [...open.values()];
      open.clear();
      const settled = await Promise.allSettled(backends);
      const closing = settled.flatMap((entry) =>
        entry.status === 'fulfilled' && entry.value.close ? [entry.value.close()] : [],
      );
      const failures = (await Promise.allSettled(closing)).filter((entry) => entry.status === 'rejected');
      if (failures.length > 0) throw (failures[0] as PromiseRejectedResult).reason;
    },
  };
}
