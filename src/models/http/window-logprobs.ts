import { badAnswer, checkEchoedTokenIds, checkEchoLogprobs, checkLogprob } from './answer-checks.js';
import type { CompletionChoice, PromptLogprobs } from './completions-response.js';
import { NoPromptLogprobs } from './completions-response.js';
import { ResponseShapeError } from './http-client.js';

/**
 * Per-token log-probabilities of a token window sent as a token-id prompt (capability tokenScoring):
 * log p(tokens[i] | tokens[0..i-1]) for i from `scoreFrom` to the end, in order. Token prompts are
 * scored as sent, so prompt position i is token i.
 */
export function windowLogprobsFromEcho(
  choice: CompletionChoice,
  tokens: number[],
  scoreFrom: number,
): number[] {
  const logprobs = choice.logprobs;
  // Echo gives the prompt's tokens and then the one generated token (max_tokens: 1); without echo, the
  // generated token alone.
  if (!logprobs || logprobs.token_logprobs.length <= 1) {
    throw new NoPromptLogprobs(
      `the response has ${logprobs?.token_logprobs.length ?? 0} log-probabilities for a prompt of ${tokens.length} tokens: echo was ignored`,
    );
  }
  checkEchoLogprobs(logprobs);
  checkEchoedTokenIds(logprobs, tokens);
  const values = logprobs.token_logprobs;
  return readPositions((position) => values[position], tokens.length, scoreFrom);
}

/** vLLM's prompt_logprobs: one entry per prompt token, the prompt's own token found by its id. */
export function windowLogprobsFromPromptLogprobs(
  entries: PromptLogprobs,
  tokens: number[],
  scoreFrom: number,
): number[] {
  if (entries.length !== tokens.length) {
    throw badAnswer(`prompt_logprobs has ${entries.length} entries for a prompt of ${tokens.length} tokens`);
  }
  return readPositions(
    (position) => entries[position]?.[String(tokens[position])]?.logprob ?? null,
    tokens.length,
    scoreFrom,
  );
}

function readPositions(
  valueAt: (position: number) => number | null | undefined,
  length: number,
  scoreFrom: number,
): number[] {
  const out: number[] = [];
  for (let position = scoreFrom; position < length; position++) {
    const value = valueAt(position);
    if (value === null || value === undefined)
      throw new ResponseShapeError(`prompt token ${position} has no log-probability`);
    checkLogprob(value, `prompt token ${position}`);
    out.push(value);
  }
  return out;
}
