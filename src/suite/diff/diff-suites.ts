/**
 * `assay suite diff BEFORE AFTER`: what changed between two versions of a suite. Both folders are read as
 * `summarize` reads them (their records, cells and runs, through results/'s readers), and their manifests
 * are built from them (suite-manifest.ts). Out come: models and tasks added or removed, tasks whose content
 * changed, cells whose settings changed, and per (model, task) in both the primary metric's move.
 *
 * A score moved when its change is beyond its interval. When both runs have sample logs and score docs in
 * common (the same doc key as `assay compare`: doc hash and occurrence), the comparison is paired on those
 * docs, with `assay compare`'s default test and the interval that matches it (pair-test.ts): moved when the
 * 95% interval of after − before excludes 0; the paired p-values are also Holm-adjusted over every paired
 * comparison of the diff. Otherwise the two runs' own 95% intervals are compared: moved when they do not
 * overlap (a conservative test: two non-overlapping 95% intervals mean p < 0.05 and then some).
 */

import type { SuiteManifest } from '../../results/suite-manifest.js';
import { adjustPValues } from '../../stats/p-value-adjustment.js';
import { suiteManifestOf } from '../suite-manifest.js';
import { type CollectedCell, collectSuite, type TaskColumn } from '../summarize/collect.js';
import { pairTest } from '../summarize/pair-test.js';
import { alignedScores, sharedKeys } from '../summarize/shared-docs.js';

export interface DiffSuitesOptions {
  before: string;
  after: string;
  /** Default `suites`. */
  suitesDirectory?: string;
  /** Seed of the permutation test for scores that are not 0/1. */
  seed?: number;
}

export interface SuiteSide {
  name: string;
  version: string;
  suite_sha256: string;
  /** The assay versions that ran its finished cells. */
  assay_versions: string[];
}

export interface TaskContentChange {
  task: string;
  /** What differs: `config`, `prompt template`, `content` (data or imported code), `samples`. */
  changed: string[];
  before: string | null;
  after: string | null;
}

export interface ScoreDiff {
  model: string;
  task: string;
  metric: string;
  higher_is_better: boolean;
  before: { value: number; ci: [number, number] | null; n: number | null };
  after: { value: number; ci: [number, number] | null; n: number | null };
  /**
   * paired: on the docs both runs scored (`shared_n`), the test named in `test`; intervals: the runs'
   * own 95% intervals (overlap or not); none: no interval on one side, not judged.
   */
  method: 'paired' | 'intervals' | 'none';
  shared_n: number | null;
  /** after − before: on the shared docs when paired, of the runs' values otherwise. */
  difference: number;
  /** 95% interval of the difference (paired only). */
  ci: [number, number] | null;
  test: string | null;
  p_value: number | null;
  /** Holm-adjusted over every paired comparison of this diff. */
  p_holm: number | null;
  moved: boolean;
  /** better / worse (by the metric's direction) when moved. */
  direction: 'better' | 'worse' | null;
}

export interface SuiteDiff {
  before: SuiteSide;
  after: SuiteSide;
  models: { added: string[]; removed: string[] };
  tasks: { added: string[]; removed: string[] };
  task_changes: TaskContentChange[];
  /** Cells in both whose settings hash differs. */
  settings_changed: Array<{ model: string; task_set: string }>;
  /** Scores of (model, task) pairs in both whose metric has a value on both sides, in the after suite's order. */
  scores: ScoreDiff[];
  /** (model, task) pairs in both without a value on one side, or whose primary metric differs. */
  not_compared: Array<{ model: string; task: string; reason: string }>;
}

const Z95 = 1.959963984540054;

function side(manifest: SuiteManifest): SuiteSide {
  const versions = new Set(
    manifest.cells.flatMap((cell) => (cell.assay_version ? [cell.assay_version] : [])),
  );
  return {
    name: manifest.suite,
    version: manifest.version,
    suite_sha256: manifest.suite_sha256,
    assay_versions: [...versions].sort(),
  };
}

/** A task's display name: the task, or `task set/task` when the same task is in several task sets. */
function taskNames(columns: TaskColumn[]): Map<TaskColumn, string> {
  const count = new Map<string, number>();
  for (const column of columns) count.set(column.task, (count.get(column.task) ?? 0) + 1);
  return new Map(
    columns.map((column) => [
      column,
      (count.get(column.task) ?? 0) > 1 ? `${column.taskSet}/${column.task}` : column.task,
    ]),
  );
}

/** The task's hashes over the suite's finished cells: one value when they agree. */
function taskHashes(manifest: SuiteManifest, taskSet: string, task: string) {
  const entries = manifest.cells
    .filter((cell) => cell.task_set === taskSet && cell.status === 'done')
    .flatMap((cell) => (cell.tasks[task] ? [cell.tasks[task]] : []));
  const one = (key: keyof (typeof entries)[number]) => {
    const values = [...new Set(entries.map((entry) => entry[key]))];
    return values.length === 1 ? values[0] : null;
  };
  return {
    config: one('config_sha256'),
    'prompt template': one('prompt_template_sha256'),
    content: one('sha256'),
    samples: one('samples_sha256'),
  };
}

function intervalOf(cell: CollectedCell): [number, number] | null {
  const { value, ci } = cell.summary;
  if (ci) return ci;
  // A run without its own interval but with a standard error: the normal interval.
  return value !== null && cell.stderr !== null
    ? [value - Z95 * cell.stderr, value + Z95 * cell.stderr]
    : null;
}

export function diffSuites(options: DiffSuitesOptions): SuiteDiff {
  const directory = options.suitesDirectory ?? 'suites';
  const collected = {
    before: collectSuite(directory, options.before),
    after: collectSuite(directory, options.after),
  };
  const manifests = {
    before: suiteManifestOf(collected.before.folder, collected.before.record),
    after: suiteManifestOf(collected.after.folder, collected.after.record),
  };
  const modelsBefore = collected.before.models;
  const modelsAfter = collected.after.models;
  const names = { before: taskNames(collected.before.columns), after: taskNames(collected.after.columns) };
  const keyOf = (column: TaskColumn) => `${column.taskSet}\u0000${column.task}`;
  const beforeColumns = new Map(collected.before.columns.map((column) => [keyOf(column), column]));
  const afterKeys = new Set(collected.after.columns.map(keyOf));

  const taskChanges: TaskContentChange[] = [];
  const settingsChanged: SuiteDiff['settings_changed'] = [];
  const scores: ScoreDiff[] = [];
  const notCompared: SuiteDiff['not_compared'] = [];
  for (const after of collected.after.columns) {
    const before = beforeColumns.get(keyOf(after));
    if (!before) continue;
    const task = names.after.get(after) as string;
    const hashes = {
      before: taskHashes(manifests.before, before.taskSet, before.task),
      after: taskHashes(manifests.after, after.taskSet, after.task),
    };
    const changed = (Object.keys(hashes.after) as Array<keyof typeof hashes.after>).filter(
      (key) =>
        hashes.before[key] !== null && hashes.after[key] !== null && hashes.before[key] !== hashes.after[key],
    );
    if (changed.length)
      taskChanges.push({ task, changed, before: hashes.before.content, after: hashes.after.content });

    for (const [k, model] of modelsAfter.entries()) {
      const j = modelsBefore.indexOf(model);
      if (j < 0) continue;
      const cellBefore = before.cells[j];
      const cellAfter = after.cells[k];
      const valueBefore = cellBefore.summary.value;
      const valueAfter = cellAfter.summary.value;
      if (before.metric !== after.metric || before.filter !== after.filter) {
        notCompared.push({
          model,
          task,
          reason: `its primary metric changed (${before.metric},${before.filter} → ${after.metric},${after.filter})`,
        });
        continue;
      }
      if (valueBefore === null || valueAfter === null) {
        const missing = valueBefore === null ? options.before : options.after;
        const cell = valueBefore === null ? cellBefore : cellAfter;
        notCompared.push({ model, task, reason: `no value in ${missing} (${cell.summary.status})` });
        continue;
      }
      const sides = {
        before: { value: valueBefore, ci: intervalOf(cellBefore), n: cellBefore.summary.n },
        after: { value: valueAfter, ci: intervalOf(cellAfter), n: cellAfter.summary.n },
      };
      const base = { model, task, metric: after.metric, higher_is_better: after.higherIsBetter, ...sides };
      const direction = (difference: number) =>
        difference > 0 === after.higherIsBetter ? ('better' as const) : ('worse' as const);
      const keys =
        cellBefore.scores && cellAfter.scores ? sharedKeys([cellBefore.scores, cellAfter.scores]) : [];
      if (keys.length >= 2 && cellBefore.scores && cellAfter.scores) {
        const [a, b] = alignedScores([cellBefore.scores, cellAfter.scores], keys);
        const tested = pairTest(a, b, { confidence: 0.95, seed: options.seed ?? 0 });
        const moved = tested.ci[0] > 0 || tested.ci[1] < 0;
        scores.push({
          ...base,
          method: 'paired',
          shared_n: tested.n,
          difference: tested.difference,
          ci: tested.ci,
          test: tested.test,
          p_value: tested.pValue,
          p_holm: null,
          moved,
          direction: moved ? direction(tested.difference) : null,
        });
        continue;
      }
      const difference = valueAfter - valueBefore;
      const [ciBefore, ciAfter] = [sides.before.ci, sides.after.ci];
      const moved =
        ciBefore !== null && ciAfter !== null && (ciAfter[0] > ciBefore[1] || ciAfter[1] < ciBefore[0]);
      scores.push({
        ...base,
        method: ciBefore && ciAfter ? 'intervals' : 'none',
        shared_n: null,
        difference,
        ci: null,
        test: null,
        p_value: null,
        p_holm: null,
        moved,
        direction: moved ? direction(difference) : null,
      });
    }
  }
  for (const cell of manifests.after.cells) {
    const earlier = manifests.before.cells.find(
      (other) => other.model === cell.model && other.task_set === cell.task_set,
    );
    if (earlier?.settings_hash && cell.settings_hash && earlier.settings_hash !== cell.settings_hash)
      settingsChanged.push({ model: cell.model, task_set: cell.task_set });
  }
  const paired = scores.filter((score) => score.p_value !== null);
  const adjusted = adjustPValues(
    paired.map((score) => score.p_value as number),
    'holm',
  );
  paired.forEach((score, index) => {
    score.p_holm = adjusted[index];
  });
  return {
    before: side(manifests.before),
    after: side(manifests.after),
    models: {
      added: modelsAfter.filter((model) => !modelsBefore.includes(model)),
      removed: modelsBefore.filter((model) => !modelsAfter.includes(model)),
    },
    tasks: {
      added: collected.after.columns
        .filter((column) => !beforeColumns.has(keyOf(column)))
        .map((column) => names.after.get(column) as string),
      removed: collected.before.columns
        .filter((column) => !afterKeys.has(keyOf(column)))
        .map((column) => names.before.get(column) as string),
    },
    task_changes: taskChanges,
    settings_changed: settingsChanged,
    scores,
    not_compared: notCompared,
  };
}
