/**
 * lm-eval's token-level request semantics, independent of any engine: how (context, continuation)
 * becomes tokens, how long inputs are truncated, and how rolling loglikelihood is cut into windows.
 */

export type Token = number;

export interface Tokenizer {
  /** Text to tokens, without BOS. */
  tokenize(text: string): Token[];
  /**
   * Text to tokens with the model's special-token texts read as those tokens (`<|im_start|>` is one token),
   * as a Hugging Face tokenizer and llama-server read a prompt; for prompts a chat template rendered.
   */
  tokenizeSpecial?(text: string): Token[];
  /** BOS's text: a special-parsed prompt that starts with it gets no second BOS (lm-eval's has_bos_prefix). */
  readonly bosText?: string;
  /** BOS prepended to every encoding when the model's metadata asks for it (tokenizer.ggml.add_bos_token). */
  readonly addBos: boolean;
  /** lm-eval's prefix_token_id: BOS, else EOS. Used for an empty context and as the rolling prefix. */
  readonly prefixToken: Token;
  readonly bos: Token | null;
}

/** lm-eval TemplateLM.loglikelihood: trailing whitespace of the context moves onto the continuation. */
export function moveTrailingWhitespace(context: string, continuation: string): [string, string] {
  const trimmed = context.replace(/\s+$/u, '');
  const moved = context.length - trimmed.length;
  if (moved === 0) return [context, continuation];
  return [trimmed, context.slice(trimmed.length) + continuation];
}

/**
 * A text's tokens with BOS as the model's metadata asks. `special`: a chat-templated prompt, whose special
 * tokens are parsed and which gets no BOS when it already starts with BOS's text (HFLM.tok_encode's
 * has_bos_prefix: a template that writes `{{ bos_token }}` is not given a second one).
 */
export function encode(tokenizer: Tokenizer, text: string, special = false): Token[] {
  const parse = special && tokenizer.tokenizeSpecial !== undefined;
  const tokens = parse
    ? (tokenizer.tokenizeSpecial as (text: string) => Token[])(text)
    : tokenizer.tokenize(text);
  const hasBos = parse && Boolean(tokenizer.bosText) && text.startsWith(tokenizer.bosText as string);
  return tokenizer.addBos && tokenizer.bos !== null && !hasBos ? [tokenizer.bos, ...tokens] : tokens;
}

/**
 * lm-eval TemplateLM._encode_pair: whole = enc(ctx + cont), cont = whole[len(enc(ctx)):], so a token
 * that straddles the boundary counts as context. An empty context becomes [prefix token].
 */
export function encodePair(
  tokenizer: Tokenizer,
  rawContext: string,
  rawContinuation: string,
  /** The context is a chat-templated prompt (see encode). */
  special = false,
): { context: Token[]; continuation: Token[] } {
  if (rawContext === '') {
    return { context: [tokenizer.prefixToken], continuation: tokenizer.tokenize(rawContinuation) };
  }
  const [context, continuation] = moveTrailingWhitespace(rawContext, rawContinuation);
  const whole = encode(tokenizer, context + continuation, special);
  const contextLength = encode(tokenizer, context, special).length;
  return { context: whole.slice(0, contextLength), continuation: whole.slice(contextLength) };
}

/**
 * What the model reads and which of its outputs are scored, after HF's left truncation
 * `(ctx + cont)[-(maxLength + 1):][:-1]`: output i predicts input[i + 1] (or the last target).
 */
/** How the engine schedules scoring inputs (EngineOptions.schedule). */
export type Schedule = 'shared' | 'packed' | 'alone';

export interface ScoringInput {
  input: Token[];
  /** The tokens to score; targets[j] is predicted by the output at input position scoredFrom + j. */
  targets: Token[];
  scoredFrom: number;
}

export function scoringInput(context: Token[], continuation: Token[], maxLength: number): ScoringInput {
  const all = [...context, ...continuation].slice(-(maxLength + 1));
  const input = all.slice(0, -1);
  const count = Math.min(continuation.length, all.length - 1);
  const targets = count > 0 ? continuation.slice(-count) : [];
  return { input, targets, scoredFrom: input.length - targets.length };
}

/** lm-eval utils.get_rolling_token_windows, as (context, predicted) pairs. */
export function rollingTokenWindows(
  tokens: Token[],
  prefixToken: Token,
  maxSeqLen: number,
  contextLen: number,
): Array<[Token[], Token[]]> {
  if (contextLen < 1 || contextLen > maxSeqLen) throw new Error('context_len must be in [1, max_seq_len]');
  const windows: Array<[Token[], Token[]]> = [];
  if (tokens.length === 0) return windows;
  const predLen = maxSeqLen - contextLen + 1;
  let predicted = 0;
  const firstSeqLen = Math.min(maxSeqLen, tokens.length);
  windows.push([[prefixToken, ...tokens.slice(0, firstSeqLen - 1)], tokens.slice(0, firstSeqLen)]);
  predicted += firstSeqLen;
  while (predicted < tokens.length) {
    const windowPredLen = Math.min(tokens.length - predicted, predLen);
    const windowEnd = predicted + windowPredLen;
    windows.push([
      tokens.slice(windowEnd - maxSeqLen - 1, windowEnd - 1),
      tokens.slice(windowEnd - windowPredLen, windowEnd),
    ]);
    predicted += windowPredLen;
  }
  return windows;
}

/** lm-eval utils.make_disjoint_window: drop the context tokens that the prediction already covers. */
export function makeDisjointWindow([context, predicted]: [Token[], Token[]]): [Token[], Token[]] {
  return [context.slice(0, context.length - (predicted.length - 1)), predicted];
}

/** The windows HFLM scores for loglikelihood_rolling (context_len = 1), each as a scoring input. */
export function rollingScoringInputs(tokenizer: Tokenizer, text: string, maxLength: number): ScoringInput[] {
  return rollingTokenWindows(tokenizer.tokenize(text), tokenizer.prefixToken, maxLength, 1)
    .map(makeDisjointWindow)
    .map(([context, predicted]) => scoringInput(context, predicted, maxLength));
}

export { cutAtStops } from '../stop-strings.js';
