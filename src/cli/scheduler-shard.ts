import { AssayError } from '../errors.js';

/**
 * `--shard auto`: the shard index and count from the environment a cluster scheduler gives each of its
 * tasks, so that one job script runs every shard. Checked in this order, the first scheduler present wins:
 *
 * - Slurm job arrays: SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN and
 *   SLURM_ARRAY_TASK_STEP (`--array=1-8` gives shards 0..7; `--array=0-14:2` gives 0..7 too). An array
 *   with gaps (`--array=1,3,7`) has no contiguous numbering and is refused.
 * - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX, with the count from `--shard auto/N` or from
 *   ASSAY_SHARD_COUNT (the pod does not see `spec.completions`, so the manifest passes it).
 * - torchrun, accelerate, deepspeed and other torch.distributed launchers: RANK and WORLD_SIZE.
 *
 * `auto/N` also checks that the scheduler's count is N, so a job started with the wrong array size fails
 * at once instead of merging into a run with docs missing.
 */
export interface SchedulerShard {
  index: number;
  count: number;
  /** Which variables gave it, for messages. */
  source: string;
}

const SCHEDULER_VARIABLES =
  'SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or RANK and WORLD_SIZE (torchrun, accelerate)';

function integer(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  if (!/^\s*\d+\s*$/.test(text)) {
    throw new AssayError(
      'bad_environment',
      `--shard auto: ${name}=${JSON.stringify(text)} is not a non-negative integer`,
    );
  }
  return Number(text);
}

function required(env: NodeJS.ProcessEnv, name: string, because: string): number {
  const value = integer(env, name);
  if (value === undefined)
    throw new AssayError('bad_environment', `--shard auto: ${because} but ${name} is not set`);
  return value;
}

function slurm(env: NodeJS.ProcessEnv): SchedulerShard | undefined {
  const id = integer(env, 'SLURM_ARRAY_TASK_ID');
  if (id === undefined) return undefined;
  const because = `SLURM_ARRAY_TASK_ID=${id} is set`;
  const count = required(env, 'SLURM_ARRAY_TASK_COUNT', because);
  const min = integer(env, 'SLURM_ARRAY_TASK_MIN') ?? 0;
  const step = integer(env, 'SLURM_ARRAY_TASK_STEP') ?? 1;
  const max = integer(env, 'SLURM_ARRAY_TASK_MAX');
  const offset = id - min;
  const contiguous =
    step >= 1 &&
    offset >= 0 &&
    offset % step === 0 &&
    (max === undefined || max - min === (count - 1) * step);
  if (!contiguous) {
    throw new AssayError(
      'bad_environment',
      `--shard auto: the Slurm array (SLURM_ARRAY_TASK_ID=${id}, MIN=${min}, MAX=${max ?? 'unset'}, STEP=${step}, COUNT=${count}) is not a contiguous range, so its task ids do not number ${count} shards; submit it as --array=0-${count - 1} (or pass --shard i/N yourself)`,
    );
  }
  return {
    index: offset / step,
    count,
    source: 'SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT',
  };
}

function kubernetes(env: NodeJS.ProcessEnv, given: number | undefined): SchedulerShard | undefined {
  const index = integer(env, 'JOB_COMPLETION_INDEX');
  if (index === undefined) return undefined;
  const fromEnv = integer(env, 'ASSAY_SHARD_COUNT');
  if (given !== undefined && fromEnv !== undefined && given !== fromEnv) {
    throw new AssayError(
      'bad_option',
      `--shard auto/${given}: ASSAY_SHARD_COUNT=${fromEnv} says otherwise; give the count once`,
    );
  }
  const count = given ?? fromEnv;
  if (count === undefined) {
    throw new AssayError(
      'bad_environment',
      `--shard auto: JOB_COMPLETION_INDEX=${index} (a Kubernetes Indexed Job) gives the index but not the count; pass --shard auto/N with N = spec.completions, or set ASSAY_SHARD_COUNT in the pod`,
    );
  }
  return { index, count, source: 'JOB_COMPLETION_INDEX' };
}

function torchDistributed(env: NodeJS.ProcessEnv): SchedulerShard | undefined {
  const rank = integer(env, 'RANK');
  if (rank === undefined) return undefined;
  return {
    index: rank,
    count: required(env, 'WORLD_SIZE', `RANK=${rank} is set`),
    source: 'RANK, WORLD_SIZE',
  };
}

export function shardFromScheduler(env: NodeJS.ProcessEnv, givenCount?: number): SchedulerShard {
  const found = slurm(env) ?? kubernetes(env, givenCount) ?? torchDistributed(env);
  if (!found) {
    throw new AssayError(
      'bad_environment',
      `--shard auto: no scheduler told this process its shard: none of ${SCHEDULER_VARIABLES} is set; pass --shard i/N`,
    );
  }
  if (givenCount !== undefined && found.count !== givenCount) {
    throw new AssayError(
      'bad_option',
      `--shard auto/${givenCount}: the scheduler runs ${found.count} tasks (${found.source}), not ${givenCount}`,
    );
  }
  return found;
}
