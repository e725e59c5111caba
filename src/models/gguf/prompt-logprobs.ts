/**
 * Per-token log-probabilities of whole prompts, as vLLM reports them for `echo` + `logprobs` and for
 * `prompt_logprobs` (src/serve): each prompt token's log-probability given the tokens before it (none for
 * the first) and its rank, the most likely alternatives, each token's text, and the distribution of the
 * token after the prompt. Runs in the engine worker.
 *
 * Token texts follow an incremental detokenizer, as vLLM's own did: a token's text is what it adds to
 * the text of the tokens before it (so the texts concatenate to the detokenized prompt), decoded over a
 * short window of preceding tokens so that SentencePiece's word-start spaces come out right, and a token
 * that ends inside a UTF-8 character is "" until the token that completes the character, which carries it
 * whole. Special tokens are spelled as their text ("<|im_start|>"), as a prompt that contains them spells
 * them.
 */

import type { Alternative, PromptLogprobs, PromptLogprobsRequest } from '../spec/token-serving.js';
import { CancelledError, type GgufEngine } from './engine.js';
import type { ScoringInput, Token } from './token-requests.js';

export type { Alternative, PromptLogprobs, PromptLogprobsRequest } from '../spec/token-serving.js';

/** Where the incremental detokenizer stands: tokens[from, read) are the context of the next token's text. */
interface DetokenizerState {
  from: number;
  read: number;
  /** The text of tokens[from, read). */
  prefix: string;
}

export async function promptLogprobs(
  engine: GgufEngine,
  requests: PromptLogprobsRequest[],
  signal?: AbortSignal,
): Promise<PromptLogprobs[]> {
  const answers: PromptLogprobs[] = [];
  for (const [index, request] of requests.entries()) {
    if (signal?.aborted) {
      throw new CancelledError(`scoring cancelled after ${index} of ${requests.length} prompts`);
    }
    const { tokens, topK } = request;
    if (tokens.length === 0) throw new Error('an empty prompt has no log-probabilities');
    if (tokens.length > engine.maxLength) {
      throw new Error(`the prompt has ${tokens.length} tokens; the context holds ${engine.maxLength}`);
    }
    // Every position is scored; the last output's target is a placeholder, read only for its top list.
    const input: ScoringInput = { input: tokens, targets: [...tokens.slice(1), tokens[0]], scoredFrom: 0 };
    const [scored] = await engine.score([input], undefined, Math.max(1, topK));
    const top = scored.top ?? [];
    const ranks = scored.ranks ?? [];
    const detokenize = (list: Token[]) => engine.detokenizeSpecial(list);
    /** The text `token` would add at `position` from `state`: "" while it ends inside a character. */
    const textOf = (state: DetokenizerState, position: number, token: Token): string => {
      const full = detokenize([...tokens.slice(state.from, position), token]);
      if (full.length <= state.prefix.length || full.endsWith('\uFFFD')) return '';
      return full.slice(state.prefix.length);
    };
    const named = (state: DetokenizerState, position: number, list: Array<[Token, number]>) =>
      list
        .slice(0, topK)
        .map(([token, logprob]): Alternative => [token, logprob, textOf(state, position, token)]);
    let state: DetokenizerState = { from: 0, read: 0, prefix: '' };
    const pieces: string[] = [];
    const alternatives: Array<Alternative[] | null> = [];
    tokens.forEach((token, position) => {
      // Alternatives at output i are candidates for position i + 1.
      alternatives.push(position === 0 ? null : named(state, position, top[position - 1] ?? []));
      const piece = textOf(state, position, token);
      pieces.push(piece);
      if (piece !== '') {
        const read = position + 1;
        state = { from: state.read, read, prefix: detokenize(tokens.slice(state.read, read)) };
      }
    });
    const last = top[tokens.length - 1] ?? [];
    const [nextToken, nextLogprob] = last[0];
    answers.push({
      pieces,
      logprobs: [null, ...scored.logprobs.slice(0, -1)],
      ranks: [null, ...ranks.slice(0, -1)],
      top: alternatives,
      next: {
        token: nextToken,
        logprob: nextLogprob,
        // Tokens at least as likely as the most likely one: itself and any tied with it.
        rank: last.filter(([, logprob]) => logprob >= nextLogprob).length,
        piece: textOf(state, tokens.length, nextToken),
        special: engine.isSpecialToken(nextToken),
        top: named(state, tokens.length, last),
      },
    });
  }
  return answers;
}
