import { describe, expect, it } from 'vitest';
import { f1Aggregation, f1Metric } from './f1.js';
import { matthewsCorrcoefAggregation } from './matthews-corrcoef.js';

const pairs = (golds: unknown[], preds: unknown[]) => golds.map((gold, index) => [gold, preds[index]]);

// Worked by hand: golds [1,0,1,1,0,0,1,0], preds [1,0,0,1,1,0,1,0] → tp 3, fp 1, fn 1, tn 3.
// Binary F1 (sklearn's default average='binary', pos_label=1) = 2·3 / (2·3 + 1 + 1) = 0.75.
// MCC = (tp·tn − fp·fn) / √((tp+fp)(tp+fn)(tn+fp)(tn+fn)) = (9 − 1) / √(4·4·4·4) = 0.5.
const GOLDS = [1, 0, 1, 1, 0, 0, 1, 0];
const PREDS = [1, 0, 0, 1, 1, 0, 1, 0];

describe('f1 aggregation (sklearn f1_score with defaults, as lm-eval calls it)', () => {
  it('is binary F1 of label 1', () => {
    expect(f1Aggregation(pairs(GOLDS, PREDS))).toBe(0.75);
  });

  it('treats booleans as 0/1 and scores 0 with no positives at all', () => {
    expect(f1Aggregation(pairs([true, false], [true, true]))).toBeCloseTo(2 / 3, 15);
    expect(f1Aggregation(pairs([0, 0], [0, 0]))).toBe(0);
  });

  it('refuses what sklearn refuses: multiclass labels, two labels without 1, mixed types', () => {
    expect(() => f1Aggregation(pairs([0, 1, 2], [0, 1, 1]))).toThrow(/binary F1.*3 labels/);
    expect(() => f1Aggregation(pairs([0, 2], [2, 2]))).toThrow(/positive label 1/);
    expect(() => f1Aggregation(pairs([0, 'a'], [0, 1]))).toThrow(/mix numbers and strings/);
    expect(() => f1Aggregation([[[0, 1], 1]])).toThrow(/single class label/);
  });

  it('passes (reference, prediction) through for generated answers, as lm-eval does', () => {
    expect(f1Metric.compute?.({ references: ['yes', 'y'], prediction: 'no', kwargs: {} })).toEqual([
      'yes',
      'no',
    ]);
  });
});

describe('matthews_corrcoef aggregation', () => {
  it('matches the hand-computed binary value', () => {
    expect(matthewsCorrcoefAggregation(pairs(GOLDS, PREDS))).toBe(0.5);
  });

  it('uses the multiclass confusion-matrix form', () => {
    // numpy on this machine, sklearn's formula: C from golds [0,1,2,0,1,2] / preds [0,2,1,0,0,2];
    // t = C.sum(1), p = C.sum(0), n = 6, (trace(C)·n − t·p) / sqrt((n² − p·p)(n² − t·t)) = 0.26111648393354675
    expect(matthewsCorrcoefAggregation(pairs([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 2]))).toBe(
      0.26111648393354675,
    );
  });

  it('is 0 when a side is constant (sklearn returns 0.0 there)', () => {
    expect(matthewsCorrcoefAggregation(pairs([1, 1], [1, 1]))).toBe(0);
    expect(matthewsCorrcoefAggregation(pairs([0, 1], [1, 1]))).toBe(0);
  });
});
