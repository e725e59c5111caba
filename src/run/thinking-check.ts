import { AssayError } from '../errors.js';
import type { McMode } from '../evaluate/mc-generate.js';
import { templateVariableArgs, thinkingEnabled } from '../models/chat-template/template-variables.js';
import { type LoadedTask, leafTasks, type TaskNode } from '../tasks/task.js';

/**
 * lm-eval's VLLM and HFLM `loglikelihood` refuse to run with `enable_thinking=True` ("not compatible with
 * loglikelihood tasks"), naming the tasks; assay refuses the same runs before the backend starts, for every
 * backend that takes enable_thinking. Multiple-choice tasks asked with `mcMode` generate are generative.
 */
export function checkThinkingTasks(
  modelArgs: Record<string, unknown>,
  nodes: TaskNode[],
  mcMode: McMode | undefined,
): void {
  if (!thinkingEnabled(templateVariableArgs(modelArgs))) return;
  const scored = (task: LoadedTask) =>
    task.config.output_type === 'loglikelihood' ||
    (task.config.output_type === 'multiple_choice' && mcMode !== 'generate');
  const names = [
    ...new Set(
      nodes
        .flatMap(leafTasks)
        .filter(scored)
        .map((task) => task.name),
    ),
  ].sort();
  if (names.length === 0) return;
  throw new AssayError(
    'bad_model_args',
    `\`modelArgs\`: enable_thinking=true is not compatible with loglikelihood tasks (lm-eval refuses it too); use generative tasks only with enable_thinking=true. Triggered by task(s): ${names.join(', ')}`,
    { location: { field: 'enable_thinking' } },
  );
}
