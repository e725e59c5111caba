/**
 * SQuAD token F1, as the official SQuAD v2.0 evaluation script computes it (HF evaluate `squad_v2`, which
 * lm-eval's squadv2 task uses): normalise (lowercase, drop `string.punctuation`, replace the words a/an/the
 * with a space, collapse whitespace), count shared tokens, F1 = 2PR/(P+R); when either side has no tokens
 * the score is 1 if both are empty, else 0 (v1.1 gives 0 there). Max over references; on the 0–1 scale
 * (the squad_v2 metric reports ×100). Registered as `squad_f1` because lm-eval's `f1` is sklearn's F1.
 */
import { pythonSub } from '../python/semantics/regex.js';
import { PYTHON_PUNCTUATION, pythonSplit, removeCharacters } from '../python/semantics/string.js';
import { checkKwargs } from './kwargs.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export function squadNormalize(text: string): string {
  const noPunctuation = removeCharacters(text.toLowerCase(), PYTHON_PUNCTUATION);
  return pythonSplit(pythonSub('\\b(a|an|the)\\b', ' ', noPunctuation)).join(' ');
}

function tokens(text: string): string[] {
  return text === '' ? [] : pythonSplit(squadNormalize(text));
}

export function squadF1Single(prediction: string, reference: string): number {
  const gold = tokens(reference);
  const predicted = tokens(prediction);
  if (gold.length === 0 || predicted.length === 0) return gold.length === predicted.length ? 1 : 0;
  const goldCounts = new Map<string, number>();
  for (const token of gold) goldCounts.set(token, (goldCounts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = goldCounts.get(token) ?? 0;
    if (left > 0) {
      same++;
      goldCounts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Max over references; no reference counts as the empty answer, as squad_v2 does for unanswerable ones. */
export function squadF1(prediction: string, references: readonly string[]): number {
  const golds = references.length ? references : [''];
  return Math.max(...golds.map((reference) => squadF1Single(prediction, reference)));
}

export const squadF1Metric: MetricDefinition = {
  name: 'squad_f1',
  higherIsBetter: true,
  defaultAggregation: 'mean',
  compute: ({ references, prediction, kwargs }: GenerationMetricInput) => {
    checkKwargs('squad_f1', kwargs, []);
    return squadF1(prediction, references);
  },
};
