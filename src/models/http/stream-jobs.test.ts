import { describe, expect, it } from 'vitest';
import { streamJobs } from './stream-jobs.js';

function* counting(count: number, pulled: number[]): Generator<number> {
  for (let job = 0; job < count; job++) {
    pulled.push(job);
    yield job;
  }
}

describe('streamJobs', () => {
  it('runs every job with at most `limit` in flight, pulling a job only when a slot frees', async () => {
    const pulled: number[] = [];
    let inFlight = 0;
    let most = 0;
    const finished: number[] = [];
    await streamJobs(counting(20, pulled), 3, async (job) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Never more pulled than finished plus the slots.
      expect(pulled.length).toBeLessThanOrEqual(finished.length + 3);
      await new Promise((resolve) => setTimeout(resolve, (job % 4) + 1));
      inFlight--;
      finished.push(job);
    });
    expect(most).toBe(3);
    expect([...finished].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('resolves at once with no jobs', async () => {
    await expect(streamJobs(counting(0, []), 4, async () => {})).resolves.toBeUndefined();
  });

  it('rejects with the first job’s error and pulls no job after it', async () => {
    const pulled: number[] = [];
    const run = streamJobs(counting(100, pulled), 2, async (job) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (job === 3) throw new Error('job 3 failed');
    });
    await expect(run).rejects.toThrow('job 3 failed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled.length).toBeLessThanOrEqual(6);
  });
});
