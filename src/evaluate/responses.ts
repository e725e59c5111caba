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

/** One request's answers. */
export interface RequestResponses {
  /** One response per repeat (lm-eval's Instance.resps). */
  resps: Response[];
  /** generate_until from a backend with `generateWithLogprobs`: per repeat, the generated tokens' log-probabilities. */
  genLogprobs?: Array<GeneratedTokens | null>;
  /** generate_until from a reasoning model: per repeat, its raw generation, reasoning, truncation (null: none). */
  genThinking?: Array<GenerationThinking | null>;
  /** Wall time of each backend request that answered it, in ms (request-timing.ts); timing, not a score. */
  latencyMs?: number[];
}

/** One task's answers, by request id (a request not answered yet has none). */
export type TaskResponses = Array<RequestResponses | undefined>;

/** Task name → its requests' answers by request id. */
export type Responses = Map<string, TaskResponses>;

/**
 * The answers of the requests given, in their order. A request without answers is a bug of the stages
 * before (every planned request goes to execute or to the perplexity stage), not a user's mistake.
 */
export function answersOf(responses: TaskResponses, instances: readonly Instance[]): RequestResponses[] {
  return instances.map((instance) => {
    const answers = responses[instance.id];
    if (!answers) {
      throw new Error(
        `internal: request ${instance.id} (task ${instance.task}, doc ${instance.docId}, index ${instance.index}) has no responses`,
      );
    }
    return answers;
  });
}

/** A task's answers from a run's (none for a task that sent no request: answersOf names what is missing). */
export function taskResponses(responses: Responses, task: string): TaskResponses {
  return responses.get(task) ?? [];
}

/** The first failed response of a doc, over its requests and repeats in order. */
export function firstRequestError(answers: readonly RequestResponses[]): RequestError | undefined {
  for (const answered of answers)
    for (const response of answered.resps) if (isRequestError(response)) return response;
  return undefined;
}
