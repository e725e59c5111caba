/**
 * Per-token log-probabilities of whole prompts, as an OpenAI-style server reports them with `echo` and
 * `logprobs` (src/serve): each prompt token's log-probability given the tokens before it (none for the
 * first), the most likely alternatives, the token's text and where it starts, and the distribution of
 * the token after the prompt. Runs in the engine worker.
 */
import { CancelledError, type GgufEngine } from './engine.js';
import type { ScoringInput, Token } from './token-requests.js';

export interface PromptLogprobsRequest {
  tokens: Token[];
  /** Alternatives per position (0: none). */
  topK: number;
}

export interface PromptLogprobs {
  /** Token i's text; the pieces concatenate to the detokenized prompt. */
  pieces: string[];
  /** Where token i's text starts, in UTF-16 code units of the concatenated pieces. */
  offsets: number[];
  /** Null for the first token, which nothing predicts. */
  logprobs: Array<number | null>;
  /** The most likely tokens at each position: id, log-probability, text. */
  top: Array<Alternative[] | null>;
  /** The most likely next token after the prompt, with its log-probability, text and alternatives. */
  next: { token: Token; logprob: number; piece: string; top: Alternative[] };
}

export type Alternative = [Token, number, string];

/** Tokens before the one whose text is wanted: enough for the detokenizer's spacing rules. */
const PIECE_CONTEXT = 4;

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
    const { tokens } = request;
    if (tokens.length === 0) throw new Error('an empty prompt has no log-probabilities');
    if (tokens.length > engine.maxLength) {
      throw new Error(`the prompt has ${tokens.length} tokens; the context holds ${engine.maxLength}`);
    }
    // Every position is scored; the last output's target is a placeholder, read only for its top list.
    const input: ScoringInput = { input: tokens, targets: [...tokens.slice(1), tokens[0]], scoredFrom: 0 };
    const [scored] = await engine.score([input], undefined, Math.max(1, request.topK));
    const top = scored.top ?? [];
    const pieceAt = (i: number, token: Token) => {
      const before = tokens.slice(Math.max(0, i - PIECE_CONTEXT), i);
      return engine.detokenize([...before, token]).slice(engine.detokenize(before).length);
    };
    const pieces = tokens.map((token, i) => pieceAt(i, token));
    // Alternatives at output i are candidates for position i + 1.
    const named = top.map((alternatives, i) =>
      alternatives
        .slice(0, Math.max(1, request.topK))
        .map(([token, logprob]): Alternative => [token, logprob, pieceAt(i + 1, token)]),
    );
    const last = named[tokens.length - 1] ?? [];
    const offsets: number[] = [];
    let at = 0;
    for (const piece of pieces) {
      offsets.push(at);
      at += piece.length;
    }
    answers.push({
      pieces,
      offsets,
      logprobs: [null, ...scored.logprobs.slice(0, -1)],
      top: [null, ...named.slice(0, -1).map((alternatives) => alternatives.slice(0, request.topK))],
      next: { token: last[0][0], logprob: last[0][1], piece: last[0][2], top: last.slice(0, request.topK) },
    });
  }
  return answers;
}
