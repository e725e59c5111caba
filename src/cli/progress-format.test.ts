import { describe, expect, it } from 'vitest';
import {
  formatBar,
  formatBytes,
  formatInterval,
  formatRate,
  type OperationState,
  plainLine,
  terminalLine,
} from './progress-format.js';

// The reference is tqdm (lm-eval's progress bars): format_interval writes `mm:ss` below an hour and
// `h:mm:ss` from an hour on; the rate is `N.NN unit/s`, or `N.NN s/unit` when slower than one a second;
// the bar is full blocks, one partial block in eighths (` ▏▎▍▌▋▊▉█`), then spaces.
const requests = (done: number, seconds: number, total = 112): OperationState => ({
  label: 'loglikelihood (arc_easy)',
  unit: 'requests',
  done,
  total,
  startDone: 0,
  seconds,
});

describe('progress text', () => {
  it('writes times as tqdm’s format_interval', () => {
    expect(formatInterval(0)).toBe('00:00');
    expect(formatInterval(59.99)).toBe('00:59');
    expect(formatInterval(600)).toBe('10:00');
    expect(formatInterval(3725)).toBe('1:02:05');
    expect(formatInterval(36_000)).toBe('10:00:00');
  });

  it('writes rates per second, or seconds per item below one a second, and bytes in SI units', () => {
    expect(formatRate(25, 'requests')).toBe('25.00 req/s');
    expect(formatRate(0.25, 'requests')).toBe('4.00 s/req');
    expect(formatRate(0, 'programs')).toBe('? prog/s');
    expect(formatRate(125_000, 'bytes')).toBe('125 kB/s');
    expect(formatRate(1_500_000, 'bytes')).toBe('1.5 MB/s');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(4_000_000)).toBe('4.0 MB');
    expect(formatBytes(2_500_000_000)).toBe('2.5 GB');
  });

  it('draws tqdm’s bar in eighths', () => {
    expect(formatBar(0.5, 10)).toBe('█████     ');
    // 0.44 × 10 × 8 = 35.2 eighths: 4 full blocks and 3 eighths.
    expect(formatBar(0.44, 10)).toBe('████▍     ');
    expect(formatBar(1, 4)).toBe('████');
    expect(formatBar(0, 3)).toBe('   ');
  });

  it('a running batch: done/total, percentage, elapsed<remaining and rate', () => {
    // 50 of 112 in 2 s: 25 req/s; 62 left at that rate is 2.48 s; 50/112 is 44.6%, shown floored as tqdm does.
    expect(plainLine(requests(50, 2), false)).toBe(
      'loglikelihood (arc_easy): 50/112 (44%) [00:02<00:02, 25.00 req/s]',
    );
    // Slower than one a second: 3 in 12 s is 4 s each; 7 left take 28 s.
    expect(plainLine(requests(3, 12, 10), false)).toBe(
      'loglikelihood (arc_easy): 3/10 (30%) [00:12<00:28, 4.00 s/req]',
    );
    // Nothing answered yet: no rate, no ETA.
    expect(plainLine(requests(0, 1), false)).toBe('loglikelihood (arc_easy): 0/112 (0%) [00:01<?, ? req/s]');
  });

  it('a finished batch: the elapsed time and the mean rate', () => {
    expect(plainLine(requests(112, 4.48), true)).toBe(
      'loglikelihood (arc_easy): 112/112 (100%) [00:04, 25.00 req/s]',
    );
  });

  it('a resumed download counts its rate from the bytes it started with', () => {
    const state: OperationState = {
      label: 'download org/data test.parquet',
      unit: 'bytes',
      done: 1_200_000,
      total: 4_000_000,
      startDone: 200_000,
      seconds: 2,
    };
    // 1.0 MB in 2 s is 500 kB/s; 2.8 MB left take 5.6 s.
    expect(plainLine(state, false)).toBe(
      'download org/data test.parquet: 1.2 MB/4.0 MB (30%) [00:02<00:05, 500 kB/s]',
    );
  });

  it('an operation of unknown size shows the time it has taken', () => {
    const state: OperationState = {
      label: 'gsm: process_docs (utils.process_docs) over 1319 docs of test',
      unit: 'docs',
      done: 0,
      startDone: 0,
      seconds: 12.3,
    };
    expect(plainLine(state, false)).toBe(`${state.label}: [00:12]`);
    expect(plainLine(state, true)).toBe(`${state.label}: done [00:12]`);
    expect(terminalLine(state, false, 200)).toBe(`${state.label}: [00:12]`);
  });

  it('a terminal line is tqdm’s, its bar filling the width left (10 to 30 columns)', () => {
    // 80 columns: label 24, ": " 2, " 50%" 4, "|" 1, tail "| 56/112 [00:02<00:02, 28.00 req/s]" 35: a 14-column bar.
    const line = terminalLine(requests(56, 2), false, 80);
    expect(line).toBe('loglikelihood (arc_easy):  50%|███████       | 56/112 [00:02<00:02, 28.00 req/s]');
    expect([...line].length).toBe(80);
    // Wide: the bar stops at 30 columns.
    expect(terminalLine(requests(112, 4), true, 200)).toBe(
      `loglikelihood (arc_easy): 100%|${'█'.repeat(30)}| 112/112 [00:04, 28.00 req/s]`,
    );
    // Narrow: a 10-column bar, and the label cut to 10 characters and an ellipsis.
    expect(terminalLine(requests(56, 2), false, 50)).toBe(
      'loglikelih…:  50%|█████     | 56/112 [00:02<00:02, 28.00 req/s]',
    );
  });
});
