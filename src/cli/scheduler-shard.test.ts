import { describe, expect, it } from 'vitest';
import { shardFlag } from './run-flag-values.js';

const parseShard = (value: string, env: NodeJS.ProcessEnv) => shardFlag(env)(value, '--shard');

/** The variables each scheduler documents: sbatch(1) OUTPUT ENVIRONMENT VARIABLES, Kubernetes Indexed Jobs, torchrun. */
describe('--shard auto', () => {
  it('numbers a Slurm job array from its first task id', () => {
    // sbatch --array=1-4: ids 1..4, MIN 1, MAX 4, COUNT 4.
    const array = { SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '4', SLURM_ARRAY_TASK_COUNT: '4' };
    expect(
      [1, 2, 3, 4].map((id) => parseShard('auto', { ...array, SLURM_ARRAY_TASK_ID: String(id) })),
    ).toEqual([
      { index: 0, count: 4 },
      { index: 1, count: 4 },
      { index: 2, count: 4 },
      { index: 3, count: 4 },
    ]);
    // --array=0-6:3: ids 0, 3, 6 with STEP 3.
    const stepped = {
      SLURM_ARRAY_TASK_MIN: '0',
      SLURM_ARRAY_TASK_MAX: '6',
      SLURM_ARRAY_TASK_COUNT: '3',
      SLURM_ARRAY_TASK_STEP: '3',
    };
    expect(parseShard('auto', { ...stepped, SLURM_ARRAY_TASK_ID: '6' })).toEqual({ index: 2, count: 3 });
    expect(parseShard('auto/3', { ...stepped, SLURM_ARRAY_TASK_ID: '3' })).toEqual({ index: 1, count: 3 });
  });

  it('refuses a Slurm array with gaps, a missing count and a count that disagrees with auto/N', () => {
    // --array=1,3,7: COUNT 3 but MAX − MIN = 6.
    expect(() =>
      parseShard('auto', {
        SLURM_ARRAY_TASK_ID: '3',
        SLURM_ARRAY_TASK_MIN: '1',
        SLURM_ARRAY_TASK_MAX: '7',
        SLURM_ARRAY_TASK_COUNT: '3',
      }),
    ).toThrow(/not a contiguous range.*--array=0-2/);
    expect(() => parseShard('auto', { SLURM_ARRAY_TASK_ID: '0' })).toThrow(
      'SLURM_ARRAY_TASK_ID=0 is set but SLURM_ARRAY_TASK_COUNT is not set',
    );
    expect(() =>
      parseShard('auto/8', {
        SLURM_ARRAY_TASK_ID: '0',
        SLURM_ARRAY_TASK_MIN: '0',
        SLURM_ARRAY_TASK_COUNT: '4',
      }),
    ).toThrow('--shard auto/8: the scheduler runs 4 tasks');
    expect(() => parseShard('auto', { SLURM_ARRAY_TASK_ID: 'x1', SLURM_ARRAY_TASK_COUNT: '4' })).toThrow(
      'SLURM_ARRAY_TASK_ID="x1" is not a non-negative integer',
    );
  });

  it('takes a Kubernetes completion index with the count from auto/N or ASSAY_SHARD_COUNT', () => {
    expect(parseShard('auto/5', { JOB_COMPLETION_INDEX: '4' })).toEqual({ index: 4, count: 5 });
    expect(parseShard('auto', { JOB_COMPLETION_INDEX: '0', ASSAY_SHARD_COUNT: '2' })).toEqual({
      index: 0,
      count: 2,
    });
    expect(() => parseShard('auto', { JOB_COMPLETION_INDEX: '1' })).toThrow(
      /gives the index but not the count; pass --shard auto\/N/,
    );
    expect(() => parseShard('auto/3', { JOB_COMPLETION_INDEX: '1', ASSAY_SHARD_COUNT: '4' })).toThrow(
      'ASSAY_SHARD_COUNT=4 says otherwise',
    );
    // The index is checked against the count like any i/N.
    expect(() => parseShard('auto/3', { JOB_COMPLETION_INDEX: '3' })).toThrow(
      'i must be between 0 and 2 (shards are numbered from 0)',
    );
  });

  it('takes RANK and WORLD_SIZE from torchrun or accelerate, after the schedulers', () => {
    expect(parseShard('auto', { RANK: '3', WORLD_SIZE: '8', LOCAL_RANK: '1' })).toEqual({
      index: 3,
      count: 8,
    });
    expect(() => parseShard('auto', { RANK: '0' })).toThrow('RANK=0 is set but WORLD_SIZE is not set');
    // A torchrun inside a Slurm array task: the array numbers the shards.
    expect(
      parseShard('auto', {
        RANK: '1',
        WORLD_SIZE: '2',
        SLURM_ARRAY_TASK_ID: '2',
        SLURM_ARRAY_TASK_MIN: '0',
        SLURM_ARRAY_TASK_COUNT: '3',
      }),
    ).toEqual({ index: 2, count: 3 });
  });

  it('fails clearly when no scheduler is present', () => {
    expect(() => parseShard('auto', { SLURM_JOB_ID: '77', HOME: '/root' })).toThrow(
      '--shard auto: no scheduler told this process its shard: none of SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or RANK and WORLD_SIZE (torchrun, accelerate) is set; pass --shard i/N',
    );
    expect(() => parseShard('automatic', {})).toThrow('--shard must be i/N (e.g. 0/4), auto or auto/N');
    expect(parseShard('1/3', { RANK: '0', WORLD_SIZE: '2' })).toEqual({ index: 1, count: 3 });
  });
});
