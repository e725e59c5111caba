/**
 * Corpus TER as lm-eval reports it: `sacrebleu.corpus_ter(preds, refs).score` with sacreBLEU's defaults —
 * lowercased, whitespace-tokenized, no punctuation normalisation. TER = (shifts + word edits) / reference
 * words, summed over the corpus (with several references: the fewest edits over the average reference
 * length), on the 0–100 scale. Shifts follow Tercom's greedy search as sacreBLEU 2.x implements it
 * (metrics/lib_ter.py): beam-limited edit distance (width 25 around the length-ratio diagonal), shifts of
 * at most 10 words over at most 50 positions, at most 1000 candidate shifts per sentence, ties broken by
 * larger gain, longer span, earlier start, earlier target. Written from that description, not its code.
 *
 * Lower is better. lm-eval registers `ter` with higher_is_better=True (its own docstring says lower is
 * better); assay registers it as false, so comparisons and gates point the right way.
 */

import { pythonSplit, pythonStrip } from '../python/semantics/string.js';
import { readCorpus, referencePredictionItem, segmentReferences } from './corpus-items.js';
import type { MetricDefinition } from './types.js';

const MAX_SHIFT_SIZE = 10;
const MAX_SHIFT_DISTANCE = 50;
const BEAM_WIDTH = 25;
const MAX_SHIFT_CANDIDATES = 1000;
const INFINITY = 1e16;

type Operation = 'nop' | 'sub' | 'ins' | 'del' | 'undefined';

/**
 * Edit distance turning `hypothesis` into `reference`, computed inside a beam around the diagonal, with
 * the operation trace. Preference on equal cost: match/substitution, then deletion, then insertion.
 */
function beamEditDistance(
  hypothesis: readonly string[],
  reference: readonly string[],
): [number, Operation[]] {
  const rows = hypothesis.length;
  const columns = reference.length;
  const cost: number[][] = [Array.from({ length: columns + 1 }, (_, j) => j)];
  const operation: Operation[][] = [new Array<Operation>(columns + 1).fill('ins')];
  const ratio = rows > 0 ? columns / rows : 1;
  const beam = BEAM_WIDTH < ratio / 2 ? Math.ceil(ratio / 2 + BEAM_WIDTH) : BEAM_WIDTH;
  for (let i = 1; i <= rows; i++) {
    const rowCost = new Array<number>(columns + 1).fill(INFINITY);
    const rowOperation = new Array<Operation>(columns + 1).fill('undefined');
    const diagonal = Math.floor(i * ratio);
    const low = Math.max(0, diagonal - beam);
    const high = i === rows ? columns + 1 : Math.min(columns + 1, diagonal + beam);
    const above = cost[i - 1];
    for (let j = low; j < high; j++) {
      if (j === 0) {
        rowCost[0] = above[0] + 1;
        rowOperation[0] = 'del';
        continue;
      }
      const same = hypothesis[i - 1] === reference[j - 1];
      const candidates: Array<[number, Operation]> = [
        [above[j - 1] + (same ? 0 : 1), same ? 'nop' : 'sub'],
        [above[j] + 1, 'del'],
        [rowCost[j - 1] + 1, 'ins'],
      ];
      for (const [candidateCost, candidateOperation] of candidates) {
        if (rowCost[j] > candidateCost) {
          rowCost[j] = candidateCost;
          rowOperation[j] = candidateOperation;
        }
      }
    }
    cost.push(rowCost);
    operation.push(rowOperation);
  }
  const trace: Operation[] = [];
  let i = rows;
  let j = columns;
  while (i > 0 || j > 0) {
    const step = operation[i][j];
    trace.push(step);
    if (step === 'nop' || step === 'sub') {
      i--;
      j--;
    } else if (step === 'ins') {
      j--;
    } else if (step === 'del') {
      i--;
    } else {
      throw new Error(`TER edit distance left the beam at (${i}, ${j})`);
    }
  }
  trace.reverse();
  return [cost[rows][columns], trace];
}

/**
 * Alignment of reference positions to hypothesis positions, read from the trace of the reverse rewrite
 * (reference → hypothesis, so insertions and deletions swap), with per-word error flags.
 */
function alignment(trace: readonly Operation[]) {
  let hypothesisPosition = -1;
  let referencePosition = -1;
  const align = new Map<number, number>();
  const referenceErrors: number[] = [];
  const hypothesisErrors: number[] = [];
  for (const step of trace) {
    // Flipped: an insertion into the reference is a deletion from the hypothesis and vice versa.
    const flipped = step === 'ins' ? 'del' : step === 'del' ? 'ins' : step;
    if (flipped === 'nop' || flipped === 'sub') {
      hypothesisPosition++;
      referencePosition++;
      align.set(referencePosition, hypothesisPosition);
      const error = flipped === 'sub' ? 1 : 0;
      hypothesisErrors.push(error);
      referenceErrors.push(error);
    } else if (flipped === 'ins') {
      hypothesisPosition++;
      hypothesisErrors.push(1);
    } else {
      referencePosition++;
      align.set(referencePosition, hypothesisPosition);
      referenceErrors.push(1);
    }
  }
  return { align, referenceErrors, hypothesisErrors };
}

/** Every (hypothesis start, reference start, length) of equal word spans, in Tercom's search order. */
function* sharedSpans(hypothesis: readonly string[], reference: readonly string[]) {
  for (let hypothesisStart = 0; hypothesisStart < hypothesis.length; hypothesisStart++) {
    for (let referenceStart = 0; referenceStart < reference.length; referenceStart++) {
      if (Math.abs(referenceStart - hypothesisStart) > MAX_SHIFT_DISTANCE) continue;
      let length = 0;
      while (
        hypothesis[hypothesisStart + length] === reference[referenceStart + length] &&
        length < MAX_SHIFT_SIZE
      ) {
        length++;
        yield [hypothesisStart, referenceStart, length] as const;
        if (hypothesis.length === hypothesisStart + length || reference.length === referenceStart + length)
          break;
      }
    }
  }
}

/** Moves words[start, start+length) so that it begins before index `target` of the original list. */
function performShift(words: readonly string[], start: number, length: number, target: number): string[] {
  const span = words.slice(start, start + length);
  if (target < start)
    return [
      ...words.slice(0, target),
      ...span,
      ...words.slice(target, start),
      ...words.slice(start + length),
    ];
  if (target > start + length) {
    return [
      ...words.slice(0, start),
      ...words.slice(start + length, target),
      ...span,
      ...words.slice(target),
    ];
  }
  return [
    ...words.slice(0, start),
    ...words.slice(start + length, length + target),
    ...span,
    ...words.slice(length + target),
  ];
}

const errorCount = (errors: readonly number[], start: number, length: number) =>
  errors.slice(start, start + length).reduce((total, error) => total + error, 0);

/** The best single shift: [gain, shifted words, candidates checked so far]. */
function bestShift(
  hypothesis: string[],
  reference: readonly string[],
  checkedBefore: number,
): [number, string[], number] {
  const [baseCost, trace] = beamEditDistance(hypothesis, reference);
  const { align, referenceErrors, hypothesisErrors } = alignment(trace);
  let checked = checkedBefore;
  let best: { gain: number; length: number; start: number; target: number; words: string[] } | undefined;
  for (const [hypothesisStart, referenceStart, length] of sharedSpans(hypothesis, reference)) {
    if (errorCount(hypothesisErrors, hypothesisStart, length) === 0) continue;
    if (errorCount(referenceErrors, referenceStart, length) === 0) continue;
    const aligned = align.get(referenceStart) as number;
    if (hypothesisStart <= aligned && aligned < hypothesisStart + length) continue;
    let previousTarget = -1;
    for (let offset = -1; offset < length; offset++) {
      let target: number;
      if (referenceStart + offset === -1) target = 0;
      else if (align.has(referenceStart + offset))
        target = (align.get(referenceStart + offset) as number) + 1;
      else break;
      if (target === previousTarget) continue;
      previousTarget = target;
      const words = performShift(hypothesis, hypothesisStart, length, target);
      const gain = baseCost - beamEditDistance(words, reference)[0];
      checked++;
      // Tercom's ranking: larger gain, then longer span, then earlier start, then earlier target.
      if (
        !best ||
        gain > best.gain ||
        (gain === best.gain &&
          (length > best.length ||
            (length === best.length &&
              (hypothesisStart < best.start || (hypothesisStart === best.start && target < best.target)))))
      ) {
        best = { gain, length, start: hypothesisStart, target, words };
      }
    }
    if (checked >= MAX_SHIFT_CANDIDATES) break;
  }
  return best ? [best.gain, best.words, checked] : [0, hypothesis, checked];
}

/** [edits, reference length] for one hypothesis against one reference (both already tokenized). */
export function translationEditRate(
  hypothesis: readonly string[],
  reference: readonly string[],
): [number, number] {
  if (reference.length === 0) return [hypothesis.length, 0];
  let words = [...hypothesis];
  let shifts = 0;
  let checked = 0;
  for (;;) {
    const [gain, shifted, checkedNow] = bestShift(words, reference, checked);
    checked = checkedNow;
    if (checked >= MAX_SHIFT_CANDIDATES || gain <= 0) break;
    shifts++;
    words = shifted;
  }
  return [shifts + beamEditDistance(words, reference)[0], reference.length];
}

/** sacreBLEU's default TER tokenizer: lowercase and split on whitespace. */
function terTokens(text: string): string[] {
  return pythonSplit(pythonStrip(text, null, 'right').toLowerCase());
}

export function corpusTer(hypotheses: readonly string[], referencesPerSegment: readonly string[][]): number {
  let edits = 0;
  let referenceLength = 0;
  hypotheses.forEach((hypothesis, index) => {
    const words = terTokens(hypothesis);
    const references = referencesPerSegment[index];
    let bestEdits = INFINITY;
    let lengths = 0;
    for (const reference of references) {
      const [segmentEdits, length] = translationEditRate(words, terTokens(reference));
      lengths += length;
      if (segmentEdits < bestEdits) bestEdits = segmentEdits;
    }
    edits += bestEdits;
    referenceLength += lengths / references.length;
  });
  const score = referenceLength > 0 ? edits / referenceLength : edits > 0 ? 1 : 0;
  return 100 * score;
}

export function terAggregation(items: unknown[]): number {
  const corpus = readCorpus('ter', items);
  return corpusTer(
    corpus.hypotheses,
    corpus.hypotheses.map((_, index) => segmentReferences(corpus, index)),
  );
}

export const terMetric: MetricDefinition = {
  name: 'ter',
  higherIsBetter: false,
  defaultAggregation: 'ter',
  compute: referencePredictionItem,
};
