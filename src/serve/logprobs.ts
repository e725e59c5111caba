/**
 * The two ways vLLM's /v1/completions reports log-probabilities, built from the engine's scores of a
 * prompt (plus any generated tokens):
 * - the legacy OpenAI `logprobs` object (with `echo`, over the prompt's tokens and then the generated
 *   ones): `tokens`, `token_logprobs` (null for the first prompt token), `top_logprobs` (per position the
 *   token's own entry and the k most likely, keyed by text, k + 1 entries at most; null for the first
 *   prompt token), `text_offset` (code points, counted from the tokens' texts);
 * - vLLM's `prompt_logprobs`: null for the first prompt token, then per position a map from token id to
 *   `{logprob, rank, decoded_token}` holding the prompt's token (its rank among the whole vocabulary:
 *   tokens at least as likely, itself included) and the k most likely (ranks 1..k; the prompt's token,
 *   when it is one of them, appears once).
 * Log-probabilities below −9999 (or −∞) are reported as −9999, as vLLM does.
 */
import type { Alternative, PromptLogprobs } from '../models/spec/token-serving.js';
import { codePointLength } from './token-texts.js';

export interface CompletionLogprobs {
  tokens: string[];
  token_logprobs: Array<number | null>;
  top_logprobs: Array<Record<string, number> | null>;
  text_offset: number[];
}

export interface PromptLogprobEntry {
  logprob: number;
  rank: number;
  decoded_token: string;
}

export type PromptLogprobsList = Array<Record<string, PromptLogprobEntry> | null>;

/** One scored position: the token there, its text, score and rank, and the alternatives. */
export interface ScoredPosition {
  token: number;
  text: string;
  logprob: number | null;
  rank: number | null;
  top: Alternative[] | null;
}

const FLOOR = -9999;

function floor(value: number): number {
  return Math.max(value, FLOOR);
}

/**
 * Positions [from, to) of `scored` with the texts the response shows (`texts[i]`, see token-texts.ts)
 * and `k` alternatives each, which lose the whitespace their position's token lost (`dropped[i]`).
 */
export function scoredPositions(
  scored: PromptLogprobs,
  tokens: number[],
  span: { from: number; to: number; k: number },
  texts: string[],
  dropped?: string[],
): ScoredPosition[] {
  const positions: ScoredPosition[] = [];
  for (let i = span.from; i < span.to; i++) {
    const lost = dropped?.[i] ?? '';
    positions.push({
      token: tokens[i],
      text: texts[i],
      logprob: scored.logprobs[i],
      rank: scored.ranks[i],
      top:
        scored.top[i]
          ?.slice(0, span.k)
          .map(
            ([id, logprob, text]): Alternative => [
              id,
              logprob,
              lost && text.startsWith(lost) ? text.slice(lost.length) : text,
            ],
          ) ?? null,
    });
  }
  return positions;
}

/** The token the engine predicts after the prompt (the scoring shape's one generated token), with `k` alternatives. */
export function nextPosition(scored: PromptLogprobs, k: number): ScoredPosition {
  const { token, piece, logprob, rank, top } = scored.next;
  return { token, text: piece, logprob, rank, top: top.slice(0, k) };
}

/**
 * vLLM's legacy logprobs object over `positions`: per position the token's own entry and its
 * alternatives, at most `logprobs` + 1 entries (the request's `logprobs`).
 */
export function completionLogprobs(positions: ScoredPosition[], logprobs: number): CompletionLogprobs {
  const result: CompletionLogprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  let offset = 0;
  for (const position of positions) {
    result.tokens.push(position.text);
    result.text_offset.push(offset);
    offset += codePointLength(position.text);
    if (position.logprob === null) {
      result.token_logprobs.push(null);
      result.top_logprobs.push(null);
      continue;
    }
    result.token_logprobs.push(floor(position.logprob));
    // The token's own entry first, then the top k; equal texts keep the later value, as a Python dict does.
    const entries: Array<[string, number]> = [[position.text, position.logprob]];
    for (const [id, logprob, text] of position.top ?? []) {
      if (id !== position.token) entries.push([text, logprob]);
    }
    const record: Record<string, number> = {};
    for (const [text, logprob] of entries.slice(0, logprobs + 1)) record[text] = floor(logprob);
    result.top_logprobs.push(record);
  }
  return result;
}

/** vLLM's prompt_logprobs over the prompt's positions. */
export function promptLogprobsList(positions: ScoredPosition[]): PromptLogprobsList {
  return positions.map((position) => {
    if (position.logprob === null || position.rank === null) return null;
    const entries: Record<string, PromptLogprobEntry> = {
      [position.token]: {
        logprob: floor(position.logprob),
        rank: position.rank,
        decoded_token: position.text,
      },
    };
    (position.top ?? []).forEach(([id, logprob, text], index) => {
      entries[id] = { logprob: floor(logprob), rank: index + 1, decoded_token: text };
    });
    return entries;
  });
}
