import type { HubDataSource } from '../data/hub/dataset.js';
import type { DataFile } from '../data/local-dataset.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import type { TaskConfig } from '../task-config/task-config.js';

/** Where a task came from, for the manifest and error messages. */
export interface TaskSource {
  /** `yaml`, `jsonl` or `typescript`. */
  format: 'yaml' | 'jsonl' | 'typescript';
  /** Absolute path of the file that defines the task. */
  path: string;
  /** sha256 of the task's content: its file plus every file it includes or imports. */
  sha256: string;
}

/** What a custom (TypeScript) task adds on top of a TaskConfig: its own metrics and aggregations. */
export interface CustomScoring {
  /** Per-doc metric values from the doc and its filtered responses. */
  processResults: (doc: Doc, results: unknown[]) => Record<string, unknown>;
  /** Metric name → aggregation over the per-doc values. */
  aggregation: Record<string, (items: unknown[]) => number>;
  higherIsBetter: Record<string, boolean>;
  /** Metrics another model scores: metric name → its judge block (the fields of an llm_judge `judge`). */
  judges?: Record<string, unknown>;
}

/** A task ready to evaluate: validated config with functions resolved, and a way to get its docs. */
export interface LoadedTask {
  kind: 'task';
  name: string;
  config: TaskConfig;
  source: TaskSource;
  version: number | string | null;
  /** The split evaluated (test_split, else validation_split); `undefined` for inline docs. */
  evalSplit?: string;
  /** The split few-shot examples come from, when it is a split. */
  fewshotSplit?: string;
  /** Docs of the evaluation split, after process_docs. Loaded lazily, cached. */
  evalDocs(): Promise<Doc[]>;
  /** The few-shot pool, after process_docs (lm-eval's order: fewshot_split, samples, train, validation, test). */
  fewshotDocs(): Promise<Doc[]>;
  /** Starts reading the evaluation split's local files ahead of evalDocs (see TaskDocs.prefetchEvalDocs). */
  prefetchEvalDocs?(): void;
  /** Starts evalDocs (process_docs included) ahead of planning (see TaskDocs.startEvalDocs). */
  startEvalDocs?(): void;
  /** Hub splits loaded so far (revision, commit, file sha256s), for the manifest; absent for local data. */
  dataSources?(): readonly HubDataSource[];
  /** Every data file read so far (local or Hub): listed in the manifest, covered by the content sha256. */
  dataFiles?(): readonly DataFile[];
  custom?: CustomScoring;
}

export interface AggregateMetricConfig {
  metric: string;
  /** `mean`, or a function called as `fn(values, sizes, weight_by_size)` (a `!function` in the YAML). */
  aggregation: 'mean' | FunctionRef;
  weight_by_size: boolean;
  /** Filters to aggregate; undefined means every filter found among the leaf tasks. */
  filter_list?: string[];
}

export interface GroupConfig {
  group: string;
  group_alias?: string;
  task: unknown[];
  aggregate_metric_list?: AggregateMetricConfig[];
  metadata?: { version?: number | string; [key: string]: unknown };
}

export interface GroupNode {
  kind: 'group';
  name: string;
  alias?: string;
  config: GroupConfig;
  /** Absolute path of the YAML defining the group (undefined for tags). */
  path?: string;
  /** True for a tag: a list of tasks, never aggregated. */
  isTag: boolean;
  children: TaskNode[];
}

export type TaskNode = LoadedTask | GroupNode;

export function leafTasks(node: TaskNode): LoadedTask[] {
  if (node.kind === 'task') return [node];
  return node.children.flatMap(leafTasks);
}

/** The leaf tasks of a run's nodes, each once, in first-seen order (a task in two groups runs once). */
export function uniqueLeaves(nodes: TaskNode[]): LoadedTask[] {
  const seen = new Set<string>();
  const out: LoadedTask[] = [];
  for (const node of nodes) {
    for (const task of leafTasks(node)) {
      if (seen.has(task.name)) continue;
      seen.add(task.name);
      out.push(task);
    }
  }
  return out;
}
