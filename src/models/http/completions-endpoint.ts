import {
  type Answer,
  type GenerateRequest,
  type Generation,
  type LoglikelihoodResult,
  RequestError,
} from '../backend.js';
import { cutAtStops } from '../stop-strings.js';
import { splitThinking } from '../thinking.js';
import {
  type CompletionChoice,
  type CompletionsResponse,
  echoedPromptTokens,
  NoPromptLogprobs,
  parseCompletionsResponse,
  scoreTextChoice,
  scoreTokenChoice,
  usageTokens,
} from './completions-response.js';
import type { GenerationEndpoint } from './endpoint.js';
import { fromCompletionLogprobs, trimToText } from './generated-logprobs.js';
import { scoreTextPromptLogprobs, scoreTokenPromptLogprobs } from './prompt-logprobs.js';
import { generationBatches } from './request-batches.js';
import { windowLogprobsFromEcho, windowLogprobsFromPromptLogprobs } from './window-logprobs.js';

/** How a completions backend generates: settled once per call from its model args. */
export interface CompletionsGenerationSettings {
  model: string;
  seed: number;
  /** Requests in one HTTP request (`batch_size`); consecutive requests with the same kwargs share one. */
  batchSize: number;
  /** Ask for the generated tokens' log-probabilities (`logprobs: 1`). */
  logprobs: boolean;
  /**
   * `think_end_token`'s text: the answer is what follows the thinking, cut at the stop strings there, and
   * the generation as sent is kept beside it.
   */
  thinkEnd?: string;
  /** Send the task's stop strings to the server (not when they apply only after the thinking). */
  serverStops: boolean;
  /** A request's prompt: its text, or its token ids (tokenized_requests). */
  prompt: (request: GenerateRequest) => Promise<string | number[]> | string | number[];
}

/**
 * /v1/completions generation (OpenAI's legacy completions, as vLLM and SGLang serve it): one payload of
 * `prompt` (a string or token ids, a list of them for a batch), `max_tokens`, `temperature`, `stop`,
 * `seed` and the task's other generation kwargs; one choice per prompt, by `index`.
 */
export function completionsGeneration(
  settings: CompletionsGenerationSettings,
): GenerationEndpoint<CompletionsResponse> {
  return {
    label: 'generate_until',
    batches: (requests) => generationBatches(requests, settings.batchSize),
    payload: async (batch) => {
      const first = batch[0];
      const { do_sample: _doSample, ...extra } = first.extra;
      const prompts = await Promise.all(batch.map((request) => settings.prompt(request)));
      const stop = settings.serverStops ? first.until : [];
      return {
        model: settings.model,
        prompt: batch.length === 1 ? prompts[0] : prompts,
        max_tokens: first.maxGenToks,
        temperature: first.temperature,
        ...(stop.length ? { stop } : {}),
        seed: settings.seed,
        ...(settings.logprobs ? { logprobs: 1 } : {}),
        ...extra,
      };
    },
    parse: parseCompletionsResponse,
    tokens: usageTokens,
    answer: (response, position, request, describe) =>
      completionAnswer(response, position, request, settings.thinkEnd, describe),
  };
}

/** One choice's answer: cut at the stop strings, or split from its thinking with `thinkEnd`. */
export function completionAnswer(
  response: CompletionsResponse,
  position: number,
  request: GenerateRequest,
  thinkEnd: string | undefined,
  describe: () => string,
): Answer<Generation> {
  const choice = response.choices[position];
  // A missing text is not an empty answer: scoring "" would count a failure as a wrong answer.
  if (typeof choice.text !== 'string') {
    return new RequestError(
      `${describe()}: the choice's text is ${JSON.stringify(choice.text ?? null)}, not a string`,
      'bad answer',
    );
  }
  if (thinkEnd !== undefined) {
    const { text, thinking } = splitThinking(
      choice.text,
      request.until,
      thinkEnd,
      choice.finish_reason,
      request.context,
    );
    return { text, logprobs: fromCompletionLogprobs(choice.logprobs), thinking };
  }
  const text = cutAtStops(choice.text, request.until);
  return { text, logprobs: trimToText(fromCompletionLogprobs(choice.logprobs), text) };
}

/** One prompt to score: text (context + continuation) or token ids, and where the continuation starts. */
export interface ScoredPrompt {
  prompt: string | number[];
  /** Code points (text) or tokens (ids) of context. */
  contextLength: number;
}

/**
 * What a scoring request asks for, by whether the server is known to have vLLM's `prompt_logprobs`: the
 * prompt's own log-probabilities through echo (`echo: true, logprobs: 1`), through `prompt_logprobs: 1`,
 * or both while it is unknown (undefined); `max_tokens: 1` as lm-eval sends.
 */
export function scoringPayload(
  settings: { model: string; seed: number },
  prompts: ScoredPrompt[],
  promptLogprobs: boolean | undefined,
): Record<string, unknown> {
  return {
    model: settings.model,
    prompt: prompts.length === 1 ? prompts[0].prompt : prompts.map((prompt) => prompt.prompt),
    max_tokens: 1,
    temperature: 0,
    ...(promptLogprobs !== true ? { logprobs: 1, echo: true } : {}),
    ...(promptLogprobs !== false ? { prompt_logprobs: 1 } : {}),
    seed: settings.seed,
  };
}

/** A scoring request's answers and the tokens it was billed for. */
export interface ScoredAnswers<T> {
  values: T[];
  tokensIn: number;
  tokensOut: number;
  /** Every choice carried `prompt_logprobs`: the server has vLLM's extension. */
  promptLogprobs: boolean;
}

/** Reads one choice of a scoring request; throws ResponseShapeError / NoPromptLogprobs on a bad answer. */
export type ChoiceReader<T> = (choice: CompletionChoice, prompt: ScoredPrompt) => T;

/**
 * Parses a scoring answer: one value per prompt read by `read`. Asked for `prompt_logprobs` only
 * (`promptLogprobs` true), an answer without them throws NoPromptLogprobs.
 */
export function parseScoringResponse<T>(
  json: unknown,
  prompts: ScoredPrompt[],
  promptLogprobs: boolean | undefined,
  read: ChoiceReader<T>,
): ScoredAnswers<T> {
  const response = parseCompletionsResponse(json, prompts.length);
  const values = response.choices.map((choice, position) => {
    if (promptLogprobs === true && !choice.prompt_logprobs) {
      throw new NoPromptLogprobs('the response has no prompt_logprobs although the request asked for them');
    }
    return read(choice, prompts[position]);
  });
  // Billed as sent: the prompt tokens the server counted, else those its answer covers.
  const tokensIn =
    response.usage?.prompt_tokens ??
    response.choices.reduce((sum, choice) => sum + echoedPromptTokens(choice), 0);
  const tokensOut = response.usage?.completion_tokens ?? response.choices.length;
  return {
    values,
    tokensIn,
    tokensOut,
    promptLogprobs: response.choices.every((choice) => Array.isArray(choice.prompt_logprobs)),
  };
}

/** Σ log p of the continuation, from vLLM's prompt_logprobs when present, else from echo. */
export function readLoglikelihood(
  choice: CompletionChoice,
  { prompt, contextLength }: ScoredPrompt,
): LoglikelihoodResult {
  if (choice.prompt_logprobs) {
    return typeof prompt === 'string'
      ? scoreTextPromptLogprobs(choice.prompt_logprobs, prompt, contextLength)
      : scoreTokenPromptLogprobs(choice.prompt_logprobs, prompt, contextLength);
  }
  return typeof prompt === 'string'
    ? scoreTextChoice(choice, prompt, contextLength)
    : scoreTokenChoice(choice, prompt, contextLength);
}

/** Per-token log-probabilities of a token window from `contextLength` (its scoreFrom) to its end. */
export function readWindow(choice: CompletionChoice, { prompt, contextLength }: ScoredPrompt): number[] {
  const tokens = prompt as number[];
  return choice.prompt_logprobs
    ? windowLogprobsFromPromptLogprobs(choice.prompt_logprobs, tokens, contextLength)
    : windowLogprobsFromEcho(choice, tokens, contextLength);
}
