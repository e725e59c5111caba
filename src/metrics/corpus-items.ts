/**
 * lm-eval's `_sacreformat`: corpus metrics get (reference, prediction) items. A reference may be a string
 * or a list of strings; lm-eval transposes them with `zip(*refs)` into reference streams, so a corpus
 * whose items have different numbers of references keeps only as many streams as the shortest item has.
 */
import { AssayError } from '../errors.js';

export interface Corpus {
  hypotheses: string[];
  /** One stream per reference position: streams[k][i] is the k-th reference of segment i. */
  streams: string[][];
}

export function readCorpus(aggregation: string, items: readonly unknown[]): Corpus {
  if (items.length === 0)
    throw new AssayError('scoring_error', `aggregation ${aggregation} needs at least one item`);
  const references: string[][] = [];
  const hypotheses: string[] = [];
  for (const item of items) {
    if (!Array.isArray(item) || item.length !== 2) {
      throw new AssayError(
        'scoring_error',
        `aggregation ${aggregation} expects (reference, prediction) items, got ${JSON.stringify(item)}`,
      );
    }
    const [reference, prediction] = item;
    const referenceList = typeof reference === 'string' ? [reference] : reference;
    if (!Array.isArray(referenceList) || !referenceList.every((text) => typeof text === 'string')) {
      throw new AssayError(
        'scoring_error',
        `aggregation ${aggregation}: a reference must be a string or a list of strings`,
      );
    }
    let hypothesis = prediction;
    if (Array.isArray(hypothesis)) {
      if (hypothesis.length !== 1) {
        throw new AssayError(
          'scoring_error',
          `aggregation ${aggregation}: a prediction must be one string, got ${hypothesis.length}`,
        );
      }
      hypothesis = hypothesis[0];
    }
    if (typeof hypothesis !== 'string') {
      throw new AssayError(
        'scoring_error',
        `aggregation ${aggregation}: a prediction must be a string, got ${JSON.stringify(hypothesis)}`,
      );
    }
    references.push(referenceList);
    hypotheses.push(hypothesis);
  }
  const streamCount = Math.min(...references.map((list) => list.length));
  if (streamCount === 0)
    throw new AssayError('scoring_error', `aggregation ${aggregation}: an item has no reference`);
  const streams = Array.from({ length: streamCount }, (_, stream) => references.map((list) => list[stream]));
  return { hypotheses, streams };
}

/** The references of segment `index`, one from each stream. */
export function segmentReferences(corpus: Corpus, index: number): string[] {
  return corpus.streams.map((stream) => stream[index]);
}

/** (reference, prediction) as lm-eval's passthrough metric functions produce it for generate_until. */
export function referencePredictionItem({
  references,
  prediction,
}: {
  references: string[];
  prediction: string;
}): [string | string[], string] {
  return [references.length === 1 ? references[0] : references, prediction];
}
