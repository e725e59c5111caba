import type { TaskPlan } from './plan.js';
import type { Responses } from './responses.js';

/**
 * Per task, a reasoning model's generations and how many of them hit max_gen_toks inside the thinking
 * section (their answers are empty, or under lm-eval's think_end_token rule the thinking text itself).
 */
export interface ThinkingCount {
  generations: number;
  truncated: number;
}

/** The tasks whose answers came with thinking records (responses.ts `genThinking`); others are absent. */
export function thinkingCounts(plans: TaskPlan[], responses: Responses): Record<string, ThinkingCount> {
  const counts: Record<string, ThinkingCount> = {};
  for (const plan of plans) {
    let generations = 0;
    let truncated = 0;
    let thinking = false;
    const ofTask = responses.get(plan.task.name);
    // Only answers with thinking records count; a task without any (every log-likelihood task) has none.
    if (!ofTask?.genThinking) continue;
    for (const doc of plan.docs) {
      for (const instance of doc.instances) {
        if (instance.args.type !== 'generate_until') continue;
        generations += ofTask?.resps[instance.id]?.length ?? 0;
        const records = ofTask?.genThinking?.[instance.id];
        if (!records) continue;
        thinking = true;
        for (const record of records) if (record?.truncated) truncated++;
      }
    }
    if (thinking) counts[plan.task.name] = { generations, truncated };
  }
  return counts;
}

/** The console's line for a task with truncated thinking. */
export function truncatedThinkingWarning(task: string, count: ThinkingCount, maxGenToks?: number): string {
  const limit = maxGenToks === undefined ? 'max_gen_toks' : `max_gen_toks (${maxGenToks})`;
  return `${task}: ${count.truncated} of ${count.generations} generations hit ${limit} inside the thinking section, so their answers are empty or thinking text; raise max_gen_toks in \`genKwargs\` to let the model finish thinking`;
}
