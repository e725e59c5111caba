/**
 * ROUGE-1, ROUGE-2 and ROUGE-L F-measure as Google's `rouge_score` package computes them with its default
 * tokenizer: lowercase, every run of characters other than a–z/0–9 is a separator, tokens are the runs of
 * [a-z0-9] (so "café" → "caf"), no stemming. ROUGE-N counts clipped n-gram overlaps; ROUGE-L uses the
 * longest common subsequence. With several references the best F-measure is kept (`score_multi`).
 * 0–1 scale. The Porter stemmer (`use_stemmer=True`) is not implemented and is refused.
 */
import { AssayError } from '../errors.js';
import { checkKwargs, requireReferences } from './kwargs.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

export function rougeTokenize(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function ngrams(tokens: readonly string[], order: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0; start + order <= tokens.length; start++) {
    const key = tokens.slice(start, start + order).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function rougeN(target: string, prediction: string, order: number): RougeScore {
  const targetNgrams = ngrams(rougeTokenize(target), order);
  const predictionNgrams = ngrams(rougeTokenize(prediction), order);
  let overlap = 0;
  for (const [ngram, count] of targetNgrams) overlap += Math.min(count, predictionNgrams.get(ngram) ?? 0);
  let targetCount = 0;
  for (const count of targetNgrams.values()) targetCount += count;
  let predictionCount = 0;
  for (const count of predictionNgrams.values()) predictionCount += count;
  const precision = overlap / Math.max(predictionCount, 1);
  const recall = overlap / Math.max(targetCount, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** Length of the longest common subsequence of two token lists. */
export function lcsLength(first: readonly string[], second: readonly string[]): number {
  let previous = new Array<number>(second.length + 1).fill(0);
  for (let i = 1; i <= first.length; i++) {
    const current = new Array<number>(second.length + 1).fill(0);
    for (let j = 1; j <= second.length; j++) {
      current[j] =
        first[i - 1] === second[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    }
    previous = current;
  }
  return previous[second.length];
}

export function rougeL(target: string, prediction: string): RougeScore {
  const targetTokens = rougeTokenize(target);
  const predictionTokens = rougeTokenize(prediction);
  if (targetTokens.length === 0 || predictionTokens.length === 0)
    return { precision: 0, recall: 0, fmeasure: 0 };
  const lcs = lcsLength(targetTokens, predictionTokens);
  const precision = lcs / predictionTokens.length;
  const recall = lcs / targetTokens.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function rougeMetric(
  name: 'rouge1' | 'rouge2' | 'rougeL',
  score: (target: string, prediction: string) => RougeScore,
) {
  const definition: MetricDefinition = {
    name,
    higherIsBetter: true,
    defaultAggregation: 'mean',
    compute: ({ references, prediction, kwargs }: GenerationMetricInput) => {
      checkKwargs(name, kwargs, ['use_stemmer']);
      if (kwargs.use_stemmer === true) {
        throw new AssayError(
          'not_supported',
          `metric ${name}: use_stemmer (Porter stemming) is not supported`,
          {
            location: { field: 'metric_list' },
          },
        );
      }
      requireReferences(name, references);
      // score_multi keeps the reference with the highest F-measure (np.argmax: the first on ties).
      return Math.max(...references.map((reference) => score(reference, prediction).fmeasure));
    },
  };
  return definition;
}

export const rouge1Metric = rougeMetric('rouge1', (target, prediction) => rougeN(target, prediction, 1));
export const rouge2Metric = rougeMetric('rouge2', (target, prediction) => rougeN(target, prediction, 2));
export const rougeLMetric = rougeMetric('rougeL', rougeL);
