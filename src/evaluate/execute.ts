import { AssayError } from '../errors.js';
import type { RunListener } from '../events.js';
import {
  type Answer,
  type CallOptions,
  type GeneratedTokens,
  type GenerateRequest,
  type Generation,
  type GenerationThinking,
  hasGenerationLogprobs,
  isRequestError,
  type LoglikelihoodResult,
  type ModelBackend,
  type RequestError,
} from '../models/backend.js';
import type { RequestLatency } from '../results/results-file.js';
import { isLatencyTimeout, type LatencyTimeout, sendCapped } from './latency-cap.js';
import { answerClock } from './request-timing.js';
import type { Instance, RequestType, Response } from './requests.js';
import { NO_ANSWER, type Responses, type TaskResponses } from './responses.js';
import type { ResolvedRunOptions } from './run-options.js';

/** Per request type: wall seconds and requests (the results contract's `request_stats`). */
export type { RequestLatency };

/** A distinct rolling or generation request (log-likelihood requests are batched flat: Batch). */
interface UniqueRequest {
  /** Identical requests share one. */
  key: string;
  instances: Instance[];
  /** How many answers this request needs: its repeats when sampling, else one shared by every repeat. */
  copies: number;
}

/** Sampled generations must not be shared between repeats; everything else is deterministic. */
function isDeterministic(instance: Instance): boolean {
  return instance.args.type !== 'generate_until' || !instance.args.generation.doSample;
}

function requestKey(instance: Instance): string {
  const { args } = instance;
  switch (args.type) {
    case 'loglikelihood':
      return `${args.context}\u0000${args.continuation}`;
    case 'loglikelihood_rolling':
      return args.text;
    case 'generate_until':
      return `${args.context}\u0000${JSON.stringify(args.generation)}`;
  }
}

function requestLength(instance: Instance): number {
  const { args } = instance;
  switch (args.type) {
    case 'loglikelihood':
      return args.context.length + args.continuation.length;
    case 'loglikelihood_rolling':
      return args.text.length;
    case 'generate_until':
      return args.context.length;
  }
}

/** The per-request latency cap in seconds (latency-cap.ts); absent: no cap, backends batch freely. */
export type ExecuteOptions = Pick<ResolvedRunOptions, 'maxLatencyS'>;

/** What execute returns: every request's answers, and the wall time of each request type. */
export interface Executed {
  responses: Responses;
  latency: RequestLatency;
}

/**
 * Sends every request to the backend: identical requests once, ordered for throughput (longest first,
 * so memory peaks early and shared prefixes sit next to each other, as lm-eval's Collator orders them),
 * and returns each request's answers by task and request id. The requests given are not written to.
 */
export async function executeRequests(
  backend: ModelBackend,
  requests: readonly Instance[],
  listener?: RunListener,
  options: ExecuteOptions = {},
): Promise<Executed> {
  const latency: RequestLatency = {};
  const responses = emptyResponses(requests);
  // The last task's answers: requests of one task often come in runs, so this spares map lookups.
  let lastTask: string | undefined;
  let lastAnswers: TaskResponses = { resps: [] };
  const answersFor = (task: string): TaskResponses => {
    if (task !== lastTask) {
      lastTask = task;
      lastAnswers = responses.get(task) as TaskResponses;
    }
    return lastAnswers;
  };
  const byType = new Map<RequestType, Instance[]>();
  for (let index = 0; index < requests.length; index++) {
    const instance = requests[index];
    const list = byType.get(instance.args.type);
    if (list) list.push(instance);
    else byType.set(instance.args.type, [instance]);
  }
  for (const type of ['loglikelihood', 'loglikelihood_rolling', 'generate_until'] as const) {
    const list = byType.get(type);
    if (!list?.length) continue;
    checkCapability(backend, type);
    const batch = type === 'loglikelihood' ? loglikelihoodBatch(list) : uniqueBatch(list);
    const { total } = batch;
    if (listener) {
      const tasks = [...new Set(list.map((instance) => instance.task))];
      listener({ type: 'request-batch-start', requestType: type, total: list.length, unique: total, tasks });
    }
    const started = performance.now();
    const clock = answerClock(total);
    const progress = (done: number) => {
      clock.progress(done);
      listener?.({ type: 'request-progress', requestType: type, done, total });
    };
    const sent = await send(backend, type, batch, progress, options.maxLatencyS);
    const { answers, logprobs, thinking } = sent;
    const clocked = clock.finish();
    const times = sent.timesMs ?? clocked;
    if (batch.kind === 'grouped') {
      // Log-likelihood answers: two numbers each, written into the typed arrays of every request that asked.
      const { members, starts } = batch;
      for (let offset = 0; offset < total; offset++) {
        const answer = answers[offset];
        const latencyMs = times[offset];
        const compact = isLoglikelihoodAnswer(answer) ? answer : undefined;
        for (let position = starts[offset]; position < starts[offset + 1]; position++) {
          const { repeats, id, task } = members[position];
          const answered = answersFor(task);
          if (compact) {
            answered.loglikelihood ??= compactAnswers(answered.resps.length);
            answered.loglikelihood.logprob[id] = compact.logprob;
            answered.loglikelihood.isGreedy[id] = compact.isGreedy ? 1 : 0;
          } else answered.resps[id] = repeats === 1 ? [answer] : new Array(repeats).fill(answer);
          (answered.latencyMs as Float64Array)[id] = latencyMs;
        }
      }
      const seconds = (performance.now() - started) / 1000;
      latency[type] = { seconds, requests: total };
      listener?.({ type: 'request-batch-end', requestType: type, total, seconds });
      continue;
    }
    const { unique } = batch;
    let offset = 0;
    for (const request of unique) {
      const { copies } = request;
      // One answer shared by every repeat (the usual case) needs no slices: they allocate per request.
      if (copies === 1) {
        const answer = answers[offset];
        const logprob = logprobs?.[offset];
        const thought = thinking?.[offset];
        const latencyMs = times[offset];
        for (const instance of request.instances) {
          const { repeats, id } = instance;
          const answered = answersFor(instance.task);
          answered.resps[id] = repeats === 1 ? [answer] : new Array(repeats).fill(answer);
          (answered.latencyMs as Float64Array)[id] = latencyMs;
          if (logprobs) {
            answered.genLogprobs ??= new Array(answered.resps.length);
            answered.genLogprobs[id] =
              repeats === 1 ? [logprob as GeneratedTokens | null] : new Array(repeats).fill(logprob);
          }
          if (thought) {
            answered.genThinking ??= new Array(answered.resps.length);
            answered.genThinking[id] = new Array(repeats).fill(thought);
          }
        }
        offset += 1;
        continue;
      }
      const slice = answers.slice(offset, offset + copies);
      const logprobSlice = logprobs?.slice(offset, offset + copies);
      const thinkingSlice = thinking?.slice(offset, offset + copies);
      const latencyMs = Array.from(times.subarray(offset, offset + copies));
      offset += copies;
      for (const instance of request.instances) {
        const { id } = instance;
        const answered = answersFor(instance.task);
        answered.resps[id] = slice;
        answered.latencyMsByCopy ??= new Array(answered.resps.length);
        answered.latencyMsByCopy[id] = latencyMs;
        if (logprobSlice) {
          answered.genLogprobs ??= new Array(answered.resps.length);
          answered.genLogprobs[id] = logprobSlice;
        }
        if (thinkingSlice?.some((thought) => thought !== null)) {
          answered.genThinking ??= new Array(answered.resps.length);
          answered.genThinking[id] = thinkingSlice;
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    latency[type] = { seconds, requests: total };
    listener?.({ type: 'request-batch-end', requestType: type, total, seconds });
  }
  return { responses, latency };
}

/** Per task of the requests, room for its answers by request id (ids are dense within a task). */
function emptyResponses(requests: readonly Instance[]): Responses {
  const sizes = new Map<string, number>();
  for (let index = 0; index < requests.length; index++) {
    const { task, id } = requests[index];
    const size = sizes.get(task);
    if (size === undefined || id >= size) sizes.set(task, id + 1);
  }
  return new Map(
    [...sizes].map(([task, size]) => [
      task,
      { resps: new Array(size), latencyMs: new Float64Array(size).fill(Number.NaN) },
    ]),
  );
}

/** Room for a task's log-likelihood answers as numbers (responses.ts): none held yet. */
function compactAnswers(size: number): NonNullable<TaskResponses['loglikelihood']> {
  return { logprob: new Float64Array(size), isGreedy: new Uint8Array(size).fill(NO_ANSWER) };
}

/** A log-likelihood answer (not a failure or a timeout), which the typed arrays hold. */
function isLoglikelihoodAnswer(answer: Response): answer is LoglikelihoodResult {
  return (
    typeof answer === 'object' &&
    answer !== null &&
    typeof (answer as LoglikelihoodResult).logprob === 'number' &&
    typeof (answer as LoglikelihoodResult).isGreedy === 'boolean'
  );
}

function checkCapability(backend: ModelBackend, type: RequestType): void {
  const supported =
    type === 'loglikelihood'
      ? backend.capabilities.loglikelihood
      : type === 'loglikelihood_rolling'
        ? backend.capabilities.loglikelihoodRolling
        : backend.capabilities.generate;
  if (!supported) {
    throw new AssayError(
      'capability_missing',
      `model ${backend.name} cannot serve ${type} requests; choose a backend that declares this capability or tasks of another output_type`,
    );
  }
}

/**
 * What one request type sends: the distinct requests in throughput order, and which planned requests
 * each one answers. Log-likelihood requests (hundreds of thousands in a large run) are held as flat arrays,
 * not an object per request: `requests[i]` answers `members[starts[i]]` up to `members[starts[i + 1]]`.
 */
type Batch =
  | {
      kind: 'grouped';
      total: number;
      requests: Array<{ context: string; continuation: string }>;
      members: Instance[];
      starts: Uint32Array;
    }
  | { kind: 'unique'; total: number; unique: UniqueRequest[] };

function loglikelihoodArgs(instance: Instance): { context: string; continuation: string } {
  return instance.args as { context: string; continuation: string };
}

/**
 * Log-likelihood requests deduplicated and in throughput order: longest context first, ties by context;
 * within a context longest continuation first, ties by continuation (see compareForThroughput). Grouped
 * by context first, so the sort compares each context once rather than once per choice; a stable sort of
 * a context's requests by continuation puts identical ones side by side.
 */
function loglikelihoodBatch(instances: readonly Instance[]): Batch {
  const byContext = new Map<string, Instance[]>();
  const groups: Instance[][] = [];
  for (let index = 0; index < instances.length; index++) {
    const instance = instances[index];
    const { context } = loglikelihoodArgs(instance);
    const group = byContext.get(context);
    if (group) group.push(instance);
    else {
      const created = [instance];
      byContext.set(context, created);
      groups.push(created);
    }
  }
  groups.sort((a, b) => {
    const first = loglikelihoodArgs(a[0]).context;
    const second = loglikelihoodArgs(b[0]).context;
    const lengthDiff = second.length - first.length;
    if (lengthDiff !== 0) return lengthDiff;
    return first < second ? -1 : first > second ? 1 : 0;
  });
  const members = new Array<Instance>(instances.length);
  const requests: Array<{ context: string; continuation: string }> = [];
  const starts: number[] = [];
  let position = 0;
  for (let index = 0; index < groups.length; index++) {
    const group = groups[index];
    sortContinuations(group);
    const { context } = loglikelihoodArgs(group[0]);
    let previous: string | undefined;
    for (let member = 0; member < group.length; member++) {
      const instance = group[member];
      const { continuation } = loglikelihoodArgs(instance);
      if (continuation !== previous) {
        starts.push(position);
        requests.push({ context, continuation });
        previous = continuation;
      }
      members[position++] = instance;
    }
  }
  starts.push(position);
  return { kind: 'grouped', total: requests.length, requests, members, starts: Uint32Array.from(starts) };
}

/**
 * A context's requests in compareContinuations order, stably. A question has a handful of choices, so an
 * insertion sort in place: Array.prototype.sort sets up a work array per call, once per context.
 */
function sortContinuations(group: Instance[]): void {
  if (group.length > 16) {
    group.sort(compareContinuations);
    return;
  }
  for (let index = 1; index < group.length; index++) {
    const instance = group[index];
    let slot = index;
    while (slot > 0 && compareContinuations(group[slot - 1], instance) > 0) {
      group[slot] = group[slot - 1];
      slot--;
    }
    group[slot] = instance;
  }
}

/** Within one context: longest continuation first, ties by continuation (compareForThroughput's rule). */
function compareContinuations(a: Instance, b: Instance): number {
  const first = loglikelihoodArgs(a).continuation;
  const second = loglikelihoodArgs(b).continuation;
  const lengthDiff = second.length - first.length;
  if (lengthDiff !== 0) return lengthDiff;
  return first < second ? -1 : first > second ? 1 : 0;
}

/** Rolling and generation requests: deduplicated (sampled repeats each their own), longest first. */
function uniqueBatch(instances: readonly Instance[]): Batch {
  const unique = dedupe(instances);
  unique.sort(compareForThroughput);
  return { kind: 'unique', total: unique.reduce((sum, request) => sum + request.copies, 0), unique };
}

/** Generation and rolling requests deduplicated (sampled repeats each their own); sorted by the caller. */
function dedupe(instances: readonly Instance[]): UniqueRequest[] {
  const byKey = new Map<string, UniqueRequest>();
  const result: UniqueRequest[] = [];
  for (const instance of instances) {
    const deterministic = isDeterministic(instance);
    const key = deterministic
      ? requestKey(instance)
      : `${requestKey(instance)}\u0000${instance.task}\u0000${instance.docId}`;
    const existing = byKey.get(key);
    if (existing && deterministic) {
      existing.instances.push(instance);
      continue;
    }
    const request = { key, instances: [instance], copies: deterministic ? 1 : instance.repeats };
    byKey.set(key, request);
    result.push(request);
  }
  return result;
}

/**
 * The throughput order. Loglikelihood requests are grouped by context, longest context first, so that
 * the choices of one question reach a backend together (a server's prefix cache, a local engine's shared
 * prefix); lm-eval's order (by total length) can scatter them when continuations differ in length
 * (dedupeLoglikelihood orders them). Everything else goes longest first (this comparison). Ties break
 * on the request text, so the order never depends on the input order.
 */
function compareForThroughput(a: UniqueRequest, b: UniqueRequest): number {
  const lengthDiff = requestLength(b.instances[0]) - requestLength(a.instances[0]);
  if (lengthDiff !== 0) return lengthDiff;
  const keyA = a.key;
  const keyB = b.key;
  return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
}

async function send(
  backend: ModelBackend,
  type: RequestType,
  batch: Batch,
  progress: (done: number) => void,
  maxLatencyS: number | undefined,
): Promise<{
  answers: Response[];
  logprobs?: Array<GeneratedTokens | null>;
  /** Per answer, what a reasoning model produced besides it (null: nothing); absent when no answer had any. */
  thinking?: Array<GenerationThinking | null>;
  timesMs?: Float64Array;
}> {
  const expand = <T>(make: (request: UniqueRequest, copy: number) => T): T[] => {
    const out: T[] = [];
    if (batch.kind !== 'unique') return out;
    for (const request of batch.unique)
      for (let copy = 0; copy < request.copies; copy++) out.push(make(request, copy));
    return out;
  };
  // Under a cap each request is timed alone (latency-cap.ts): its own time, not the progress clock's.
  const timesMs = maxLatencyS === undefined ? undefined : new Float64Array(batch.total);
  /** One call with every request, or, under a latency cap, a call per request against the clock. */
  const dispatch = async <R, A>(
    requests: R[],
    call: (options: CallOptions<R>) => Promise<Answer<A>[]>,
  ): Promise<Array<Answer<A> | LatencyTimeout>> => {
    if (maxLatencyS === undefined) {
      const answers = await call({ requests, onProgress: progress });
      expectCount(backend, type, answers.length, requests.length);
      return answers;
    }
    return sendCapped(requests, (request, abortSignal) => call({ requests: [request], abortSignal }), {
      maxLatencyS,
      concurrency: backend.concurrency ?? 1,
      progress,
      backend: backend.name,
      timesMs,
    });
  };
  let answers: Response[];
  if (type === 'loglikelihood') {
    const requests = batch.kind === 'grouped' ? batch.requests : [];
    answers = await dispatch(requests, (options) => backend.loglikelihood(options));
  } else if (type === 'loglikelihood_rolling') {
    const requests = expand((request) => ({ text: (request.instances[0].args as { text: string }).text }));
    answers = await dispatch(requests, (options) => backend.loglikelihoodRolling(options));
  } else {
    const requests = expand((request, copy): GenerateRequest => {
      const generation = (request.instances[0].args as { generation: GenerateRequest }).generation;
      // Each sampled repeat gets its own seed offset, so repeats differ but runs stay reproducible.
      if (!generation.doSample) return generation;
      const seed = typeof generation.extra.seed === 'number' ? generation.extra.seed : 0;
      return { ...generation, extra: { ...generation.extra, seed: seed + copy } };
    });
    if (hasGenerationLogprobs(backend)) {
      const generations = await dispatch(requests, (options) => backend.generateWithLogprobs(options));
      const failed = (generation: (typeof generations)[number]) =>
        isRequestError(generation) || isLatencyTimeout(generation);
      return {
        answers: generations.map((generation) =>
          failed(generation)
            ? (generation as RequestError | LatencyTimeout)
            : (generation as Generation).text,
        ),
        logprobs: generations.map((generation) =>
          failed(generation) ? null : (generation as Generation).logprobs,
        ),
        thinking: generations.some((generation) => !failed(generation) && (generation as Generation).thinking)
          ? generations.map((generation) =>
              failed(generation) ? null : ((generation as Generation).thinking ?? null),
            )
          : undefined,
        timesMs,
      };
    }
    answers = await dispatch(requests, (options) => backend.generate(options));
  }
  return { answers, timesMs };
}

function expectCount(backend: ModelBackend, type: RequestType, got: number, expected: number): void {
  if (got !== expected) {
    throw new AssayError(
      'backend_error',
      `model ${backend.name} returned ${got} answers for ${expected} ${type} requests`,
      {
        exitCode: 1,
      },
    );
  }
}
