/**
 * Pairs the per-sample scores of two runs on the same items. The key is the doc's content hash
 * (`doc_hash`), not its position, so runs that ordered or limited docs differently still pair
 * correctly; a doc that appears k times in a dataset pairs its i-th occurrence with the other run's i-th.
 *
 * Timed-out docs (a request over the run's latency cap) have no score. Leaving them out silently would
 * gate or compare the answered docs as if they were the task, so `timeoutsAs` decides: `refuse` (the
 * default) throws, `skip` leaves them out and counts them, `wrong` scores them as the worst score.
 */
import { AssayError } from '../../errors.js';
import type { SampleScore } from '../read-samples.js';

export interface ComparisonTarget {
  task: string;
  metric: string;
  filter: string;
  higherIsBetter: boolean;
}

/** What a timed-out doc counts as in compare and gate. */
export type TimeoutTreatment = 'wrong' | 'skip' | 'refuse';

export const TIMEOUT_TREATMENTS: readonly TimeoutTreatment[] = ['wrong', 'skip', 'refuse'];

export interface PairingOptions {
  /** Default `refuse`. */
  timeoutsAs?: TimeoutTreatment;
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
  /** Timed-out samples: scored as the worst score (`wrong`) or left out (`skip`). */
  timedOutA: number;
  timedOutB: number;
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

/** A run's scores of one target by doc key (`doc_hash#occurrence`: the i-th copy of a doc pairs with the i-th). */
export interface Keyed {
  scored: Map<string, { docId: number; score: number }>;
  unscored: number;
  /** Keys of the timed-out samples (in `scored` with score NaN when they count as wrong). */
  timedOut: string[];
}

export function keyed(samples: SampleScore[], target: ComparisonTarget, treatment: TimeoutTreatment): Keyed {
  const scored = new Map<string, { docId: number; score: number }>();
  const seen = new Map<string, number>();
  const timedOut: string[] = [];
  let unscored = 0;
  for (const sample of samples) {
    if (sample.filter !== target.filter) continue;
    const occurrence = seen.get(sample.docHash) ?? 0;
    seen.set(sample.docHash, occurrence + 1);
    const key = `${sample.docHash}#${occurrence}`;
    if (sample.timedOut && sample.error === undefined) {
      timedOut.push(key);
      // A placeholder keeps the doc's place in the pairing order; the worst score is known at the end.
      if (treatment === 'wrong') scored.set(key, { docId: sample.docId, score: Number.NaN });
      continue;
    }
    const score = scoreOf(sample, target);
    if (score === undefined) {
      unscored++;
      continue;
    }
    scored.set(key, { docId: sample.docId, score });
  }
  return { scored, unscored, timedOut };
}

/**
 * The worst score a timed-out doc counts as: 0 (or 1 for lower-is-better metrics) when every score of
 * the target in both runs lies in [0, 1]. Other metrics have no known worst score.
 */
function worstScore(target: ComparisonTarget, sides: Keyed[]): number {
  for (const side of sides)
    for (const { docId, score } of side.scored.values())
      if (!Number.isNaN(score) && !(score >= 0 && score <= 1))
        throw new AssayError(
          'bad_option',
          `\`timeoutsAs\` wrong scores a timed-out doc as the worst score, which is known only for scores in [0, 1]; ${target.metric} of task ${target.task} has ${score} (doc ${docId}). Use \`timeoutsAs\` skip to leave timed-out docs out, or rerun without the latency cap`,
          { location: { field: 'timeoutsAs', task: target.task } },
        );
  return target.higherIsBetter ? 0 : 1;
}

/** Scored docs of `side` whose partner in `other` timed out and was left out (`skip`). */
function partnersLeftOut(side: Keyed, other: Keyed): number {
  let count = 0;
  for (const key of other.timedOut) if (side.scored.has(key) && !other.scored.has(key)) count++;
  return count;
}

export function pairScores(
  samplesA: SampleScore[],
  samplesB: SampleScore[],
  target: ComparisonTarget,
  options: PairingOptions = {},
): PairedScores {
  const treatment = options.timeoutsAs ?? 'refuse';
  const left = keyed(samplesA, target, treatment);
  const right = keyed(samplesB, target, treatment);
  if (treatment === 'refuse' && left.timedOut.length + right.timedOut.length > 0) {
    const counts = [
      ...(left.timedOut.length ? [`${left.timedOut.length} in run A`] : []),
      ...(right.timedOut.length ? [`${right.timedOut.length} in run B`] : []),
    ].join(' and ');
    throw new AssayError(
      'incompatible_runs',
      `task ${target.task} has timed-out docs (over the latency cap), ${counts}: they have no score, and a verdict on the answered docs alone would look like one on the whole task. Rerun without the cap, or set \`timeoutsAs\` to 'wrong' (count them as wrong) or 'skip' (compare the docs answered in both runs)`,
      { location: { task: target.task } },
    );
  }
  if (treatment === 'wrong' && left.timedOut.length + right.timedOut.length > 0) {
    const worst = worstScore(target, [left, right]);
    for (const side of [left, right])
      for (const key of side.timedOut) {
        const entry = side.scored.get(key);
        if (entry) entry.score = worst;
      }
  }
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
    // A doc whose partner timed out (and was left out) is counted there, not as unpaired.
    unpairedA: left.scored.size - docIds.length - partnersLeftOut(left, right),
    unpairedB: right.scored.size - docIds.length - partnersLeftOut(right, left),
    unscoredA: left.unscored,
    unscoredB: right.unscored,
    timedOutA: left.timedOut.length,
    timedOutB: right.timedOut.length,
  };
}
