/**
 * Scores whole texts in one perplexity mode: rolling through the backend's own loglikelihoodRolling,
 * strided and chunked through windows laid out here (windows.ts) and scored by the backend token by
 * token. Every window of every text goes to the backend in one call, so its sequences stay busy.
 */
import {
  hasTokenScoring,
  type ModelBackend,
  type ProgressSink,
  type TokenizerInfo,
  type TokenScoring,
} from '../../models/backend.js';
import type { PerplexitySettings } from './settings.js';
import { chunkedWindows, contiguousSpans, type LaidOut, stridedWindows } from './windows.js';

export interface TextPerplexity {
  /** Σ log p over the scored tokens (natural log). */
  logprob: number;
  /** Tokens of the text, BOS excluded; null when the backend cannot tokenize. */
  textTokens: number | null;
  /** Tokens whose log-probability is in `logprob`; null when unknown (rolling without a tokenizer). */
  scoredTokens: number | null;
  windows: number | null;
  /** Per scored token, −log p, in text order (token modes only). */
  negativeLogLikelihoods?: number[];
  /**
   * Set when some text tokens are not scored (chunked, or HF's last one-token window): the words and
   * UTF-8 bytes of the scored tokens, detokenized span by span, so word and byte perplexities divide
   * by what was actually scored.
   */
  scoredText?: { words: number; bytes: number };
}

export interface ScoreTextsOptions {
  /** `assay ppl` keeps llama-perplexity's rule (≥ 2 chunks); task documents may be shorter. */
  requireTwoChunks?: boolean;
  progress?: ProgressSink;
}

export async function scoreTexts(
  backend: ModelBackend,
  texts: string[],
  settings: PerplexitySettings,
  tokenizer: TokenizerInfo | undefined,
  options: ScoreTextsOptions = {},
): Promise<TextPerplexity[]> {
  if (settings.mode === 'rolling') return scoreRolling(backend, texts, tokenizer, options.progress);
  if (!hasTokenScoring(backend)) throw new Error('unreachable: checkBackendFor refuses this mode');
  const info = tokenizer as TokenizerInfo;
  const layouts: LaidOut[] = [];
  for (const text of texts) {
    const tokens = await backend.tokenize(text);
    layouts.push(
      settings.mode === 'strided'
        ? stridedWindows(tokens, info.prefixToken, settings.maxLength, settings.stride)
        : chunkedWindows(tokens, {
            nCtx: settings.nCtx,
            bos: info.bos,
            addBos: info.addBos,
            requireTwoChunks: options.requireTwoChunks ?? false,
          }),
    );
  }
  const all = layouts.flatMap((layout) => layout.windows);
  const scored = all.length
    ? await backend.scoreTokenWindows({ requests: all, onProgress: options.progress })
    : [];
  const results: TextPerplexity[] = [];
  let next = 0;
  for (const layout of layouts) {
    const logprobs = scored.slice(next, next + layout.windows.length).flat();
    next += layout.windows.length;
    const textTokens = layout.sequence.length - layout.offset;
    const result: TextPerplexity = {
      logprob: sum(logprobs),
      textTokens,
      scoredTokens: logprobs.length,
      windows: layout.windows.length,
      negativeLogLikelihoods: logprobs.map((value) => -value),
    };
    if (layout.scoredPositions.length !== textTokens) {
      result.scoredText = await countScoredText(backend, layout);
    }
    results.push(result);
  }
  return results;
}

async function scoreRolling(
  backend: ModelBackend,
  texts: string[],
  tokenizer: TokenizerInfo | undefined,
  progress: ProgressSink | undefined,
): Promise<TextPerplexity[]> {
  const answers = await backend.loglikelihoodRolling({
    requests: texts.map((text) => ({ text })),
    onProgress: progress,
  });
  const results: TextPerplexity[] = [];
  for (const [index, answer] of answers.entries()) {
    if (typeof answer !== 'number') throw answer;
    const tokens =
      tokenizer && hasTokenScoring(backend) ? (await backend.tokenize(texts[index])).length : null;
    results.push({
      logprob: answer,
      textTokens: tokens,
      // lm-eval's disjoint windows score every token of the text exactly once.
      scoredTokens: tokens,
      windows:
        tokens === null || !tokenizer ? null : Math.max(0, Math.ceil(tokens / tokenizer.maxWindowTokens)),
    });
  }
  return results;
}

/** Words (lm-eval's whitespace split, empty pieces dropped) and UTF-8 bytes of the scored spans. */
async function countScoredText(
  backend: TokenScoring,
  layout: LaidOut,
): Promise<{ words: number; bytes: number }> {
  let words = 0;
  let bytes = 0;
  for (const [start, end] of contiguousSpans(layout.scoredPositions)) {
    const text = await backend.detokenize(layout.sequence.slice(start, end));
    words += text.split(/\s+/u).filter(Boolean).length;
    bytes += Buffer.byteLength(text, 'utf8');
  }
  return { words, bytes };
}

export function sum(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
