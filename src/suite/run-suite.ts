/**
 * `assay suite run`: every (model, task set) cell of a suite, each through the same library entry as
 * `assay run` (run/evaluate.ts), into `suites/NAME/<model>/<task set>/` exactly as a run with
 * `outputPath` writes (results, sample logs, leaderboard). Models run one at a time, and each model's
 * backend (a managed server, a GGUF engine) is started once for all its task sets (run/backend-pool.ts).
 *
 * A cell whose record says it finished with the same settings hash, whose results file is still there and
 * whose tasks are still the content that run recorded (finished-cell.ts), is skipped. Each model keeps one response cache, so a cell killed half-way re-sends on the next run only
 * the requests whose answers were not yet stored. A cell that fails is recorded as failed and the suite
 * goes on; it runs again on the next run.
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { AssayError, closestNames } from '../errors.js';
import { judgeBlocks } from '../evaluate/judge-blocks.js';
import { resolveRunOptions } from '../evaluate/run-options.js';
import type { Logger, RunListener } from '../events.js';
import { writeFileAtomic } from '../report/write.js';
import { SUITE_CELL_SCHEMA, type SuiteCellRecord } from '../results/suite-cell-record.js';
import { SUITE_RECORD_SCHEMA, type SuiteRecord } from '../results/suite-record.js';
import { createBackendPool } from '../run/backend-pool.js';
import { evaluateResolved } from '../run/evaluate.js';
import { uniqueLeaves } from '../tasks/task.js';
import { runOptionsOf, type SuiteCell } from './cells.js';
import { finishedCellCheck } from './finished-cell.js';
import { planSuiteShards, type ShardUnit, type SuiteShard, shardUnits } from './shard-plan.js';
import { shardLocation } from './shard-suite.js';
import type { SuiteListener } from './suite-events.js';
import { suiteFolder } from './suite-folder.js';
import { writeSuiteManifest } from './suite-manifest.js';
import { type ValidatedSuite, validateSuite } from './validate-suite.js';

export interface RunSuiteOptions {
  /** The suite file. */
  suiteFile: string;
  /** The suite's name: its folder under `suitesDirectory`. */
  suiteName: string;
  /** Default `suites` (in the working folder). */
  suitesDirectory?: string;
  /** Only these models (their `name`s in the suite file). */
  modelsToRun?: string[];
  /** Only these task sets (their `name`s). */
  tasksToRun?: string[];
  /**
   * Run only the index-th of `count` parts of the (selected) cells, into `suites/NAME/shards/<index>-of-<count>/`:
   * whole cells, or with fewer cells than shards one doc slice of a cell (shard-plan.ts); `mergeSuite`
   * assembles the shards into `suites/NAME/` (shard-suite.ts).
   */
  shard?: SuiteShard;
  indexCacheDir?: string;
  listener?: SuiteListener;
  /** Each cell's runner events. */
  runListener?: RunListener;
  logger?: Logger;
}

export interface CellOutcome {
  model: string;
  taskSet: string;
  status: 'done' | 'failed' | 'skipped';
  resultsFile?: string;
  erroredSamples: number;
  error?: string;
}

export interface SuiteRunResult {
  folder: string;
  cells: CellOutcome[];
  /** Backends started, per model (one each: its task sets share it). */
  backendsStarted: Record<string, number>;
  /** suite_manifest.json, written when the run ends. */
  manifestFile: string;
}

/** The names a narrowing flag gives, each checked against the suite's (did-you-mean on a typo). */
function narrowed(given: string[] | undefined, known: string[], field: string, what: string): Set<string> {
  if (!given?.length) return new Set(known);
  for (const name of given)
    if (!known.includes(name)) {
      const close = closestNames(name, known, 1);
      throw new AssayError(
        'bad_option',
        `\`${field}\`: the suite has no ${what} "${name}"${close.length ? `; did you mean "${close[0]}"?` : ''} (its ${what}s: ${known.join(', ')})`,
        { location: { field } },
      );
    }
  return new Set(given);
}

function suiteRecord(validated: ValidatedSuite, name: string, shard?: SuiteShard): SuiteRecord {
  const { suite, file, sha256 } = validated.loaded;
  return {
    schema: SUITE_RECORD_SCHEMA,
    name,
    ...(shard ? { shard } : {}),
    version: suite.version,
    description: suite.description ?? null,
    suite_file: file,
    suite_sha256: sha256,
    models: suite.models.map((model) => ({ name: model.name, model: model.model })),
    task_sets: Object.fromEntries(validated.taskSets),
    groups: Object.fromEntries(validated.groups),
  };
}

/**
 * A judged task set's cells are never cut into doc slices: `assay merge`, which joins the slices, cannot
 * rebuild the judge block (agreement, PPI++, usage) from them and refuses, so every shard would run and the
 * suite's merge fail. Checked over the whole plan, which every shard computes alike, before any shard runs.
 */
function checkJudgedSlices(validated: ValidatedSuite, chosen: SuiteCell[], count: number): void {
  const sliced = new Set(
    planSuiteShards(chosen, count, (cell) => cell.shardSlices)
      .flat()
      .flatMap((unit) => (unit.slice ? [unit.cell.taskSet] : [])),
  );
  for (const taskSet of sliced) {
    const judged = [
      ...new Set(
        judgeBlocks(uniqueLeaves(validated.taskNodes.get(taskSet) ?? [])).map((block) => block.task.name),
      ),
    ];
    if (judged.length === 0) continue;
    const declared = chosen.find((cell) => cell.taskSet === taskSet)?.shardSlices;
    throw new AssayError(
      'bad_option',
      `task set ${taskSet}: its tasks have llm_judge metrics (${judged.join(', ')}), and this sharded run would cut its cells into doc slices, whose merge cannot rebuild the judge statistics (agreement, PPI++, usage); ${declared !== undefined ? 'remove its shard_slices, or ' : ''}run it with no more shards than cells (${chosen.length}), or the judged task set unsharded (\`tasksToRun\`)`,
      { location: { file: validated.loaded.file, field: `tasks.${taskSet}` } },
    );
  }
}

export async function runSuite(options: RunSuiteOptions): Promise<SuiteRunResult> {
  const started = performance.now();
  // Everything checkable is checked before the first cell runs (bad input: exit 2, nothing written).
  const validated = await validateSuite(options.suiteFile, {
    indexCacheDir: options.indexCacheDir,
    logger: options.logger,
  });
  const { loaded, cells } = validated;
  const models = narrowed(
    options.modelsToRun,
    loaded.suite.models.map((model) => model.name),
    'modelsToRun',
    'model',
  );
  const taskSets = narrowed(options.tasksToRun, [...validated.taskSets.keys()], 'tasksToRun', 'task set');
  const chosen = cells.filter((cell) => models.has(cell.model) && taskSets.has(cell.taskSet));
  if (options.shard) checkJudgedSlices(validated, chosen, options.shard.count);
  const suitesDirectory = options.suitesDirectory ?? 'suites';
  const merged = suiteFolder(suitesDirectory, options.suiteName);
  const where = options.shard
    ? shardLocation(suitesDirectory, options.suiteName, options.shard)
    : { directory: suitesDirectory, name: options.suiteName };
  const folder = suiteFolder(where.directory, where.name);
  await writeFileAtomic(
    path.join(folder.root, 'suite.json'),
    `${JSON.stringify(suiteRecord(validated, options.suiteName, options.shard), null, 2)}\n`,
    '`suitesDirectory`',
  );
  await copyFile(loaded.file, folder.suiteCopy);

  const units: ShardUnit<SuiteCell>[] = options.shard
    ? shardUnits(chosen, options.shard, (cell) => cell.shardSlices)
    : chosen.map((cell) => ({ cell }));
  const selected = units.map((unit) => unit.cell);
  const outcomes: CellOutcome[] = [];
  const toRun: ShardUnit<SuiteCell>[] = [];
  const check = finishedCellCheck(validated);
  for (const unit of units) {
    const { cell } = unit;
    // A shard skips a cell the suite's merged folder already holds finished, as it skips its own.
    const inMerged = options.shard
      ? await check(cell, merged.cellRecord(cell.model, cell.taskSet))
      : undefined;
    const state =
      inMerged?.state === 'finished'
        ? inMerged
        : await check(cell, folder.cellRecord(cell.model, cell.taskSet), unit.slice);
    if (state.state === 'finished') {
      outcomes.push({
        model: cell.model,
        taskSet: cell.taskSet,
        status: 'skipped',
        resultsFile: state.resultsFile,
        erroredSamples: state.record.errored_samples,
      });
      options.listener?.({
        type: 'cell-skipped',
        model: cell.model,
        taskSet: cell.taskSet,
        reason: 'finished with identical settings and task content',
      });
      continue;
    }
    if (state.state === 'changed')
      options.listener?.({
        type: 'cell-changed',
        model: cell.model,
        taskSet: cell.taskSet,
        reasons: state.reasons,
      });
    toRun.push(unit);
  }
  options.listener?.({
    type: 'suite-start',
    cells: selected.length,
    toRun: toRun.length,
    skipped: outcomes.length,
  });

  const backendsStarted: Record<string, number> = {};
  let position = 0;
  for (const model of loaded.suite.models) {
    const modelCells = toRun.filter((unit) => unit.cell.model === model.name);
    if (modelCells.length === 0) continue;
    options.listener?.({ type: 'model-start', model: model.name });
    const pool = createBackendPool();
    try {
      for (const unit of modelCells) {
        position++;
        outcomes.push(await runCell(unit, validated, folder, pool, position, toRun.length, options));
      }
    } finally {
      await pool.close();
      backendsStarted[model.name] = pool.created;
      options.listener?.({ type: 'model-end', model: model.name, backendsStarted: pool.created });
    }
  }
  const count = (status: CellOutcome['status']) =>
    outcomes.filter((outcome) => outcome.status === status).length;
  options.listener?.({
    type: 'suite-end',
    ran: count('done'),
    skipped: count('skipped'),
    failed: count('failed'),
    seconds: (performance.now() - started) / 1000,
  });
  // In the suite file's order, whatever order they ran in.
  const order = (outcome: CellOutcome) =>
    selected.findIndex((cell) => cell.model === outcome.model && cell.taskSet === outcome.taskSet);
  outcomes.sort((a, b) => order(a) - order(b));
  const { file: manifestFile } = await writeSuiteManifest(where.directory, where.name);
  return { folder: folder.root, cells: outcomes, backendsStarted, manifestFile };
}

async function runCell(
  { cell, slice }: ShardUnit<SuiteCell>,
  validated: ValidatedSuite,
  folder: ReturnType<typeof suiteFolder>,
  pool: ReturnType<typeof createBackendPool>,
  position: number,
  toRun: number,
  options: RunSuiteOptions,
): Promise<CellOutcome> {
  const { loaded } = validated;
  const useCache = loaded.suite.settings?.use_cache !== false;
  const cellFolder = folder.cellFolder(cell.model, cell.taskSet);
  const startedAt = new Date();
  const started = performance.now();
  const identity = { model: cell.model, taskSet: cell.taskSet, position, toRun };
  options.listener?.({ type: 'cell-start', ...identity, ...(slice ? { slice } : {}) });
  const record = (fields: Pick<SuiteCellRecord, 'status' | 'results_file' | 'errored_samples' | 'error'>) => {
    const value: SuiteCellRecord = {
      schema: SUITE_CELL_SCHEMA,
      suite_version: loaded.suite.version,
      model: cell.model,
      task_set: cell.taskSet,
      settings_hash: cell.settingsHash,
      settings: { ...cell.settings },
      ...(slice ? { slice } : {}),
      ...fields,
      started_at: startedAt.toISOString(),
      seconds: (performance.now() - started) / 1000,
    };
    return writeFileAtomic(
      folder.cellRecord(cell.model, cell.taskSet),
      `${JSON.stringify(value, null, 2)}\n`,
    );
  };
  try {
    const resolved = resolveRunOptions(
      runOptionsOf(cell.settings, loaded.file, {
        outputPath: cellFolder,
        useCache: useCache ? folder.responseCache(cell.model) : undefined,
        shard: slice,
      }),
    );
    const { result } = await evaluateResolved({
      ...resolved,
      indexCacheDir: options.indexCacheDir,
      listener: options.runListener,
      logger: options.logger,
      backends: pool,
    });
    const resultsFile = result.files?.results;
    if (!resultsFile)
      throw new AssayError('io_error', `the run of cell ${cell.model} × ${cell.taskSet} wrote no results`);
    await record({
      status: 'done',
      results_file: path.relative(cellFolder, resultsFile),
      errored_samples: result.erroredSamples,
      error: null,
    });
    options.listener?.({
      type: 'cell-end',
      ...identity,
      seconds: (performance.now() - started) / 1000,
      resultsFile,
      erroredSamples: result.erroredSamples,
    });
    return {
      model: cell.model,
      taskSet: cell.taskSet,
      status: 'done',
      resultsFile,
      erroredSamples: result.erroredSamples,
    };
  } catch (error) {
    const message = error instanceof AssayError ? error.format() : (error as Error).message;
    await record({ status: 'failed', results_file: null, errored_samples: 0, error: message });
    options.listener?.({ type: 'cell-failed', ...identity, message });
    return { model: cell.model, taskSet: cell.taskSet, status: 'failed', erroredSamples: 0, error: message };
  }
}
