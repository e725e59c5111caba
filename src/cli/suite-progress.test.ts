import { describe, expect, it } from 'vitest';
import { suiteProgressLine } from './suite-progress.js';

describe("suite run's progress lines", () => {
  it('gives an ETA from the mean time of the cells run so far', () => {
    const state = { seconds: [] as number[] };
    const end = (position: number, seconds: number) =>
      suiteProgressLine(
        {
          type: 'cell-end',
          model: 'small',
          taskSet: 'mc',
          position,
          toRun: 5,
          seconds,
          resultsFile: 'r.json',
          erroredSamples: 0,
        },
        state,
      );
    // One cell of 30 s, four left: 2:00.
    expect(end(1, 30)).toBe('[1/5] small × mc: done in 00:30, 4 left, ETA 02:00');
    // Mean of 30 s and 90 s is 60 s, three left: 3:00.
    expect(end(2, 90)).toBe('[2/5] small × mc: done in 01:30, 3 left, ETA 03:00');
    expect(end(5, 60)).toBe('[5/5] small × mc: done in 01:00');
    expect(
      suiteProgressLine(
        { type: 'cell-failed', model: 'api', taskSet: 'mc', position: 3, toRun: 5, message: 'refused' },
        state,
      ),
    ).toBe('[3/5] api × mc: FAILED: refused');
    expect(
      suiteProgressLine(
        {
          type: 'cell-changed',
          model: 'api',
          taskSet: 'mc',
          reasons: ['task arc: its config changed (sha256 0123456789ab → ba9876543210, arc.yaml)', 'x'],
        },
        state,
      ),
    ).toBe(
      'rerunning api × mc: task arc: its config changed (sha256 0123456789ab → ba9876543210, arc.yaml); x',
    );
  });
});
