/**
 * `scriptedBackend`: a backend that answers from a script and records every request it gets, shipped in
 * `assay/backend` for users' tests (which prompt did my task send? what does my filter and metric make of
 * this answer? does one failed request become one errored sample?) without a model. It is a backend of
 * spec v2 like any other and runs the same conformance suite.
 *
 * A request type is declared (capabilities) exactly when the script has answers for it; the others refuse
 * with `capability_missing`, so a run that needs them stops at planning. A script is a list of answers,
 * taken in the order requests of that type arrive (across calls), or a function of the request and that
 * position. An answer may be a RequestError: the request failed for good, one errored sample. A script
 * that runs out, or an answer of the wrong shape, throws `backend_error`: a test written wrong fails loudly
 * instead of scoring a made-up answer. Generated text is cut at the request's stop strings, as every
 * backend cuts what it generates.
 */
import { AssayError } from '../../errors.js';
import {
  type Answer,
  type BackendCapabilities,
  type GenerateRequest,
  isRequestError,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelBackend,
  type ModelInfo,
  type ProgressSink,
  type RollingRequest,
} from '../backend.js';
import { cutAtStops } from '../stop-strings.js';

/**
 * Answers of one request type: a list, the i-th answer for the i-th request of that type the backend
 * receives, or a function of the request and that position.
 */
export type Script<Request, Result> =
  | ReadonlyArray<Answer<Result>>
  | ((request: Request, position: number) => Answer<Result> | Promise<Answer<Result>>);

export interface ScriptedBackendOptions {
  /** The backend's name (the run's model name); default `scripted`. */
  name?: string;
  /** What `info()` returns, recorded in the manifest; default `{ name }`. */
  info?: ModelInfo;
  /** generate_until: the text the model writes, before the request's stop strings cut it. */
  generate?: Script<GenerateRequest, string>;
  /** loglikelihood: log p(continuation | context) and whether it is the greedy continuation. */
  loglikelihood?: Script<LoglikelihoodRequest, LoglikelihoodResult>;
  /** loglikelihood_rolling: log p(text). */
  loglikelihoodRolling?: Script<RollingRequest, number>;
  /** How many requests the backend works on at once (see ModelBackend.concurrency). */
  concurrency?: number;
}

/** Every request a scripted backend received, per request type, in the order received. */
export interface ReceivedRequests {
  loglikelihood: LoglikelihoodRequest[];
  loglikelihoodRolling: RollingRequest[];
  generate: GenerateRequest[];
}

/** One call of a request method, with its batch as received. */
export type ScriptedCall =
  | { method: 'loglikelihood'; requests: LoglikelihoodRequest[] }
  | { method: 'loglikelihoodRolling'; requests: RollingRequest[] }
  | { method: 'generate'; requests: GenerateRequest[] };

export interface ScriptedBackend extends ModelBackend {
  /** Every request received, per request type (what the script's positions count). */
  readonly received: ReceivedRequests;
  /** Every call, in order, with its batch. */
  readonly calls: ScriptedCall[];
}

type Method = ScriptedCall['method'];

/** The shape each request type's answer must have, in words for the error. */
const SHAPES: Record<Method, { check: (value: unknown) => boolean; words: string }> = {
  generate: { check: (value) => typeof value === 'string', words: 'a string' },
  loglikelihood: {
    check: (value) => {
      const result = value as Partial<LoglikelihoodResult> | null;
      return (
        typeof result === 'object' &&
        result !== null &&
        typeof result.logprob === 'number' &&
        !Number.isNaN(result.logprob) &&
        result.logprob <= 0 &&
        typeof result.isGreedy === 'boolean'
      );
    },
    words: '{ logprob: a number ≤ 0, isGreedy: a boolean }',
  },
  loglikelihoodRolling: {
    check: (value) => typeof value === 'number' && !Number.isNaN(value) && value <= 0,
    words: 'a number ≤ 0',
  },
};

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function scriptedBackend(options: ScriptedBackendOptions): ScriptedBackend {
  const name = options.name ?? 'scripted';
  if (!options.generate && !options.loglikelihood && !options.loglikelihoodRolling) {
    throw new AssayError(
      'bad_option',
      'scriptedBackend needs a script for at least one of its methods: generate, loglikelihood, loglikelihoodRolling',
      { location: { field: 'generate' } },
    );
  }
  const received: ReceivedRequests = { loglikelihood: [], loglikelihoodRolling: [], generate: [] };
  const calls: ScriptedCall[] = [];

  async function answer<Request, Result>(
    method: Method,
    script: Script<Request, Result> | undefined,
    requests: Request[],
    progress: ProgressSink | undefined,
  ): Promise<Answer<Result>[]> {
    if (!script) {
      throw new AssayError(
        'capability_missing',
        `scripted backend "${name}" has no \`${method}\` script, so it declares ${method}: false`,
      );
    }
    const seen = received[method] as Request[];
    calls.push({ method, requests: [...requests] } as ScriptedCall);
    const answers: Answer<Result>[] = [];
    for (const request of requests) {
      const position = seen.length;
      seen.push(request);
      let value: Answer<Result> | undefined;
      if (typeof script === 'function') value = await script(request, position);
      else if (position < script.length) value = script[position];
      else {
        throw new AssayError(
          'backend_error',
          `scripted backend "${name}": ${method} request ${position + 1} has no answer (the script has ${script.length})`,
        );
      }
      if (!isRequestError(value) && !SHAPES[method].check(value)) {
        throw new AssayError(
          'backend_error',
          `scripted backend "${name}": the answer to ${method} request ${position + 1} is ${describeValue(value)}, not ${SHAPES[method].words} or a RequestError`,
        );
      }
      answers.push(value as Answer<Result>);
      progress?.(answers.length);
    }
    return answers;
  }

  const capabilities: BackendCapabilities = {
    loglikelihood: options.loglikelihood !== undefined,
    loglikelihoodRolling: options.loglikelihoodRolling !== undefined,
    generate: options.generate !== undefined,
    tokenScoring: false,
    generationLogprobs: false,
    chatTemplate: false,
    usage: false,
  };
  const info = options.info ?? { name };
  return {
    specificationVersion: 'v2',
    name,
    capabilities,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    received,
    calls,
    loglikelihood: ({ requests, onProgress }) =>
      answer('loglikelihood', options.loglikelihood, requests, onProgress),
    loglikelihoodRolling: ({ requests, onProgress }) =>
      answer('loglikelihoodRolling', options.loglikelihoodRolling, requests, onProgress),
    generate: async ({ requests, onProgress }) => {
      const texts = await answer('generate', options.generate, requests, onProgress);
      return texts.map((text, index) =>
        isRequestError(text) ? text : cutAtStops(text, requests[index].until),
      );
    },
    info: () => ({ ...info }),
  };
}
