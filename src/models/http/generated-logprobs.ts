import type { GeneratedTokens } from '../backend.js';
import type { CompletionChoice } from './completions-response.js';

/**
 * The generated tokens' log-probabilities as the sample log keeps them, from the two response shapes:
 * completions' legacy `logprobs` (`tokens`, `token_logprobs`) and chat's `logprobs.content[]`.
 */
export function fromCompletionLogprobs(logprobs: CompletionChoice['logprobs']): GeneratedTokens | null {
  if (!logprobs || logprobs.tokens.length === 0) return null;
  const values = logprobs.token_logprobs;
  if (values.length !== logprobs.tokens.length || values.some((value) => value === null)) return null;
  return { tokens: logprobs.tokens, logprobs: values as number[] };
}

export function fromChatLogprobs(
  content: Array<{ token: string; logprob: number }> | null | undefined,
): GeneratedTokens | null {
  if (!content?.length) return null;
  return { tokens: content.map((entry) => entry.token), logprobs: content.map((entry) => entry.logprob) };
}

/**
 * Keeps the tokens of the text that remains after stop strings are cut here (servers that were sent
 * fewer stops than the task has): every token that starts before the cut.
 */
export function trimToText(generated: GeneratedTokens | null, text: string): GeneratedTokens | null {
  if (!generated) return null;
  let length = 0;
  let keep = 0;
  while (keep < generated.tokens.length && length < text.length) {
    length += generated.tokens[keep].length;
    keep++;
  }
  if (keep === generated.tokens.length) return generated;
  return { tokens: generated.tokens.slice(0, keep), logprobs: generated.logprobs.slice(0, keep) };
}
