/**
 * `assay data fetch`: downloads every split a task names (training, validation, test, few-shot) into
 * the Hub cache, so a later run, or a run on an air-gapped machine that gets a copy of the cache, needs
 * no network. Local datasets are skipped: there is nothing to fetch. It takes tasks as plain data (a
 * loaded task is one), so data/ stays below the task loaders.
 */
import type { TaskConfig } from '../../task-config/task-config.js';
import { loadSplitWithSource } from '../local-dataset.js';
import type { HubDataSource } from './dataset.js';

export interface FetchedSplit {
  task: string;
  source: HubDataSource;
}

/** What prefetching needs of a task: its name, its config's dataset and split fields, and its file. */
export interface PrefetchTask {
  name: string;
  config: TaskConfig;
  /** The task file: relative data paths resolve against its folder. */
  source: { path: string };
}

export interface PrefetchEvents {
  onSplit?(fetched: FetchedSplit): void;
}

function namedSplits(task: PrefetchTask): string[] {
  const { config } = task;
  const splits = [
    config.training_split,
    config.validation_split,
    config.test_split,
    config.fewshot_split,
    config.fewshot_config?.split,
  ];
  return [...new Set(splits.filter((split): split is string => typeof split === 'string'))];
}

export async function prefetchTasks(
  tasks: readonly PrefetchTask[],
  events: PrefetchEvents = {},
): Promise<FetchedSplit[]> {
  const fetched: FetchedSplit[] = [];
  // Tasks run one after another (so errors come in a stable order); a task's splits load together.
  for (const task of tasks) {
    const results = await Promise.all(
      namedSplits(task).map((split) => loadSplitWithSource(task.config, task.source.path, split)),
    );
    for (const result of results) {
      if (!result.source) continue;
      const entry = { task: task.name, source: result.source };
      fetched.push(entry);
      events.onSplit?.(entry);
    }
  }
  return fetched;
}
