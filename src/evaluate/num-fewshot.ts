import type { LoadedTask } from '../tasks/task.js';

/** lm-eval: --num_fewshot overrides a task's value, except a task whose config pins num_fewshot: 0. */
export function effectiveNumFewshot(task: LoadedTask, runNumFewshot: number | undefined): number {
  const own = task.config.num_fewshot;
  if (own === 0) return 0;
  return runNumFewshot ?? own ?? 0;
}
