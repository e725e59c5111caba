/**
 * Suites for the viewer's tests: a real one (dummy models of different seeds on JSONL tasks, run and
 * summarized by the library, as `assay suite run` and `assay suite summarize` do), and a synthetic
 * summary of any size written through the contract's schemas, for rendering at scale.
 */
import { writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GenerateCallOptions } from '../../src/models/backend.js';
import { DummyBackend } from '../../src/models/dummy/dummy-backend.js';
import { registerBackend, unregisterBackend } from '../../src/models/registry.js';
import { SUITE_RECORD_SCHEMA, type SuiteRecord, suiteRecordSchema } from '../../src/results/suite-record.js';
import {
  SUITE_SUMMARY_SCHEMA,
  type SuiteSummary,
  suiteSummarySchema,
} from '../../src/results/suite-summary.js';
import { runSuite } from '../../src/suite/run-suite.js';
import { summarizeSuite } from '../../src/suite/summarize/summarize-suite.js';

function writeTask(dir: string, name: string, n: number): void {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `${name}-${i}`,
      prompt: `${name} question ${i}?\nA. one\nB. two\nAnswer:`,
      targets: [i % 3 === 0 ? 'B' : 'A'],
      metric: 'multiple_choice',
    }),
  );
  writeFileSync(path.join(dir, `${name}.jsonl`), `${lines.join('\n')}\n`);
}

/** A JSONL task of `n` multiple-choice lines whose answer is always A: `<name>.jsonl` in `dir`. */
export function writeAlwaysATask(dir: string, name: string, n: number): void {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `${name}-${i}`,
      prompt: `${name} ${i}?\nAnswer:`,
      targets: ['A'],
      metric: 'multiple_choice',
    }),
  );
  writeFileSync(path.join(dir, `${name}.jsonl`), `${lines.join('\n')}\n`);
}

export const DEMO_MODELS = ['dummy-1', 'dummy-2', 'dummy-3'];

/**
 * A model that knows the demo tasks' rule (question i's answer is B when 3 divides i, else A): right on
 * every doc, so its pairs with the dummies (right on few) are significant and its ranks resolved.
 */
class OracleBackend extends DummyBackend {
  override async generate({ requests, onProgress }: GenerateCallOptions): Promise<string[]> {
    return requests.map((request, index) => {
      onProgress?.(index + 1);
      const question = Number(/question (\d+)\?/.exec(request.context)?.[1]);
      return question % 3 === 0 ? 'B' : 'A';
    });
  }
}

export interface DemoSuiteOptions {
  /** Write summary.json (default true). */
  summarize?: boolean;
  /** Add the model `oracle` (right on every doc) after the dummies. */
  oracle?: boolean;
}

/**
 * Three dummy models (seeds 1–3) × two task sets (`first`, 40 docs; `second`, 30 of 50 docs), one
 * group `letters`, run into `<dir>/suites/<name>/` and summarized (unless told not to). Returns the
 * suite's folder.
 */
export async function runDemoSuite(
  dir: string,
  name: string,
  { summarize = true, oracle = false }: DemoSuiteOptions = {},
): Promise<string> {
  writeTask(dir, 'first', 40);
  writeTask(dir, 'second', 50);
  const suiteFile = path.join(dir, `${name}.yaml`);
  writeFileSync(
    suiteFile,
    `version: 2026-12-a
description: three dummies
settings:
  gen_kwargs: { max_gen_toks: 3 }
models:
${DEMO_MODELS.map((model, i) => `  - { name: ${model}, model: dummy, model_args: { seed: ${i + 1} } }`).join('\n')}
${oracle ? '  - { name: oracle, model: suite-view-oracle }' : ''}
tasks:
  - { name: first, task: first.jsonl }
  - { name: second, task: second.jsonl, limit: 30 }
groups:
  letters: [first, second]
`,
  );
  const suitesDirectory = path.join(dir, 'suites');
  if (oracle) registerBackend('suite-view-oracle', { create: () => new OracleBackend() });
  try {
    await runSuite({ suiteFile, suiteName: name, suitesDirectory });
  } finally {
    if (oracle) unregisterBackend('suite-view-oracle');
  }
  if (summarize) await summarizeSuite({ name, suitesDirectory, bootstrapIterations: 500 });
  return path.join(suitesDirectory, name);
}

/** A seeded uniform in [0, 1) (a 32-bit LCG): the synthetic summary is the same on every run. */
function uniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * A summary of `models` × `tasks` (tasks in task sets of ten, groups of ten tasks) and its suite record,
 * each checked by its schema before it is written: what the viewer reads is a valid contract file. The
 * numbers are drawn (accuracies around each model's own level), then every derived field is computed
 * from them as summarize defines it: ranks by value, HELM's win rates, B − A differences.
 */
export async function writeSyntheticSuite(
  folder: string,
  name: string,
  models: number,
  tasks: number,
): Promise<SuiteSummary> {
  const random = uniform(20261201);
  const modelNames = Array.from({ length: models }, (_, i) => `model-${String(i + 1).padStart(2, '0')}`);
  const taskNames = Array.from({ length: tasks }, (_, i) => `task-${String(i + 1).padStart(2, '0')}`);
  const setOf = (task: number) => `set-${Math.floor(task / 10) + 1}`;
  const groupOf = (task: number) => `group-${Math.floor(task / 10) + 1}`;
  const level = modelNames.map(() => 0.3 + 0.6 * random());
  const n = 200;
  const value = taskNames.map(() =>
    level.map((base) => Math.min(1, Math.max(0, base + 0.1 * (random() - 0.5)))),
  );
  const half = (p: number) => 1.96 * Math.sqrt((p * (1 - p)) / n);
  const ranksOf = (scores: number[]) =>
    scores.map((score) => {
      const point = 1 + scores.filter((other) => other > score).length;
      const best = Math.max(1, point - Math.floor(random() * 3));
      const worst = Math.min(models, point + Math.floor(random() * 3));
      return { point, best, worst };
    });
  const winRates = (scores: number[]) =>
    scores.map(
      (score, k) =>
        scores.reduce(
          (sum, other, j) => sum + (j === k ? 0 : other < score ? 1 : other === score ? 0.5 : 0),
          0,
        ) /
        (models - 1),
    );
  const pairs = (scores: number[]) =>
    modelNames.flatMap((a, i) =>
      modelNames.slice(i + 1).map((b, offset) => {
        const difference = scores[i + 1 + offset] - scores[i];
        const width = 0.06;
        const p = Math.min(1, Math.exp(-Math.abs(difference) / 0.02));
        return {
          a,
          b,
          n,
          difference,
          ci: [difference - width, difference + width] as [number, number],
          p_value: p,
          p_holm: Math.min(1, p * 10),
          test: 'mcnemar',
        };
      }),
    );
  const groups = [...new Set(taskNames.map((_, t) => groupOf(t)))];
  const taskWinRates = value.map(winRates);
  const groupMean = (group: string, k: number) => {
    const members = taskNames.map((_, t) => t).filter((t) => groupOf(t) === group);
    return members.reduce((sum, t) => sum + value[t][k], 0) / members.length;
  };
  const record: SuiteRecord = suiteRecordSchema.parse({
    schema: SUITE_RECORD_SCHEMA,
    name,
    version: 'synthetic-1',
    description: `${models} models × ${tasks} tasks, synthetic`,
    suite_file: 'suite.yaml',
    suite_sha256: '0'.repeat(64),
    models: modelNames.map((model) => ({ name: model, model: 'dummy' })),
    task_sets: Object.fromEntries(
      [...new Set(taskNames.map((_, t) => setOf(t)))].map((set) => [
        set,
        taskNames.filter((_, t) => setOf(t) === set),
      ]),
    ),
    groups: Object.fromEntries(
      groups.map((group) => [group, taskNames.filter((_, t) => groupOf(t) === group)]),
    ),
  });
  const summary: SuiteSummary = suiteSummarySchema.parse({
    schema: SUITE_SUMMARY_SCHEMA,
    suite: name,
    version: record.version,
    suite_sha256: record.suite_sha256,
    confidence: 0.95,
    bootstrap_iterations: 2000,
    seed: 0,
    models: modelNames.map((model) => ({
      name: model,
      model: 'dummy',
      cells_done: tasks / 10,
      cells_failed: 0,
      cells_missing: 0,
      cost_usd: null,
      seconds: 12.5,
    })),
    cells: taskNames.flatMap((task, t) =>
      modelNames.map((model, k) => ({
        model,
        task,
        task_set: setOf(t),
        status: 'ok',
        metric: 'acc',
        value: value[t][k],
        ci: [Math.max(0, value[t][k] - half(value[t][k])), Math.min(1, value[t][k] + half(value[t][k]))],
        n,
        errored_samples: 0,
        latency_p50_ms: null,
        cost_usd: null,
        results_file: null,
        reason: null,
      })),
    ),
    tasks: taskNames.map((task, t) => {
      const ranks = ranksOf(value[t]);
      return {
        task,
        task_set: setOf(t),
        metric: 'acc',
        filter: 'none',
        higher_is_better: true,
        shared_n: n,
        minimum_detectable_difference: 0.12,
        ranks: modelNames.map((model, k) => ({ model, value: value[t][k], rank: ranks[k] })),
      };
    }),
    groups: groups.map((group) => {
      const members = taskNames.map((_, t) => t).filter((t) => groupOf(t) === group);
      const macro = modelNames.map((_, k) => groupMean(group, k));
      const rates = modelNames.map(
        (_, k) => members.reduce((sum, t) => sum + taskWinRates[t][k], 0) / members.length,
      );
      const ranks = ranksOf(macro);
      return {
        group,
        tasks: members.map((t) => taskNames[t]),
        metric: 'acc',
        macro_average_reason: null,
        models: modelNames.map((model, k) => ({
          model,
          macro_average: { value: macro[k], ci: [macro[k] - 0.02, macro[k] + 0.02] },
          mean_win_rate: rates[k],
          win_rate_interval: [Math.max(0, rates[k] - 0.15), Math.min(1, rates[k] + 0.15)],
          rank: ranks[k],
        })),
      };
    }),
    head_to_head: [
      ...taskNames.map((task, t) => ({
        scope: 'task',
        name: task,
        metric: 'acc',
        higher_is_better: true,
        pairs: pairs(value[t]),
        reason: null,
      })),
      ...groups.map((group) => ({
        scope: 'group',
        name: group,
        metric: 'acc',
        higher_is_better: true,
        pairs: pairs(modelNames.map((_, k) => groupMean(group, k))),
        reason: null,
      })),
    ],
  });
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'suite.json'), JSON.stringify(record, null, 2));
  await writeFile(path.join(folder, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
