import { describe, expect, it } from 'vitest';
import { judgeNotes } from './judge-notes.js';
import type { JudgeReport } from './results-file.js';

const base: JudgeReport = {
  metric: 'llm_judge',
  model: 'local-chat-completions',
  model_args: { model: 'judge' },
  rubric_sha256: 'a'.repeat(64),
  mode: 'reference-based',
  verdict: { type: 'score', min: 1, max: 5 },
  requests: 30,
  errored: 0,
};

const agreement = (estimate: number | null, low: number | null, high: number | null) => ({
  estimate,
  low,
  high,
  undefined_replicates: 0,
});

describe('judgeNotes', () => {
  it('says a judge without human labels is taken for the truth, and counts errored samples', () => {
    expect(judgeNotes({ judges: { qa: [{ ...base, errored: 2 }] } })).toEqual([
      'judge: qa llm_judge: judged by local-chat-completions; 2 samples errored (their verdicts count in no metric); ' +
        'no human labels (judge_labels): the score takes the judge for the truth.',
    ]);
    expect(judgeNotes({})).toEqual([]);
  });

  it("prints the agreement with the labels and the PPI++ estimate beside the judge's mean", () => {
    const statistics: NonNullable<JudgeReport['statistics']> = {
      labels_file: 'labels.jsonl',
      confidence: 0.95,
      labelled: 30,
      unlabelled: 0,
      bootstrap: { iterations: 1000, seed: 1234 },
      agreement: {
        accuracy: agreement(0.7, 0.5, 0.85),
        cohen_kappa: agreement(null, null, null),
        krippendorff_alpha: agreement(-0.1416, -0.2581, -0.0543),
        krippendorff_level: 'interval',
      },
      judge_mean: { estimate: 1, standard_error: 0, low: 1, high: 1 },
      labels_mean: { estimate: 1.5, standard_error: 0.147, low: 1.212, high: 1.788 },
      ppi: { estimate: 1.5, standard_error: 0.147, low: 1.2118, high: 1.7882, lambda: 0 },
      moments: { label_variance: 0.65, judge_variance: 0, covariance: 0, documents: 30 },
    };
    const jury = [
      { model: 'a', model_args: {} },
      { model: 'b', model_args: {} },
    ];
    expect(judgeNotes({ judges: { qa: [{ ...base, jury, aggregate: 'majority', statistics }] } })).toEqual([
      "judge: qa llm_judge: judged by a jury of 2 (majority); against 30 human labels: Cohen's κ undefined, " +
        "Krippendorff's α -0.142 [-0.258, -0.054]; PPI++ estimate 1.500 [1.212, 1.788] (λ 0.000) beside the raw " +
        'judge mean 1.000 [1.000, 1.000].',
    ]);
  });

  it('gives a pairwise judge its win rate and position consistency', () => {
    const pairwise = {
      baseline: 'runs/b',
      pairs: 8,
      consistency: 0.75,
      first_position_share: 0.6,
      win_rate: 0.5625,
    };
    expect(judgeNotes({ judges: { qa: [{ ...base, mode: 'pairwise', pairwise }] } })[0]).toContain(
      'win rate 0.563, the same verdict in both orders on 0.750 of the pairs',
    );
  });
});
