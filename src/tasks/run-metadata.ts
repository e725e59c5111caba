import type { TaskNode } from './task.js';
import { leafTasks } from './task.js';

/**
 * lm-eval's run metadata (`--metadata`, TaskManager(metadata=…)): merged into every task's `metadata`
 * with the run's keys winning (`cfg.metadata | meta`, tasks/_factory.py), so it shows in the results'
 * configs and reaches what reads task metadata (the perplexity mode, a `version`). The loaded configs are
 * updated in place: a run loads its own task objects.
 */
export function applyRunMetadata(nodes: readonly TaskNode[], metadata: Record<string, unknown>): void {
  for (const node of nodes) {
    for (const task of leafTasks(node)) {
      task.config = { ...task.config, metadata: { ...task.config.metadata, ...metadata } };
      const version = task.config.metadata?.version;
      if (typeof version === 'number' || typeof version === 'string') task.version = version;
    }
  }
}
