/**
 * Corpus BLEU as lm-eval reports it: `sacrebleu.corpus_bleu(preds, refs).score` with sacreBLEU's defaults —
 * 13a tokenization, case-sensitive, n-grams up to 4, `exp` smoothing (each order with no match gets
 * precision 100 / (2^k · total) for its k-th occurrence), no effective order, brevity penalty from the
 * closest reference length (ties to the shorter). 0–100 scale. Written from sacreBLEU 2.x's algorithm
 * (metrics/bleu.py), not translated from its code.
 */

import { pythonStrip } from '../python/semantics/string.js';
import { readCorpus, referencePredictionItem, segmentReferences } from './corpus-items.js';
import { tokenize13a } from './tokenizer-13a.js';
import type { MetricDefinition } from './types.js';

const MAX_ORDER = 4;

function ngramCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let order = 1; order <= MAX_ORDER; order++) {
    for (let start = 0; start + order <= tokens.length; start++) {
      // A separator that cannot occur inside a token (tokens never contain spaces).
      const key = tokens.slice(start, start + order).join(' ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

function tokens(text: string): string[] {
  const tokenized = tokenize13a(pythonStrip(text, null, 'right'));
  return tokenized === '' ? [] : tokenized.split(' ');
}

/** sacreBLEU picks the reference length closest to the hypothesis length, the shorter on a tie. */
function closestReferenceLength(hypothesisLength: number, referenceLengths: readonly number[]): number {
  let bestDifference = -1;
  let best = -1;
  for (const length of referenceLengths) {
    const difference = Math.abs(hypothesisLength - length);
    if (bestDifference === -1 || difference < bestDifference) {
      bestDifference = difference;
      best = length;
    } else if (difference === bestDifference && length < best) {
      best = length;
    }
  }
  return best;
}

export interface BleuStatistics {
  hypothesisLength: number;
  referenceLength: number;
  correct: number[];
  total: number[];
}

export function bleuStatistics(
  hypotheses: readonly string[],
  referencesPerSegment: readonly string[][],
): BleuStatistics {
  const statistics: BleuStatistics = {
    hypothesisLength: 0,
    referenceLength: 0,
    correct: new Array(MAX_ORDER).fill(0),
    total: new Array(MAX_ORDER).fill(0),
  };
  hypotheses.forEach((hypothesis, index) => {
    const referenceMax = new Map<string, number>();
    const referenceLengths: number[] = [];
    for (const reference of referencesPerSegment[index]) {
      const referenceTokens = tokens(reference);
      referenceLengths.push(referenceTokens.length);
      for (const [ngram, count] of ngramCounts(referenceTokens)) {
        referenceMax.set(ngram, Math.max(referenceMax.get(ngram) ?? 0, count));
      }
    }
    const hypothesisTokens = tokens(hypothesis);
    statistics.hypothesisLength += hypothesisTokens.length;
    statistics.referenceLength += closestReferenceLength(hypothesisTokens.length, referenceLengths);
    for (const [ngram, count] of ngramCounts(hypothesisTokens)) {
      const order = ngram.split(' ').length - 1;
      statistics.total[order] += count;
      statistics.correct[order] += Math.min(count, referenceMax.get(ngram) ?? 0);
    }
  });
  return statistics;
}

/** BLEU from summed statistics, sacreBLEU's `compute_bleu` with `exp` smoothing. */
export function bleuScore({ hypothesisLength, referenceLength, correct, total }: BleuStatistics): number {
  let brevityPenalty = 1;
  if (hypothesisLength < referenceLength) {
    brevityPenalty = hypothesisLength > 0 ? Math.exp(1 - referenceLength / hypothesisLength) : 0;
  }
  if (!correct.some((count) => count > 0)) return 0;
  const precisions = new Array<number>(MAX_ORDER).fill(0);
  let smoothing = 1;
  for (let order = 0; order < MAX_ORDER; order++) {
    if (total[order] === 0) break;
    if (correct[order] === 0) {
      smoothing *= 2;
      precisions[order] = 100 / (smoothing * total[order]);
    } else {
      precisions[order] = (100 * correct[order]) / total[order];
    }
  }
  let logSum = 0;
  // sacreBLEU floors log(0) at -9999999999 (an order with no n-grams at all), which zeroes the score.
  for (const precision of precisions) logSum += precision === 0 ? -9999999999 : Math.log(precision);
  return brevityPenalty * Math.exp(logSum / MAX_ORDER);
}

export function corpusBleu(hypotheses: readonly string[], referencesPerSegment: readonly string[][]): number {
  return bleuScore(bleuStatistics(hypotheses, referencesPerSegment));
}

export function bleuAggregation(items: unknown[]): number {
  const corpus = readCorpus('bleu', items);
  return corpusBleu(
    corpus.hypotheses,
    corpus.hypotheses.map((_, index) => segmentReferences(corpus, index)),
  );
}

export const bleuMetric: MetricDefinition = {
  name: 'bleu',
  higherIsBetter: true,
  defaultAggregation: 'bleu',
  compute: referencePredictionItem,
};
