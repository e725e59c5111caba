/** The per-program memory bound: its parts add up to at most the bound, and too small a bound is refused. */
import { describe, expect, it } from 'vitest';
import { memoryPlan } from './memory.js';
import { CodeSandbox } from './sandbox.js';
import { DEFAULT_LIMITS } from './types.js';

const MiB = 1024 ** 2;

describe('memoryPlan', () => {
  it('splits the bound over the fixed processes and the two tmpfs under RLIMIT_AS', () => {
    for (const bound of [1024 * MiB, 1536 * MiB, 2048 * MiB, 8192 * MiB, 1024 * MiB + 12345]) {
      const plan = memoryPlan({ ...DEFAULT_LIMITS, memoryBytes: bound }, 'rlimit_as');
      expect(plan.programAs + plan.checkerAs + 2 * plan.tmpfsBytes).toBeLessThanOrEqual(bound);
      // Node needs about 800 MiB of address space: the smallest bound still leaves it room.
      expect(plan.programAs).toBeGreaterThanOrEqual(896 * MiB);
      expect(plan.tmpfsBytes % 4096).toBe(0);
    }
    expect(memoryPlan(DEFAULT_LIMITS, 'rlimit_as')).toEqual({
      mechanism: 'rlimit_as',
      boundBytes: 2048 * MiB,
      programAs: 1792 * MiB,
      checkerAs: 128 * MiB,
      tmpfsBytes: 64 * MiB,
    });
  });

  it('gives each process the whole bound when a cgroup holds the total', () => {
    expect(memoryPlan(DEFAULT_LIMITS, 'cgroup_v2')).toMatchObject({
      programAs: 2048 * MiB,
      tmpfsBytes: 64 * MiB,
    });
  });

  it('is refused below 1 GiB, before anything runs', () => {
    expect(() => CodeSandbox.create({ limits: { memoryBytes: 512 * MiB } })).toThrow(
      'the code memory bound must be at least 1 GiB (Node needs about 800 MiB of address space to start); got 536870912 bytes',
    );
  });
});
