import { z } from 'zod';
import type { LoglikelihoodResult } from '../backend.js';
import { badAnswer, checkEchoedTokenIds, checkEchoLogprobs, echoedPromptStart } from './answer-checks.js';
import { ResponseShapeError } from './http-client.js';

/**
 * The /v1/completions response as vLLM and SGLang send it, keeping only the fields we use. `logprobs` is
 * the legacy OpenAI shape: with `echo: true` it covers the prompt tokens (the first has a null
 * log-probability) followed by the generated ones.
 */
const logprobsSchema = z.object({
  tokens: z.array(z.string()),
  token_logprobs: z.array(z.number().nullable()),
  top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullable().optional(),
  text_offset: z.array(z.number()).optional(),
});

/** vLLM's extension (see prompt-logprobs.ts): per prompt token, token id → its log-probability and rank. */
const promptLogprobsSchema = z.array(
  z
    .record(
      z.string(),
      z.object({
        logprob: z.number(),
        rank: z.number().nullable().optional(),
        decoded_token: z.string().nullable().optional(),
      }),
    )
    .nullable(),
);
export type PromptLogprobs = z.output<typeof promptLogprobsSchema>;

const choiceSchema = z.object({
  index: z.number().int().nonnegative(),
  text: z.string().nullable().optional(),
  /** `length` when max_tokens ended the generation. */
  finish_reason: z.string().nullable().optional(),
  logprobs: logprobsSchema.nullable().optional(),
  prompt_logprobs: promptLogprobsSchema.nullable().optional(),
});

/**
 * Token counts of an answer (completions and chat alike). Reasoning tokens, part of completion_tokens, are
 * in `completion_tokens_details` (OpenAI, vLLM) or beside the others (SGLang).
 */
export const usageSchema = z
  .object({
    prompt_tokens: z.number(),
    completion_tokens: z.number().nullable().optional(),
    completion_tokens_details: z
      .object({ reasoning_tokens: z.number().nullable().optional() })
      .nullable()
      .optional(),
    reasoning_tokens: z.number().nullable().optional(),
  })
  .nullable()
  .optional();

const responseSchema = z.object({
  choices: z.array(choiceSchema),
  usage: usageSchema,
});

export type CompletionChoice = z.output<typeof choiceSchema>;
export type CompletionsResponse = z.output<typeof responseSchema>;

/** Validates the body and returns its choices sorted by index, exactly one per prompt sent. */
export function parseCompletionsResponse(json: unknown, prompts: number): CompletionsResponse {
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResponseShapeError(
      `malformed completions response: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  const choices = [...parsed.data.choices].sort((a, b) => a.index - b.index);
  if (choices.length !== prompts || choices.some((choice, i) => choice.index !== i)) {
    throw new ResponseShapeError(
      `the response has ${choices.length} choices (indices ${choices.map((choice) => choice.index).join(', ') || 'none'}) for ${prompts} prompts`,
    );
  }
  return { choices, usage: parsed.data.usage };
}

export function usageTokens(response: { usage?: z.output<typeof usageSchema> }): {
  in: number;
  out: number;
  reasoning?: number;
} {
  const usage = response.usage;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? usage?.reasoning_tokens;
  return {
    in: usage?.prompt_tokens ?? 0,
    out: usage?.completion_tokens ?? 0,
    ...(typeof reasoning === 'number' ? { reasoning } : {}),
  };
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in Unicode code points: the unit of the servers' (Python) text offsets. */
export function codePoints(text: string): number {
  return SURROGATE.test(text) ? [...text].length : text.length;
}

/** Thrown when a server answers without prompt log-probabilities; the backend turns it into a run-stopping error. */
export class NoPromptLogprobs extends Error {}

function greedyAt(choice: CompletionChoice, index: number, logprob: number): boolean {
  const top = choice.logprobs?.top_logprobs?.[index];
  if (!top) return false;
  let best = Number.NEGATIVE_INFINITY;
  for (const value of Object.values(top)) if (value > best) best = value;
  // Compare log-probabilities rather than token strings: servers spell tokens differently in the two lists.
  return logprob >= best - 1e-9;
}

/**
 * Text mode (`tokenized_requests=false`): the prompt was context + continuation as text. The echoed
 * tokens must spell it (after a BOS the server may add); the continuation is every prompt token that ends
 * after the context does; a token that straddles the boundary counts with the continuation, since its
 * log-probability covers continuation characters. The last token is the one generated token
 * (`max_tokens: 1`) and is dropped, as lm-eval drops it. Token spans come from the tokens themselves:
 * servers compute `text_offset` from the same strings.
 */
export function scoreTextChoice(
  choice: CompletionChoice,
  prompt: string,
  contextLength: number,
): LoglikelihoodResult {
  const logprobs = choice.logprobs;
  if (!logprobs || logprobs.tokens.length < 2 || !(choice.text ?? '').startsWith(prompt)) {
    throw new NoPromptLogprobs(describeMissingEcho(choice, prompt));
  }
  checkEchoLogprobs(logprobs);
  const { tokens, token_logprobs: values } = logprobs;
  const count = tokens.length - 1;
  const { start, skip } = echoedPromptStart(tokens, count, prompt);
  let end = -skip;
  let logprob = 0;
  let isGreedy = true;
  let scored = 0;
  for (let i = start; i < count; i++) {
    const width = codePoints(tokens[i]);
    end += width;
    if (end <= contextLength) continue;
    const value = values[i];
    if (value === null) {
      if (width === 0) continue; // an empty special token with no log-probability
      throw new ResponseShapeError(
        'the first continuation token has no log-probability: the context is empty and the server added no BOS token; use tokenized_requests=true (assay then prefixes a start token)',
      );
    }
    logprob += value;
    scored++;
    if (isGreedy && !greedyAt(choice, i, value)) isGreedy = false;
  }
  if (scored === 0) throw badAnswer('no prompt token covers the continuation');
  return { logprob, isGreedy };
}

/** Token-id mode: the first `prompt.length` log-probabilities belong to the prompt; sum [contextTokens, end). */
export function scoreTokenChoice(
  choice: CompletionChoice,
  prompt: number[],
  contextTokens: number,
): LoglikelihoodResult {
  const logprobs = choice.logprobs;
  // Echo ignored: the log-probabilities cover the generated token alone.
  if (!logprobs || (logprobs.token_logprobs.length <= 1 && prompt.length > 1)) {
    throw new NoPromptLogprobs(
      `the response has ${logprobs?.token_logprobs.length ?? 0} log-probabilities for a prompt of ${prompt.length} tokens: echo was ignored`,
    );
  }
  checkEchoLogprobs(logprobs);
  checkEchoedTokenIds(logprobs, prompt);
  let logprob = 0;
  let isGreedy = true;
  for (let i = contextTokens; i < prompt.length; i++) {
    const value = logprobs.token_logprobs[i];
    if (value === null) throw new ResponseShapeError(`prompt token ${i} has no log-probability`);
    logprob += value;
    if (isGreedy && !greedyAt(choice, i, value)) isGreedy = false;
  }
  return { logprob, isGreedy };
}

/** Prompt tokens a scoring answer covers (echo: all but the generated one), for usage when the server sends none. */
export function echoedPromptTokens(choice: CompletionChoice): number {
  if (choice.prompt_logprobs) return choice.prompt_logprobs.length;
  return Math.max(0, (choice.logprobs?.tokens.length ?? 1) - 1);
}

function describeMissingEcho(choice: CompletionChoice, prompt: string): string {
  if (!choice.logprobs) return 'the response carries no logprobs at all';
  const text = choice.text ?? '';
  return `the response's text does not start with the prompt (got ${JSON.stringify(text.slice(0, 40))} for a prompt starting ${JSON.stringify(prompt.slice(0, 40))}) and its logprobs cover ${choice.logprobs.tokens.length} token(s): echo was ignored`;
}
