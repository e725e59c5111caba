/**
 * A run in assay's layout written from per-doc scores: a results file and one sample log per task, `acc`
 * per doc (0/1 or any number), docs paired across runs by their index. For tests that need a pair of runs
 * with known scores, without a model (and for bench/stats.ts's figures).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SyntheticRunOptions {
  /** Per task, the docs the task has before any limit (`n-samples.original`); default: the scores given. */
  taskSizes?: Record<string, number>;
  /** Default `model-<stamp>`. */
  modelName?: string;
}

export function writeScoredRun(
  directory: string,
  stamp: string,
  scores: Record<string, number[]>,
  options: SyntheticRunOptions = {},
): string[] {
  mkdirSync(directory, { recursive: true });
  const tasks = Object.keys(scores);
  const files: string[] = [];
  for (const task of tasks) {
    const lines = scores[task].map((acc, doc) => {
      const hash = `${task}-${String(doc).padStart(8, '0')}-`.padEnd(64, '0');
      return JSON.stringify({
        doc_id: doc,
        doc: { question: `q${doc}` },
        target: '0',
        arguments: {},
        resps: [],
        filtered_resps: [],
        filter: 'none',
        metrics: ['acc'],
        doc_hash: hash,
        prompt_hash: hash,
        target_hash: hash,
        acc,
      });
    });
    const file = path.join(directory, `samples_${task}_${stamp}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  const mean = (values: number[]) => values.reduce((x, y) => x + y, 0) / values.length;
  writeFileSync(
    path.join(directory, `results_${stamp}.json`),
    JSON.stringify({
      results: Object.fromEntries(
        tasks.map((task) => [task, { alias: task, 'acc,none': mean(scores[task]) }]),
      ),
      group_subtasks: Object.fromEntries(tasks.map((task) => [task, []])),
      configs: Object.fromEntries(tasks.map((task) => [task, { task }])),
      higher_is_better: Object.fromEntries(tasks.map((task) => [task, { acc: true }])),
      'n-samples': Object.fromEntries(
        tasks.map((task) => [
          task,
          { original: options.taskSizes?.[task] ?? scores[task].length, effective: scores[task].length },
        ]),
      ),
      model_name: options.modelName ?? `model-${stamp}`,
    }),
  );
  return files;
}
