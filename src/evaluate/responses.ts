/**
 * What the backend answered a run's requests: the execute stage's output, kept apart from the plan (which
 * holds requests only). Responses are keyed by task and then by request id (Instance `id`, dense within a
 * task), so scoring and the sample log find a request's answers without the plan ever holding them.
 */
import {
  type GeneratedTokens,
  type GenerationThinking,
  isRequestError,
  type RequestError,
} from '../models/backend.js';
import type { Instance, Response } from './requests.js';

/**
 * One task's answers, each field indexed by request id (a request not answered has none). Typed arrays
 * and parallel arrays, not an object per request: a run holds hundreds of thousands of answers, and a
 * log-likelihood answer is two numbers.
 */
export interface TaskResponses {
  /**
   * One response per repeat (lm-eval's Instance.resps), for answers not held in `loglikelihood`:
   * generations, rolling log-likelihoods, failed requests.
   */
  resps: Array<Response[] | undefined>;
  /**
   * Log-likelihood answers (one shared by every repeat), by request id: the log-probability, and
   * is-greedy as 0 or 1 (NO_ANSWER: the request's answer, if any, is in `resps`).
   */
  loglikelihood?: { logprob: Float64Array; isGreedy: Uint8Array };
  /** generate_until from a backend with `generateWithLogprobs`: per repeat, the generated tokens' log-probabilities. */
  genLogprobs?: Array<Array<GeneratedTokens | null> | undefined>;
  /** generate_until from a reasoning model: per repeat, its raw generation, reasoning, truncation (null: none). */
  genThinking?: Array<Array<GenerationThinking | null> | undefined>;
  /**
   * Wall time of the backend request that answered each request, in ms (request-timing.ts; NaN: none,
   * or see `latencyMsByCopy`); timing, not a score.
   */
  latencyMs?: Float64Array;
  /** Requests answered by several backend requests (sampled repeats): the wall time of each. */
  latencyMsByCopy?: Array<number[] | undefined>;
}

/** `loglikelihood.isGreedy` of a request whose answer is not held there. */
export const NO_ANSWER = 2;

/** Task name → its requests' answers by request id. */
export type Responses = Map<string, TaskResponses>;

/** A task's answers from a run's (none for a task that sent no request: respsOf names what is missing). */
export function taskResponses(responses: Responses, task: string): TaskResponses {
  return responses.get(task) ?? { resps: [] };
}

/**
 * The responses (one per repeat) of a request, or undefined when it has none. A log-likelihood answer
 * held in typed arrays is made into its object here, one shared by the request's repeats.
 */
export function responsesOf(responses: TaskResponses, instance: Instance): Response[] | undefined {
  const { id } = instance;
  const compact = responses.loglikelihood;
  if (compact && id < compact.isGreedy.length && compact.isGreedy[id] !== NO_ANSWER) {
    const answer = { logprob: compact.logprob[id], isGreedy: compact.isGreedy[id] === 1 };
    return instance.repeats === 1 ? [answer] : new Array(instance.repeats).fill(answer);
  }
  return responses.resps[id];
}

/**
 * The responses (one per repeat) of the requests given, in their order. A request without responses is
 * a bug of the stages before (every planned request goes to execute or to the perplexity stage), not a
 * user's mistake.
 */
export function respsOf(responses: TaskResponses, instances: readonly Instance[]): Response[][] {
  return instances.map((instance) => {
    const resps = responsesOf(responses, instance);
    if (!resps) {
      throw new Error(
        `internal: request ${instance.id} (task ${instance.task}, doc ${instance.docId}, index ${instance.index}) has no responses`,
      );
    }
    return resps;
  });
}

/** The wall times (ms) of the backend requests that answered request `id`: none, one, or one per copy. */
export function latencyOf(responses: TaskResponses, id: number): number[] {
  const byCopy = responses.latencyMsByCopy?.[id];
  if (byCopy) return byCopy;
  const time = responses.latencyMs?.[id];
  return time === undefined || Number.isNaN(time) ? [] : [time];
}

/** The first failed response of a doc, over its requests and repeats in order. */
export function firstRequestError(resps: readonly Response[][]): RequestError | undefined {
  for (const own of resps) for (const response of own) if (isRequestError(response)) return response;
  return undefined;
}
