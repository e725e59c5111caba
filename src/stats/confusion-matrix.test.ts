import { describe, expect, it } from 'vitest';
import { confusionMatrix } from './confusion-matrix.js';

describe('confusionMatrix', () => {
  it("lays out rows as the reference and columns as the judge, as sklearn's confusion_matrix(y_true, y_pred)", () => {
    // sklearn docs example: confusion_matrix(["cat","ant","cat","cat","ant","bird"],
    // ["ant","ant","cat","cat","ant","cat"], labels=["ant","bird","cat"]) == [[2,0,0],[0,0,1],[1,0,2]].
    const reference = ['cat', 'ant', 'cat', 'cat', 'ant', 'bird'];
    const judged = ['ant', 'ant', 'cat', 'cat', 'ant', 'cat'];
    expect(confusionMatrix(reference, judged, ['ant', 'bird', 'cat'])).toEqual({
      labels: ['ant', 'bird', 'cat'],
      counts: [
        [2, 0, 0],
        [0, 0, 1],
        [1, 0, 2],
      ],
      total: 6,
      accuracy: 4 / 6,
    });
  });

  it('sorts the labels when none are given and names an unlisted label', () => {
    expect(confusionMatrix([2, 1], [1, 1]).labels).toEqual([1, 2]);
    expect(() => confusionMatrix(['a'], ['b'], ['a'])).toThrow(/item 0: "b"/);
  });
});
