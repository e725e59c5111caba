import { describe, expect, it } from 'vitest';
import { judgeStatistics, juryAgreement } from './judge-statistics.js';

const labelVerdict = { type: 'label', labels: { correct: 1, incorrect: 0 } } as const;

describe('judgeStatistics', () => {
  // Ten labelled docs (0–9) and four unlabelled (10–13). The judge says correct on 0–5 and 10–13; the
  // humans say correct on 0–3 and 6–7: agreement on 0–3 (correct) and 8–9 (incorrect).
  const judge = new Map<number, number>(
    Array.from({ length: 14 }, (_, id) => [id, id <= 5 || id >= 10 ? 1 : 0]),
  );
  const labels = new Map<number, number>(
    Array.from({ length: 10 }, (_, id) => [id, id <= 3 || id === 6 || id === 7 ? 1 : 0]),
  );
  const statistics = judgeStatistics(judge, labels, labelVerdict, 'labels.jsonl');

  it('counts the labelled and unlabelled docs, and tabulates label verdicts by name', () => {
    expect(statistics).toMatchObject({ labelled: 10, unlabelled: 4, labels_file: 'labels.jsonl' });
    // Rows: the humans' incorrect (4: docs 4, 5, 8, 9), correct (6); columns: the judge's.
    expect(statistics?.agreement.confusion).toEqual({
      labels: ['incorrect', 'correct'],
      counts: [
        [2, 2],
        [2, 4],
      ],
    });
  });

  it('agreement by hand: accuracy 6/10, κ = (0.6 − 0.52)/(1 − 0.52)', () => {
    expect(statistics?.agreement.accuracy.estimate).toBeCloseTo(0.6, 14);
    // Margins: humans 6/10 correct, judge 6/10 correct: p_e = 0.6·0.6 + 0.4·0.4 = 0.52.
    expect(statistics?.agreement.cohen_kappa.estimate).toBeCloseTo(0.08 / 0.48, 12);
    expect(statistics?.agreement.weighted_kappa).toBeUndefined();
    expect(statistics?.agreement.krippendorff_level).toBe('nominal');
    const { low, high } = statistics?.agreement.accuracy ?? {};
    expect(low).toBeLessThanOrEqual(0.6);
    expect(high).toBeGreaterThanOrEqual(0.6);
  });

  it('the judge mean is over all 14 docs; PPI corrects it with the labelled slice', () => {
    expect(statistics?.judge_mean.estimate).toBeCloseTo(10 / 14, 14);
    expect(statistics?.labels_mean.estimate).toBeCloseTo(0.6, 14);
    // λ = 0.5 fixed would give 0.5·mean(Ŷᵘ) + mean(Y − 0.5Ŷ); the tuned λ lies in [0, 1] and the estimate
    // between the two extremes λ = 0 (0.6) and λ = 1 (1 + 0.6 − 0.6 = 1).
    expect(statistics?.ppi.lambda).toBeGreaterThanOrEqual(0);
    expect(statistics?.ppi.lambda).toBeLessThanOrEqual(1);
    const lambda = statistics?.ppi.lambda ?? Number.NaN;
    expect(statistics?.ppi.estimate).toBeCloseTo(lambda * 1 + (0.6 - lambda * 0.6), 12);
  });

  it('gives no statistics for fewer than two labelled docs', () => {
    expect(judgeStatistics(judge, new Map([[0, 1]]), labelVerdict, 'labels.jsonl')).toBeUndefined();
  });
});

describe('juryAgreement', () => {
  it('is 1 for jurors that always agree and counts the docs', () => {
    const scores = new Map<number, number[]>(Array.from({ length: 5 }, (_, id) => [id, [id % 3, id % 3]]));
    expect(juryAgreement(scores, { type: 'score', min: 0, max: 2 })).toMatchObject({
      krippendorff_alpha: { estimate: 1 },
      krippendorff_level: 'interval',
      units: 5,
    });
  });
});
