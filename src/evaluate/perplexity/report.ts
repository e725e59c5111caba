/**
 * The `perplexity` block of results.json for one task, computed from per-doc data alone (the scored docs
 * of the task's first filter), so a run and `assay merge` of its shards, which only has the sample logs,
 * build it with the same code from the same numbers in the same order.
 */
import type { ScoredDoc } from '../score.js';
import type { DocPerplexity, PerplexityReport, ReportIdentity } from './types.js';

export function perplexityReport(
  identity: ReportIdentity,
  firstFilterDocs: ScoredDoc[],
  seconds: number,
): PerplexityReport {
  const docs = firstFilterDocs.filter((doc) => doc.error === undefined && doc.ppl !== undefined);
  const texts = docs.map((doc) => doc.ppl as DocPerplexity);
  const countOf = (name: string): number | null => {
    const pairs = docs.map((doc) => doc.metrics[name]);
    return pairs.every(Array.isArray) && pairs.length ? sum(pairs.map((pair) => Number(pair[1]))) : null;
  };
  const totalOf = (pick: (text: DocPerplexity) => number | null): number | null =>
    texts.every((text) => pick(text) !== null) ? sum(texts.map((text) => pick(text) as number)) : null;
  const loglikelihood = sum(texts.map((text) => text.logprob));
  const tokens = totalOf((text) => text.scored_tokens);
  const words = countOf('word_perplexity');
  const bytes = countOf('byte_perplexity') ?? countOf('bits_per_byte');
  const partial = texts.filter((text) => text.scored_spans).length;
  const report: PerplexityReport = {
    ...identity,
    docs: texts.length,
    windows: totalOf((text) => text.windows),
    text_tokens: totalOf((text) => text.text_tokens),
    scored_tokens: tokens,
    counts: { tokens, words, bytes },
    counts_from: partial === 0 ? 'text' : partial === texts.length ? 'scored spans' : 'text and scored spans',
    loglikelihood,
    token_perplexity: tokens ? Math.exp(-loglikelihood / tokens) : null,
    word_perplexity: words ? Math.exp(-loglikelihood / words) : null,
    byte_perplexity: bytes ? Math.exp(-loglikelihood / bytes) : null,
    bits_per_byte: bytes ? -loglikelihood / bytes / Math.LN2 : null,
    seconds,
  };
  if (identity.mode === 'chunked') {
    report.llama_cpp = {
      ...llamaCppFromSums(
        tokens ?? 0,
        sum(texts.map((text) => -text.logprob)),
        sum(texts.map((text) => text.nll_squares ?? 0)),
      ),
      chunks: sum(texts.map((text) => text.windows ?? 0)),
    };
  }
  return report;
}

/**
 * llama-perplexity's "Final estimate: PPL = … +/- …" from the count, Σ nll and Σ nll² of the scored
 * tokens (summed doc by doc, so shards add up to the same numbers).
 */
export function llamaCppFromSums(
  count: number,
  nllSum: number,
  nllSquares: number,
): { ppl: number; ppl_stderr: number | null } {
  const nll = nllSum / count;
  const nll2 = nllSquares / count;
  const ppl = Math.exp(nll);
  const variance = nll2 - nll * nll;
  // llama.cpp prints an error instead of a stderr when the variance is not positive.
  return { ppl, ppl_stderr: variance > 0 && count > 1 ? Math.sqrt(variance / (count - 1)) * ppl : null };
}

export function sum(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
