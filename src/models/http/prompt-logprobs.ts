import type { LoglikelihoodResult } from '../backend.js';
import { badAnswer, checkLogprob, spellsPrompt } from './answer-checks.js';
import { codePoints, type PromptLogprobs } from './completions-response.js';
import { ResponseShapeError } from './http-client.js';

/**
 * vLLM's `prompt_logprobs` extension to /v1/completions: asked with `prompt_logprobs: k`, each choice
 * carries one entry per prompt token, null for the first (nothing conditions it), else a map from token
 * id to `{logprob, rank, decoded_token}` holding the prompt's own token and the top k. It scores the
 * prompt without echoing it back, and ranks say directly whether a token was the greedy one.
 */
type Entry = NonNullable<PromptLogprobs[number]>;

interface PromptToken {
  logprob: number | null;
  greedy: boolean;
  text: string;
}

/**
 * The prompt's own token at each position. With token ids the id picks it; in text mode the entry
 * ranked lowest is the prompt's token (the others are the top k, which it joins only when it is one of
 * them, making it the sole entry at rank 1 when k = 1).
 */
function promptTokens(entries: PromptLogprobs, ids?: number[]): PromptToken[] {
  return entries.map((entry, position) => {
    if (entry === null) return { logprob: null, greedy: false, text: '' };
    for (const [id, value] of Object.entries(entry)) {
      checkLogprob(value.logprob, `prompt_logprobs entry ${position} (token ${id})`);
    }
    let chosen: [string, Entry[string]] | undefined;
    if (ids) {
      const own = entry[String(ids[position])];
      if (own) chosen = [String(ids[position]), own];
    } else {
      for (const pair of Object.entries(entry)) {
        if (!chosen || (pair[1].rank ?? 1) > (chosen[1].rank ?? 1)) chosen = pair;
      }
    }
    if (!chosen) {
      throw badAnswer(`prompt_logprobs entry ${position} lacks the prompt's token ${ids?.[position]}`);
    }
    const best = Math.max(...Object.values(entry).map((value) => value.logprob));
    const value = chosen[1];
    // Rank when the server gives it; else compare with the best log-probability, as echo's top_logprobs.
    const greedy = value.rank != null ? value.rank === 1 : value.logprob >= best - 1e-9;
    return { logprob: value.logprob, greedy, text: value.decoded_token ?? '' };
  });
}

/**
 * Token-id mode: positions [contextTokens, promptTokens) are the continuation. vLLM's list has exactly
 * one entry per prompt token sent.
 */
export function scoreTokenPromptLogprobs(
  entries: PromptLogprobs,
  prompt: number[],
  contextTokens: number,
): LoglikelihoodResult {
  if (entries.length !== prompt.length) {
    throw badAnswer(`prompt_logprobs has ${entries.length} entries for a prompt of ${prompt.length} tokens`);
  }
  const tokens = promptTokens(entries, prompt);
  for (let i = contextTokens; i < tokens.length; i++) {
    // Worded as the echo path words it, so both paths fail a request the same way.
    if (tokens[i].logprob === null) throw new ResponseShapeError(`prompt token ${i} has no log-probability`);
  }
  return sum(tokens.slice(contextTokens), contextTokens);
}

/**
 * Text mode: the continuation is every token that ends after the context does (a token straddling the
 * boundary counts with the continuation, as in the echo path). Offsets come from the decoded tokens; the
 * first token, which has no entry, covers whatever of the prompt the others do not (nothing for a BOS).
 */
export function scoreTextPromptLogprobs(
  entries: PromptLogprobs,
  prompt: string,
  contextLength: number,
): LoglikelihoodResult {
  const tokens = promptTokens(entries);
  const rest = tokens
    .slice(1)
    .map((token) => token.text)
    .join('');
  if (!spellsPrompt(rest, prompt)) {
    throw new ResponseShapeError(
      "prompt_logprobs' decoded tokens do not spell the prompt (a byte-level tokenizer splits characters); use tokenized_requests=true",
    );
  }
  let end = codePoints(prompt) - codePoints(rest);
  const scored: PromptToken[] = [];
  let first = -1;
  tokens.forEach((token, position) => {
    if (position > 0) end += codePoints(token.text);
    if (end > contextLength) {
      if (first < 0) first = position;
      scored.push(token);
    }
  });
  if (scored.length === 0) {
    throw badAnswer('no prompt token covers the continuation (prompt_logprobs)');
  }
  return sum(scored, first);
}

function sum(tokens: PromptToken[], firstPosition: number): LoglikelihoodResult {
  let logprob = 0;
  let isGreedy = true;
  tokens.forEach((token, index) => {
    if (token.logprob === null) {
      throw new ResponseShapeError(
        `prompt token ${firstPosition + index} has no log-probability: the context is empty and the server added no BOS token; use tokenized_requests=true (assay then prefixes a start token)`,
      );
    }
    logprob += token.logprob;
    if (!token.greedy) isGreedy = false;
  });
  return { logprob, isGreedy };
}
