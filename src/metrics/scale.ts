/**
 * The range each metric's task value lies in, so a summary never averages numbers that do not share a
 * scale (a perplexity of 8.6 and an accuracy of 1.0 make no mean). Exhaustive over the registry's names,
 * plus the code metrics the sandbox scores (code_exec, pass@k). Ranges follow each metric's definition:
 * lm-eval's and sacrebleu's for theirs (BLEU and chrF in points, 0-100; TER can pass 100).
 */
import type { MetricName } from './registry.js';

export type MetricScale =
  | '[0, 1]'
  | '[-1, 1]'
  | '[0, 2]'
  | '[0, 100]'
  | '[0, inf)'
  | '[1, inf)'
  | '(-inf, 0]';

const SCALES: Record<MetricName, MetricScale | null> = {
  acc: '[0, 1]',
  acc_norm: '[0, 1]',
  acc_bytes: '[0, 1]',
  acc_mutual_info: '[0, 1]',
  // Sum of log-probabilities of the continuation.
  likelihood: '(-inf, 0]',
  // Multi-class Brier score: Σ over choices of (p − 1[gold])², per doc.
  brier_score: '[0, 2]',
  perplexity: '[1, inf)',
  word_perplexity: '[1, inf)',
  byte_perplexity: '[1, inf)',
  token_perplexity: '[1, inf)',
  bits_per_byte: '[0, inf)',
  exact_match: '[0, 1]',
  f1: '[0, 1]',
  mcc: '[-1, 1]',
  squad_f1: '[0, 1]',
  bleu: '[0, 100]',
  chrf: '[0, 100]',
  ter: '[0, inf)',
  rouge1: '[0, 1]',
  rouge2: '[0, 1]',
  rougeL: '[0, 1]',
  rouge_l: '[0, 1]',
  substring_contains: '[0, 1]',
  jsonl_exact_match: '[0, 1]',
  multiple_choice: '[0, 1]',
  // The task's own verdict scale (judge.verdict), which the registry does not know.
  llm_judge: null,
  // --predict_only's placeholder: not a score.
  bypass: null,
};

/** The scale of a metric's value; null when assay does not know it (a task's own metric). */
export function metricScale(name: string): MetricScale | null {
  if (Object.hasOwn(SCALES, name)) return SCALES[name as MetricName];
  if (name === 'code_exec' || /^pass@\d+$/.test(name)) return '[0, 1]';
  return null;
}
