import { describe, expect, it } from 'vitest';
import { smallRuns } from '../../test/fixtures/results/small-runs.js';
import { groupedDigits, uncertaintyNotes, wideIntervals } from './uncertainty-notes.js';

describe('uncertaintyNotes', () => {
  it('names the interval method, then one line per task wider than ±10 points with the docs ±2 points needs', () => {
    const lines = uncertaintyNotes(smallRuns);
    expect(lines[0]).toBe('95% CI: Wilson score (0/1 scores). n: the docs each metric covers.');
    // story_cloze_mini's [0.839, 1] is ±8.1 points: no note. 0 of 6: [0, 0.390] is ±19.5. The docs
    // needed at p = 0 follow from the Wilson interval [0, z² / (n + z²)]: z² / (n + z²) ≤ 0.04 → n ≥ 92.2.
    expect(lines[1]).toBe(
      "zero_six: acc's 95% interval [0.000, 0.390] is wider than ±10 points (n=6); ±2 points needs about 93 docs (Wilson score width at the observed 0).",
    );
    const medqa = lines[2].match(
      /^medqa_mini: acc's 95% interval \[0\.022, 0\.471\] is wider than ±10 points \(n=8\); ±2 points needs about (\d),(\d{3}) docs \(Wilson score width at the observed 0\.125\)\.$/,
    );
    expect(medqa).not.toBeNull();
    // SciPy's Wilson half-width at 131/1048 is 0.020033 (too wide) and at 132/1056 0.019957.
    const needed = Number(`${medqa?.[1]}${medqa?.[2]}`);
    expect(needed).toBeGreaterThan(1048);
    expect(needed).toBeLessThanOrEqual(1056);
    expect(lines).toHaveLength(3);
  });

  it('scales the observed width for other means on a 0–1 scale, and says nothing of metrics off that scale', () => {
    const source = {
      results: {
        qa: { alias: 'qa', 'f1,none': 0.4, 'f1_stderr,none': 0.09, 'f1_ci,none': [0.2, 0.6] },
        mt: { alias: 'mt', 'bleu,none': 25, 'bleu_stderr,none': 7, 'bleu_ci,none': [10, 40] },
      },
      versions: {},
      'n-shot': {},
      higher_is_better: {},
      stats: {
        qa: { 'f1,none': { n: 10, ci_level: 0.95, ci_method: 't' } },
        mt: { 'bleu,none': { n: 10, ci_level: 0.95, ci_method: 'percentile-bootstrap' } },
      },
    };
    // ±0.2 at n = 10 shrinks as 1/√n: ±0.02 needs 10 × (0.2 / 0.02)² = 1000.
    expect(wideIntervals(source)).toEqual([
      { name: 'qa', metric: 'f1,none', value: 0.4, interval: [0.2, 0.6], n: 10, needed: 1000, by: 'scaled' },
    ]);
    expect(uncertaintyNotes(source)).toEqual([
      "95% CI: Student's t (other means); percentile bootstrap. n: the docs each metric covers.",
      "qa: f1's 95% interval [0.200, 0.600] is wider than ±10 points (n=10); ±2 points needs about 1,000 docs (the observed width scaled by √(n / n′)).",
    ]);
  });

  it('says nothing for a results file without assay’s statistics (lm-eval’s own)', () => {
    const { stats: _stats, ...lmEval } = smallRuns;
    expect(uncertaintyNotes(lmEval)).toEqual([]);
  });
});

describe('groupedDigits', () => {
  it('writes whole numbers as toLocaleString("en-US") does, without loading ICU', () => {
    const counts = [0, 7, 93, 999, 1000, 1056, 99_999, 100_000, 1_234_567, 987_654_321, -1234, 2 ** 53 - 1];
    for (const count of counts) expect(groupedDigits(count)).toBe(count.toLocaleString('en-US'));
    // Past whole safe numbers it hands over to Intl itself.
    for (const count of [2 ** 60, 1.5, Number.POSITIVE_INFINITY])
      expect(groupedDigits(count)).toBe(count.toLocaleString('en-US'));
  });
});
