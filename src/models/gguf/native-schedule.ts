/**
 * How the engine's scoring inputs become llama_decode batches for the native scorer. Identical inputs
 * are decoded once; inputs that agree up to their first scored position form a job whose prefix
 * (including that position, whose output they all read) is decoded once, as tokens belonging to
 * every member's sequence (one unified KV cache), with each member's remaining tokens on its own
 * sequence. Several jobs share one batch until the sequence slots or the cell budget run out; after
 * each batch the cache is cleared, so every batch is self-contained.
 */
import type { NativeAddon, NativeBatch, NativeHandle } from './native-scorer.js';
import type { Schedule, ScoringInput, Token } from './token-requests.js';

export interface ScheduleLimits {
  /** Sequence slots of the native context (≤ 32). */
  sequences: number;
  /** KV cells one batch may fill (at most the context's). */
  cells: number;
  /** 'shared' in use; the others only measure what it saves (see EngineOptions.schedule). */
  schedule: Schedule;
}

export interface Group {
  input: Token[];
  /** The earliest scored position of any member. */
  scoredFrom: number;
  members: number[];
}

export interface Job {
  /** Decoded once for all groups; with sharing, it ends at the groups' first scored position. */
  prefix: Token[];
  groups: Group[];
}

/** Cells a job occupies: its prefix once, then each group's remaining tokens. */
function jobCells(job: Job): number {
  let cells = job.prefix.length;
  for (const group of job.groups) cells += group.input.length - job.prefix.length;
  return cells;
}

export function planJobs(inputs: ScoringInput[], limits: ScheduleLimits): Job[] {
  const sharing = limits.schedule === 'shared';
  const groups = new Map<string, Group>();
  inputs.forEach((item, index) => {
    if (item.targets.length === 0) return;
    const key = sharing ? item.input.join(',') : String(index);
    const group = groups.get(key);
    if (group) {
      group.members.push(index);
      group.scoredFrom = Math.min(group.scoredFrom, item.scoredFrom);
    } else groups.set(key, { input: item.input, scoredFrom: item.scoredFrom, members: [index] });
  });
  const clusters = new Map<string, Job>();
  for (const group of groups.values()) {
    const prefix = sharing ? group.input.slice(0, group.scoredFrom + 1) : [];
    const key = sharing ? prefix.join(',') : String(clusters.size);
    const cluster = clusters.get(key);
    if (cluster) cluster.groups.push(group);
    else clusters.set(key, { prefix, groups: [group] });
  }
  // A cluster larger than the slots or cells is split; each part decodes the prefix again.
  const jobs: Job[] = [];
  for (const cluster of clusters.values()) {
    let job: Job = { prefix: cluster.prefix, groups: [] };
    for (const group of cluster.groups) {
      const grown = { prefix: job.prefix, groups: [...job.groups, group] };
      if (
        job.groups.length > 0 &&
        (grown.groups.length > limits.sequences || jobCells(grown) > limits.cells)
      ) {
        jobs.push(job);
        job = { prefix: cluster.prefix, groups: [group] };
      } else job = grown;
    }
    jobs.push(job);
  }
  return jobs;
}

/** Scores the inputs; the result arrays are filled in place, onDone is called per input. */
export async function scoreNative(
  addon: NativeAddon,
  handle: NativeHandle,
  inputs: ScoringInput[],
  limits: ScheduleLimits,
  results: Array<{
    logprobs: number[];
    greedy: boolean[];
    top?: Array<Array<[Token, number]>>;
    ranks?: number[];
  }>,
  onDone?: (index: number) => void,
  topK = 0,
): Promise<void> {
  const jobs = planJobs(inputs, limits);
  let start = 0;
  while (start < jobs.length) {
    // Jobs in this batch: as many as fit in the sequence slots and the cell budget.
    let end = start;
    let slots = 0;
    let cells = 0;
    while (end < jobs.length) {
      const job = jobs[end];
      if (
        end > start &&
        (limits.schedule === 'alone' ||
          slots + job.groups.length > limits.sequences ||
          cells + jobCells(job) > limits.cells)
      )
        break;
      slots += job.groups.length;
      cells += jobCells(job);
      end++;
    }
    const batch = buildBatch(inputs, jobs.slice(start, end), cells);
    const scored = addon.score(
      handle,
      batch.tokens,
      batch.positions,
      batch.sequenceMasks,
      batch.targets,
      batch.queryRows,
      batch.queryTargets,
      topK,
    );
    addon.clear(handle);
    batch.queryOwners.forEach(([member, j], query) => {
      results[member].logprobs[j] = scored.logprobs[query];
      results[member].greedy[j] = scored.greedy[query] === 1;
      const { topTokens, topLogprobs, ranks } = scored;
      if (topK > 0 && topTokens && topLogprobs) {
        const top = results[member].top ?? [];
        results[member].top = top;
        top[j] = Array.from({ length: topK }, (_, r): [Token, number] => [
          topTokens[query * topK + r],
          topLogprobs[query * topK + r],
        ]);
        if (!ranks)
          throw new Error(
            'the native scorer gives no ranks: it predates this assay; run npm run build:native',
          );
        const rankList = results[member].ranks ?? [];
        results[member].ranks = rankList;
        rankList[j] = ranks[query];
      }
    });
    for (const job of jobs.slice(start, end)) {
      for (const group of job.groups) for (const member of group.members) onDone?.(member);
    }
    start = end;
    // Lets the worker's progress messages out between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

interface ScoreBatch extends NativeBatch {
  queryRows: Int32Array;
  queryTargets: Int32Array;
  /** Per query: the input and target index it answers. */
  queryOwners: Array<[number, number]>;
}

/**
 * The flat batch: per job its prefix (in every member's sequence), then each group's remaining
 * tokens on its own sequence. The output at position p predicts each member's target p − scoredFrom;
 * queries follow rows in order. Each sequence's positions ascend, as llama_decode requires when the
 * addon splits the batch.
 */
function buildBatch(inputs: ScoringInput[], jobs: Job[], cells: number): ScoreBatch {
  const tokens = new Int32Array(cells);
  const positions = new Int32Array(cells);
  const sequenceMasks = new Uint32Array(cells);
  const targets = new Int32Array(cells).fill(-1);
  const queryRows: number[] = [];
  const queryTargets: number[] = [];
  const queryOwners: Array<[number, number]> = [];
  let row = 0;
  let slot = 0;
  const push = (token: Token, position: number, mask: number, readers: Group[]) => {
    tokens[row] = token;
    positions[row] = position;
    sequenceMasks[row] = mask;
    for (const group of readers) {
      for (const member of group.members) {
        const item = inputs[member];
        const j = position - item.scoredFrom;
        if (j < 0 || j >= item.targets.length) continue;
        targets[row] = 1;
        queryRows.push(row);
        queryTargets.push(item.targets[j]);
        queryOwners.push([member, j]);
      }
    }
    row++;
  };
  for (const job of jobs) {
    let mask = 0;
    for (let g = 0; g < job.groups.length; g++) mask = (mask | (1 << (slot + g))) >>> 0;
    job.prefix.forEach((token, position) => {
      push(token, position, mask, job.groups);
    });
    for (const group of job.groups) {
      const own = (1 << slot) >>> 0;
      slot++;
      for (let position = job.prefix.length; position < group.input.length; position++) {
        push(group.input[position], position, own, [group]);
      }
    }
  }
  return {
    tokens,
    positions,
    sequenceMasks,
    targets,
    queryRows: Int32Array.from(queryRows),
    queryTargets: Int32Array.from(queryTargets),
    queryOwners,
  };
}
