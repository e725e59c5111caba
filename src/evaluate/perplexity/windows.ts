/**
 * Window layouts of the token-level perplexity modes, as plain data: which tokens the model reads in
 * each window, and which of them are scored. No model here, so every layout is testable on its own.
 */
import { AssayError } from '../../errors.js';
import type { TokenWindow } from '../../models/backend.js';

export interface LaidOut {
  windows: TokenWindow[];
  /**
   * Positions in `sequence` scored by some window, in order (each exactly once). The sequence is what
   * the layout cut into windows; position 0 is never scored.
   */
  scoredPositions: number[];
  /** The token sequence the windows cover (prefix token included). */
  sequence: number[];
  /** How many leading tokens of `sequence` are not text (the prefix or BOS). */
  offset: number;
}

/**
 * Hugging Face's sliding-window perplexity ("Perplexity of fixed-length models",
 * huggingface.co/docs/transformers/perplexity): windows of `maxLength` tokens begin every `stride`
 * tokens; each scores only the tokens after the previous window's end, and the first token of a window
 * (no context) is never scored. The loop stops at the first window that reaches the end.
 *
 * The sequence is the prefix token (BOS, else EOS, as lm-eval's rolling windows use) followed by the
 * text's tokens, so every text token is predicted, as HF's llama tokenizers (which add BOS) do. One
 * deliberate difference: HF weights each window's mean loss by (targets − 1), which undercounts windows
 * after the first by one token; here each scored token counts once, exactly.
 */
export function stridedWindows(
  textTokens: number[],
  prefixToken: number,
  maxLength: number,
  stride: number,
): LaidOut {
  if (!Number.isInteger(maxLength) || maxLength < 2)
    throw new AssayError('bad_option', `\`perplexity.maxLength\` must be an integer ≥ 2, got ${maxLength}`, {
      location: { field: 'perplexity.maxLength' },
    });
  if (!Number.isInteger(stride) || stride < 1 || stride > maxLength) {
    throw new AssayError(
      'bad_option',
      `\`perplexity.stride\` must be an integer in [1, \`perplexity.maxLength\` = ${maxLength}], got ${stride}`,
      { location: { field: 'perplexity.stride' } },
    );
  }
  const sequence = [prefixToken, ...textTokens];
  const windows: TokenWindow[] = [];
  const scoredPositions: number[] = [];
  let previousEnd = 0;
  for (let begin = 0; begin < sequence.length; begin += stride) {
    const end = Math.min(begin + maxLength, sequence.length);
    const firstScored = Math.max(previousEnd, begin + 1);
    if (firstScored < end) {
      windows.push({ tokens: sequence.slice(begin, end), scoreFrom: firstScored - begin });
      for (let position = firstScored; position < end; position++) scoredPositions.push(position);
    }
    previousEnd = end;
    if (end === sequence.length) break;
  }
  return { windows, scoredPositions, sequence, offset: 1 };
}

export interface ChunkedOptions {
  /** Tokens per chunk (llama-perplexity's n_ctx). */
  nCtx: number;
  bos: number | null;
  addBos: boolean;
  /** llama-perplexity refuses texts under 2·n_ctx tokens; per-document task scoring does not. */
  requireTwoChunks: boolean;
}

/**
 * llama.cpp's llama-perplexity (tools/perplexity/perplexity.cpp, `perplexity()`, in the llama.cpp
 * node-llama-cpp 3.21.1 ships): the text is tokenized with BOS when the vocabulary adds one
 * (`common_tokenize(ctx, params.prompt, true)`), cut into `n_chunk = tokens.size() / n_ctx` whole
 * chunks (the remainder is dropped), the first token of every chunk is replaced by BOS
 * (`if (add_bos && j == 0) tokens[seq_start] = llama_vocab_bos(vocab)`), and with `first = n_ctx/2`
 * only the tokens at chunk positions first+1 … n_ctx−1 are scored (`process_logits(…, tokens_data,
 * n_ctx - 1 - first, …)` reads `tokens[i+1]` against the logits of position first+i).
 */
export function chunkedWindows(textTokens: number[], options: ChunkedOptions): LaidOut {
  const { nCtx } = options;
  if (!Number.isInteger(nCtx) || nCtx < 4)
    throw new AssayError('bad_option', `chunk size (n_ctx) must be an integer ≥ 4, got ${nCtx}`);
  const withBos = options.addBos && options.bos !== null;
  const sequence = withBos ? [options.bos as number, ...textTokens] : [...textTokens];
  if (options.requireTwoChunks && sequence.length < 2 * nCtx) {
    throw new AssayError(
      'bad_data',
      `chunked perplexity needs at least ${2 * nCtx} tokens with a context of ${nCtx} (as llama-perplexity); the text tokenizes to only ${sequence.length} tokens`,
    );
  }
  const chunks = Math.floor(sequence.length / nCtx);
  const first = Math.floor(nCtx / 2);
  const windows: TokenWindow[] = [];
  const scoredPositions: number[] = [];
  for (let chunk = 0; chunk < chunks; chunk++) {
    const start = chunk * nCtx;
    const tokens = sequence.slice(start, start + nCtx);
    if (withBos) tokens[0] = options.bos as number;
    windows.push({ tokens, scoreFrom: first + 1 });
    for (let position = first + 1; position < nCtx; position++) scoredPositions.push(start + position);
  }
  return { windows, scoredPositions, sequence, offset: withBos ? 1 : 0 };
}

/** llama-perplexity's "Final estimate: PPL = … +/- …" from per-token negative log-likelihoods. */
export function llamaCppEstimate(negativeLogLikelihoods: number[]): { ppl: number; stderr: number | null } {
  const count = negativeLogLikelihoods.length;
  let nll = 0;
  let nll2 = 0;
  for (const value of negativeLogLikelihoods) {
    nll += value;
    nll2 += value * value;
  }
  nll /= count;
  nll2 /= count;
  const ppl = Math.exp(nll);
  const variance = nll2 - nll * nll;
  // llama.cpp prints an error instead of a stderr when the variance is not positive.
  return { ppl, stderr: variance > 0 && count > 1 ? Math.sqrt(variance / (count - 1)) * ppl : null };
}

/** Runs of consecutive positions, as [start, end) pairs. */
export function contiguousSpans(positions: number[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const position of positions) {
    const last = spans[spans.length - 1];
    if (last && last[1] === position) last[1] = position + 1;
    else spans.push([position, position + 1]);
  }
  return spans;
}
