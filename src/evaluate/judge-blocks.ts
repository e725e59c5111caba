/**
 * Which tasks of a run ask a judge, without loading the judge stage (judge-stage.ts: judge configs, labels,
 * the pairwise baseline reader, agreement statistics): a run whose tasks have no `llm_judge` metric and whose
 * scoring leaves no judge request never imports it.
 */
import type { LoadedTask } from '../tasks/task.js';
import { isJudgeRequest } from './judge-request.js';
import { metricListFor } from './plan.js';
import type { ScoredTask } from './score.js';

/** One judge block of one task: a TypeScript task's `judges` entry, or an `llm_judge` metric_list entry. */
export interface JudgeBlock {
  task: LoadedTask;
  metric: string;
  /** Where the block is, for messages: `metric_list.0.judge` (YAML) or `judges.quality` (TypeScript). */
  field: string;
  raw: unknown;
}

/** Every judge block of the tasks, in task order. */
export function judgeBlocks(tasks: LoadedTask[]): JudgeBlock[] {
  const blocks: JudgeBlock[] = [];
  for (const task of tasks) {
    if (task.custom) {
      for (const [metric, raw] of Object.entries(task.custom.judges ?? {})) {
        blocks.push({ task, metric, field: `judges.${metric}`, raw });
      }
      continue;
    }
    for (const [entry, metric] of metricListFor(task).entries()) {
      if (metric.metric === 'llm_judge') {
        blocks.push({ task, metric: 'llm_judge', field: `metric_list.${entry}.judge`, raw: metric.judge });
      }
    }
  }
  return blocks;
}

/** Whether scoring left a value for the judge stage to fill in any of the task's docs. */
export function hasJudgeRequests(scored: ScoredTask): boolean {
  for (const docs of scored.byFilter.values())
    for (const doc of docs)
      for (const value of Object.values(doc.metrics)) if (isJudgeRequest(value)) return true;
  return false;
}
