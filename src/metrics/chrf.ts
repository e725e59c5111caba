/**
 * Corpus chrF as lm-eval reports it: `sacrebleu.corpus_chrf(preds, refs).score` with sacreBLEU's defaults —
 * character n-grams of order 1–6 with whitespace removed, no word n-grams, β = 2, case-sensitive, and the
 * "effective order" averaging of sacreBLEU 2.x (not eps smoothing): precision and recall are averaged over
 * the orders where both sides have n-grams, then F_β. Per segment the reference with the best F is kept;
 * the statistics are summed over the corpus. 0–100 scale. Characters are code points, as in Python.
 */

import { pythonSplit } from '../python/semantics/string.js';
import { readCorpus, referencePredictionItem, segmentReferences } from './corpus-items.js';
import type { MetricDefinition } from './types.js';

const CHAR_ORDER = 6;
const BETA = 2;

function characterNgrams(text: string): Array<Map<string, number>> {
  const characters = Array.from(pythonSplit(text).join(''));
  const counters: Array<Map<string, number>> = [];
  for (let order = 1; order <= CHAR_ORDER; order++) {
    const counts = new Map<string, number>();
    for (let start = 0; start + order <= characters.length; start++) {
      const key = characters.slice(start, start + order).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    counters.push(counts);
  }
  return counters;
}

/** [hypothesis n-grams, reference n-grams, matches] per order, flattened. */
function matchStatistics(
  hypothesis: Array<Map<string, number>>,
  reference: Array<Map<string, number>>,
): number[] {
  const statistics: number[] = [];
  for (let order = 0; order < CHAR_ORDER; order++) {
    let hypothesisCount = 0;
    let matches = 0;
    for (const [ngram, count] of hypothesis[order]) {
      hypothesisCount += count;
      matches += Math.min(count, reference[order].get(ngram) ?? 0);
    }
    let referenceCount = 0;
    for (const count of reference[order].values()) referenceCount += count;
    // sacreBLEU: hypothesis n-grams only count when the reference has n-grams of that order.
    statistics.push(reference[order].size > 0 ? hypothesisCount : 0, referenceCount, matches);
  }
  return statistics;
}

export function chrfScore(statistics: readonly number[]): number {
  const factor = BETA ** 2;
  let precisionSum = 0;
  let recallSum = 0;
  let effectiveOrder = 0;
  for (let order = 0; order < CHAR_ORDER; order++) {
    const [hypothesisCount, referenceCount, matches] = statistics.slice(3 * order, 3 * order + 3);
    if (hypothesisCount > 0 && referenceCount > 0) {
      precisionSum += matches / hypothesisCount;
      recallSum += matches / referenceCount;
      effectiveOrder++;
    }
  }
  const precision = effectiveOrder === 0 ? 0 : precisionSum / effectiveOrder;
  const recall = effectiveOrder === 0 ? 0 : recallSum / effectiveOrder;
  if (precision + recall === 0) return 0;
  return 100 * (((1 + factor) * precision * recall) / (factor * precision + recall));
}

export function corpusChrf(hypotheses: readonly string[], referencesPerSegment: readonly string[][]): number {
  const totals = new Array<number>(3 * CHAR_ORDER).fill(0);
  hypotheses.forEach((hypothesis, index) => {
    const hypothesisNgrams = characterNgrams(hypothesis);
    let best: number[] | undefined;
    let bestScore = -1;
    for (const reference of referencesPerSegment[index]) {
      const statistics = matchStatistics(hypothesisNgrams, characterNgrams(reference));
      const score = chrfScore(statistics);
      if (score > bestScore) {
        bestScore = score;
        best = statistics;
      }
    }
    (best ?? []).forEach((value, position) => {
      totals[position] += value;
    });
  });
  return chrfScore(totals);
}

export function chrfAggregation(items: unknown[]): number {
  const corpus = readCorpus('chrf', items);
  return corpusChrf(
    corpus.hypotheses,
    corpus.hypotheses.map((_, index) => segmentReferences(corpus, index)),
  );
}

export const chrfMetric: MetricDefinition = {
  name: 'chrf',
  higherIsBetter: true,
  defaultAggregation: 'chrf',
  compute: referencePredictionItem,
};
