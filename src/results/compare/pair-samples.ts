/**
 * Pairs the per-sample scores of two runs on the same items. The key is the doc's content hash
 * (`doc_hash`), not its position, so runs that ordered or limited docs differently still pair
 * correctly; a doc that appears k times in a dataset pairs its i-th occurrence with the other run's i-th.
 */
import { AssayError } from '../../errors.js';
import type { SampleScore } from '../read-samples.js';

export interface ComparisonTarget {
  task: string;
  metric: string;
  filter: string;
  higherIsBetter: boolean;
}

export interface PairedScores {
  target: ComparisonTarget;
  /** doc_id in run A of each pair. */
  docIds: number[];
  /** doc_id in run B of each pair (the same doc may sit at another position there). */
  docIdsB: number[];
  a: Float64Array;
  b: Float64Array;
  /** Scored samples of A with no partner in B, and the reverse. */
  unpairedA: number;
  unpairedB: number;
  /** Samples that errored or carry no value for the metric; they pair with nothing. */
  unscoredA: number;
  unscoredB: number;
}

function scoreOf(sample: SampleScore, target: ComparisonTarget): number | undefined {
  if (sample.error !== undefined) return undefined;
  const value = sample.values[target.metric];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const perDoc = perDocumentValue(target.metric, value);
  if (perDoc !== undefined) return Number.isFinite(perDoc) ? perDoc : undefined;
  // f1/mcc/bleu log [gold, prediction] pairs: the score exists only for the whole corpus.
  throw new AssayError(
    'unknown_metric',
    `metric ${target.metric} has no per-sample score (its sample values look like ${JSON.stringify(value).slice(0, 60)}); compare and gate need a metric averaged over samples`,
    { location: { task: target.task } },
  );
}

/**
 * Perplexity metrics log (Σ log p, count) per document, and their corpus value is a ratio of sums.
 * Paired tests need one score per document, so each document's own value is used: bits per byte, or
 * the perplexity of that document alone. A document with a zero count has no value (unscored).
 */
function perDocumentValue(metric: string, value: unknown): number | undefined {
  if (!PAIR_METRICS.has(metric) || !Array.isArray(value) || value.length !== 2) return undefined;
  const [logprob, count] = value.map(Number);
  if (!(count > 0)) return Number.NaN;
  return metric === 'bits_per_byte' ? -logprob / count / Math.LN2 : Math.exp(-logprob / count);
}

const PAIR_METRICS = new Set(['word_perplexity', 'byte_perplexity', 'bits_per_byte', 'token_perplexity']);

function keyed(
  samples: SampleScore[],
  target: ComparisonTarget,
): { scored: Map<string, { docId: number; score: number }>; unscored: number } {
  const scored = new Map<string, { docId: number; score: number }>();
  const seen = new Map<string, number>();
  let unscored = 0;
  for (const sample of samples) {
    if (sample.filter !== target.filter) continue;
    const occurrence = seen.get(sample.docHash) ?? 0;
    seen.set(sample.docHash, occurrence + 1);
    const score = scoreOf(sample, target);
    if (score === undefined) {
      unscored++;
      continue;
    }
    scored.set(`${sample.docHash}#${occurrence}`, { docId: sample.docId, score });
  }
  return { scored, unscored };
}

export function pairScores(
  samplesA: SampleScore[],
  samplesB: SampleScore[],
  target: ComparisonTarget,
): PairedScores {
  const left = keyed(samplesA, target);
  const right = keyed(samplesB, target);
  const docIds: number[] = [];
  const docIdsB: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  for (const [key, entry] of left.scored) {
    const partner = right.scored.get(key);
    if (!partner) continue;
    docIds.push(entry.docId);
    docIdsB.push(partner.docId);
    a.push(entry.score);
    b.push(partner.score);
  }
  return {
    target,
    docIds,
    docIdsB,
    a: Float64Array.from(a),
    b: Float64Array.from(b),
    unpairedA: left.scored.size - docIds.length,
    unpairedB: right.scored.size - docIds.length,
    unscoredA: left.unscored,
    unscoredB: right.unscored,
  };
}
