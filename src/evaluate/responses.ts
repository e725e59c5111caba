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
 * One task's answers, each field indexed by request id (a request not answered has none). Parallel
 * arrays, not an object per request: a run holds hundreds of thousands of answers.
 */
export interface TaskResponses {
  /** One response per repeat (lm-eval's Instance.resps). */
  resps: Array<Response[] | undefined>;
  /** generate_until from a backend with `generateWithLogprobs`: per repeat, the generated tokens' log-probabilities. */
  genLogprobs?: Array<Array<GeneratedTokens | null> | undefined>;
  /** generate_until from a reasoning model: per repeat, its raw generation, reasoning, truncation (null: none). */
  genThinking?: Array<Array<GenerationThinking | null> | undefined>;
  /** Wall time of each backend request that answered it, in ms (request-timing.ts); timing, not a score. */
  latencyMs?: Array<number[] | undefined>;
}

/** Task name → its requests' answers by request id. */
export type Responses = Map<string, TaskResponses>;

/** A task's answers from a run's (none for a task that sent no request: respsOf names what is missing). */
export function taskResponses(responses: Responses, task: string): TaskResponses {
  return responses.get(task) ?? { resps: [] };
}

/**
 * The responses (one per repeat) of the requests given, in their order. A request without responses is
 * a bug of the stages before (every planned request goes to execute or to the perplexity stage), not a
 * user's mistake.
 */
export function respsOf(responses: TaskResponses, instances: readonly Instance[]): Response[][] {
  return instances.map((instance) => {
    const resps = responses.resps[instance.id];
    if (!resps) {
      throw new Error(
        `internal: request ${instance.id} (task ${instance.task}, doc ${instance.docId}, index ${instance.index}) has no responses`,
      );
    }
    return resps;
  });
}

/** The first failed response of a doc, over its requests and repeats in order. */
export function firstRequestError(resps: readonly Response[][]): RequestError | undefined {
  for (const own of resps) for (const response of own) if (isRequestError(response)) return response;
  return undefined;
}
