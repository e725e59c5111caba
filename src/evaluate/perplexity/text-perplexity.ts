/**
 * `assay ppl`'s library side: the perplexity of one text in one mode, with the tokenizer and the
 * counts behind every number. Chunked mode keeps llama-perplexity's rule of at least two chunks.
 */
import { hasTokenScoring, type ModelBackend, type ProgressSink } from '../../models/backend.js';
import { scoreTexts } from './score-texts.js';
import { checkBackendFor, describeParameters, type PerplexityOptions, settle } from './settings.js';
import { tokenizerBlock } from './stage.js';
import type { PerplexityReport } from './types.js';
import { llamaCppEstimate } from './windows.js';

export type TextPerplexityReport = Omit<PerplexityReport, 'docs' | 'mode_source'> & {
  text: { file: string; sha256: string; bytes: number };
  model: Record<string, unknown>;
};

export async function textPerplexity(
  backend: ModelBackend,
  text: string,
  options: PerplexityOptions,
  source: { file: string; sha256: string },
  progress?: ProgressSink,
): Promise<TextPerplexityReport> {
  const mode = options.mode ?? 'rolling';
  checkBackendFor(backend, mode, 'ppl');
  const tokenizer = hasTokenScoring(backend) ? await backend.tokenizerInfo() : undefined;
  const settings = settle({ ...options, mode }, 'cli', tokenizer);
  const started = performance.now();
  const [result] = await scoreTexts(backend, [text], settings, tokenizer, {
    requireTwoChunks: true,
    progress,
  });
  const seconds = (performance.now() - started) / 1000;
  // lm-eval's counts for a whole text (score.ts): re.split(r"\s+") pieces and UTF-8 bytes.
  const words = result.scoredText?.words ?? text.split(/\s+/).length;
  const bytes = result.scoredText?.bytes ?? Buffer.byteLength(text, 'utf8');
  const tokens = result.scoredTokens;
  const report: TextPerplexityReport = {
    mode: settings.mode,
    parameters: describeParameters(settings, tokenizer),
    tokenizer: tokenizerBlock(tokenizer),
    windows: result.windows,
    text_tokens: result.textTokens,
    scored_tokens: tokens,
    counts: { tokens, words, bytes },
    counts_from: result.scoredText ? 'scored spans' : 'text',
    loglikelihood: result.logprob,
    token_perplexity: tokens ? Math.exp(-result.logprob / tokens) : null,
    word_perplexity: Math.exp(-result.logprob / words),
    byte_perplexity: Math.exp(-result.logprob / bytes),
    bits_per_byte: -result.logprob / bytes / Math.LN2,
    seconds,
    text: { ...source, bytes: Buffer.byteLength(text, 'utf8') },
    model: backend.info(),
  };
  if (settings.mode === 'chunked') {
    const estimate = llamaCppEstimate(result.negativeLogLikelihoods ?? []);
    report.llama_cpp = { ppl: estimate.ppl, ppl_stderr: estimate.stderr, chunks: result.windows ?? 0 };
  }
  return report;
}
