import type { GenerateRequest, LoglikelihoodResult, RequestError } from '../models/backend.js';
import type { RequestType } from '../results/results-file.js';
import type { LatencyTimeout } from './latency-cap.js';

/** The results contract's request types (results.json `request_stats` keys them). */
export type { RequestType };

export type RequestArgs =
  | { type: 'loglikelihood'; context: string; continuation: string }
  | { type: 'loglikelihood_rolling'; text: string }
  | {
      type: 'generate_until';
      context: string;
      generation: GenerateRequest;
      /**
       * The generation kwargs as lm-eval logs them in `arguments.arg_1`: the task's generation_kwargs
       * (with lm-eval's defaults and `until`) updated with --gen_kwargs, before any normalisation.
       */
      kwargs?: Record<string, unknown>;
    };

/**
 * A RequestError stands where a backend could not get an answer (the doc becomes an errored sample); a
 * LatencyTimeout where the answer took longer than the latency cap (the doc is timed out).
 */
export type Response = LoglikelihoodResult | number | string | RequestError | LatencyTimeout;

/**
 * One request of one doc (lm-eval's Instance), as planned: what to ask, never the answer. What the backend
 * answered is kept apart, by request id (responses.ts), so a plan is never written to after planning.
 */
export interface Instance {
  /**
   * The request's id: its position among its task's requests in plan order (docs in plan order, each
   * doc's requests by `index`), 0 to n − 1. With `task` it names the request within a run.
   */
  id: number;
  task: string;
  docId: number;
  /** Index of the request within its doc (the choice index for multiple choice). */
  index: number;
  args: RequestArgs;
  repeats: number;
  /** True for acc_mutual_info's unconditional requests ("", delimiter + choice). */
  unconditional?: boolean;
}

/** The `arguments` field of a sample line, as lm-eval writes it. */
export function instanceArguments(args: RequestArgs): Record<string, unknown> {
  switch (args.type) {
    case 'loglikelihood':
      return { arg_0: args.context, arg_1: args.continuation };
    case 'loglikelihood_rolling':
      return { arg_0: args.text };
    case 'generate_until': {
      const { generation } = args;
      if (args.kwargs) return { arg_0: args.context, arg_1: args.kwargs };
      return {
        arg_0: args.context,
        arg_1: {
          until: generation.until,
          max_gen_toks: generation.maxGenToks,
          temperature: generation.temperature,
          do_sample: generation.doSample,
          ...generation.extra,
        },
      };
    }
  }
}
