import { describe, expect, it } from 'vitest';
import {
  concatenatedStderr,
  groupStderr,
  lmEvalPooledStderr,
  stratifiedStderr,
  unweightedMeanStderr,
} from './group-stderr.js';

// Three 0/1 subtasks: 40/100, 30/60 and 20/80 correct; stderrs are lm-eval's mean_stderr of each.
const stderrs = [0.0492365963917331, 0.06509445549041193, 0.048717735184622316];
const sizes = [100, 60, 80];

describe('group stderr', () => {
  it('uses the lm-eval pooled formula for size-weighted groups and √Σse²/k for macro means', () => {
    expect(groupStderr(stderrs, sizes, true)).toEqual({
      stderr: expect.closeTo(0.030811801125666036, 14),
      method: 'lm-eval-pooled',
    });
    expect(groupStderr(stderrs, sizes, false)).toEqual({
      stderr: expect.closeTo(0.03168411498484275, 14),
      method: 'unweighted-mean',
    });
  });

  it('relates to the stratified and concatenated stderrs', () => {
    // numpy: sqrt(sum((n/N)**2 * se**2)); x.std(ddof=1)/sqrt(N) over the 240 concatenated 0/1 scores.
    expect(stratifiedStderr(stderrs, sizes)).toBeCloseTo(0.030812643663255732, 14);
    expect(concatenatedStderr([0.4, 0.5, 0.25], stderrs, sizes)).toBeCloseTo(0.031315308326198124, 14);
    expect(lmEvalPooledStderr(stderrs, sizes)).toBeLessThan(
      concatenatedStderr([0.4, 0.5, 0.25], stderrs, sizes),
    );
    expect(unweightedMeanStderr([0.03])).toBeCloseTo(0.03, 15);
  });

  it('rejects mismatched or empty input', () => {
    expect(() => lmEvalPooledStderr([0.1], [10, 20])).toThrow(/same length/);
    expect(() => lmEvalPooledStderr([], [])).toThrow(/at least one subtask/);
    expect(() => lmEvalPooledStderr([0.1], [0])).toThrow(/positive integer/);
  });
});
