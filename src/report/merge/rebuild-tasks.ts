/**
 * The merge's scores, read as a run leaves them before aggregation: the tasks loaded again (and checked
 * to be the ones the shards ran), each shard's log lines checked to be exactly its slice, and per task a
 * ScoredTask in selection order (the order aggregation and bootstrap resampling see) with the per-filter
 * metric values, per-repeat scores and cluster keys from the lines; perplexity blocks from each doc's
 * `ppl_doc`. Nothing is rendered or scored again.
 */
import { AssayError } from '../../errors.js';
import { selectDocIds } from '../../evaluate/doc-selection.js';
import { perplexityReport } from '../../evaluate/perplexity/report.js';
import { withTokenPerplexity } from '../../evaluate/perplexity/stage.js';
import type { PerplexityReport, ReportIdentity } from '../../evaluate/perplexity/types.js';
import { metricListFor, type PlannedDoc, type TaskPlan } from '../../evaluate/plan.js';
import { clusterKey, type ScoredDoc, type ScoredTask } from '../../evaluate/score.js';
import { buildFilterPipeline, defaultFilterPipeline } from '../../metrics/filters/registry.js';
import type { SampleLine } from '../../results/sample-line.js';
import type { ShardResults } from '../../results/schema.js';
import type { LoadedTask } from '../../tasks/task.js';
import { resultsConfig } from '../build.js';
import { firstDifference, type ShardRun } from './load-shards.js';

/** The tasks are loaded again (groups are not in results.json): they must be the ones the shards ran. */
export function checkTasksUnchanged(tasks: LoadedTask[], results: ShardResults): void {
  const names = tasks.map((task) => task.name).sort();
  const recorded = Object.keys(results.configs).sort();
  if (JSON.stringify(names) !== JSON.stringify(recorded)) {
    throw new AssayError(
      'incompatible_runs',
      `the task specs resolve to ${names.join(', ')} here, but the shards ran ${recorded.join(', ')}; pass \`tasks\` / \`includePath\``,
    );
  }
  for (const task of tasks) {
    // What assay sent is derived from the config and the run's flags; the config itself is compared.
    const { normalized_generation_kwargs: _derived, ...recorded } = results.configs[task.name] ?? {};
    const genKwargs = (results.config.gen_kwargs ?? {}) as Record<string, unknown>;
    const difference = firstDifference(resultsConfig(task.config, genKwargs), recorded, '');
    if (difference) {
      throw new AssayError(
        'incompatible_runs',
        `task ${task.name} changed since the shards ran (${difference}); merge with the task files the shards used`,
        { location: { task: task.name } },
      );
    }
    // The config's own hash (older results have only `sha256`, which was the config's): the data files
    // are not read again here.
    const recordedTask = results.manifest.tasks[task.name];
    const sha = recordedTask?.config_sha256 ?? recordedTask?.sha256;
    if (sha && sha !== task.source.sha256) {
      throw new AssayError(
        'incompatible_runs',
        `task ${task.name}: ${task.source.path} is not the file the shards ran (sha256 ${task.source.sha256.slice(0, 12)}, shards ${sha.slice(0, 12)})`,
        { location: { task: task.name, file: task.source.path } },
      );
    }
  }
}

/**
 * The docs a run selected, in its order, by the planner's own selection: the single run's (no shard), or
 * one shard's slice of it.
 */
function selection(task: string, run: ShardRun, shard?: ShardRun['shard']): number[] {
  const limit = run.results.config.limit;
  const original = run.results['n-samples'][task]?.original ?? 0;
  return selectDocIds(task, original, {
    samples: run.shard.samples ?? undefined,
    limit: typeof limit === 'number' ? limit : undefined,
    shard,
  });
}

/**
 * The shards' lines for one task, in the order a run writes them; each shard must hold exactly its slice
 * of the selection.
 */
export function mergeLogs(task: LoadedTask, runs: ShardRun[]): { lines: SampleLine[] } {
  const entries: SampleLine[] = [];
  for (const run of runs) {
    const log = run.logs.get(task.name);
    if (!log) throw new Error(`unreachable: shard without the log of ${task.name}`);
    const expected = selection(task.name, runs[0], run.shard);
    const held = [...new Set(log.lines.map((line) => line.doc_id))];
    const wanted = new Set(expected);
    const extra = held.filter((id) => !wanted.has(id));
    const heldSet = new Set(held);
    const absent = expected.filter((id) => !heldSet.has(id));
    if (extra.length || absent.length) {
      const list = (ids: number[]) => ids.slice(0, 8).join(', ') + (ids.length > 8 ? ', …' : '');
      throw new AssayError(
        'bad_data',
        `shard ${run.shard.index}/${run.shard.count}: the sample log of ${task.name} ` +
          [
            extra.length ? `holds docs outside its slice (${list(extra)})` : '',
            absent.length ? `lacks docs of its slice (${list(absent)})` : '',
          ]
            .filter(Boolean)
            .join(' and '),
        { location: { file: log.file, task: task.name } },
      );
    }
    if ((task.config.repeats ?? 1) > 1 && !run.shard.predict_only) {
      const old = log.lines.find(
        (line) => line.error === undefined && line.timed_out !== true && line.repeat_scores === undefined,
      );
      if (old) {
        throw new AssayError(
          'bad_data',
          `the sample log of ${task.name} has no per-repeat scores (repeat_scores), which merging a task with repeats needs; it was written by an older assay: run the shards again`,
          { location: { file: log.file, task: task.name, docId: old.doc_id } },
        );
      }
    }
    entries.push(...log.lines);
  }
  // As an unsharded run writes them (and lm-eval): all docs under the first filter, then the next;
  // docs by id.
  const filters = task.config.filter_list?.length
    ? task.config.filter_list.map((filter) => buildFilterPipeline(filter).name)
    : [defaultFilterPipeline().name];
  const rank = (line: SampleLine) => filters.indexOf(line.filter);
  entries.sort((a, b) => rank(a) - rank(b) || a.doc_id - b.doc_id);
  return { lines: entries };
}

/**
 * A task's scored docs as scoring left them, read from sample lines: docs in selection order (the order
 * aggregation and bootstrap resampling see them in), per filter the logged metric values, per-repeat
 * scores and cluster keys. Nothing is rendered or scored again: no doc_to_* and no Python doc function
 * runs. The plan beside them carries only what the results' counts read (docs selected, few-shot ids).
 */
export function rebuildScoredTask(task: LoadedTask, lines: SampleLine[], runs: ShardRun[]): ScoredTask {
  const results = runs[0].results;
  const byDoc = new Map<number, SampleLine[]>();
  for (const line of lines) {
    const list = byDoc.get(line.doc_id);
    if (list) list.push(line);
    else byDoc.set(line.doc_id, [line]);
  }
  const order = selection(task.name, runs[0]);
  const docs: PlannedDoc[] = order.map((docId) => {
    const line = (byDoc.get(docId) ?? [])[0];
    return {
      docId,
      doc: line.doc as PlannedDoc['doc'],
      fewshotIds: line.fewshot_ids,
      target: line.target,
      instances: [],
    };
  });
  const plan: TaskPlan = {
    task,
    numFewshot: results['n-shot'][task.name] ?? 0,
    docs,
    original: results['n-samples'][task.name]?.original ?? 0,
    // token_perplexity is aggregated when the run logged it (its tokens were known), as the run did.
    metricList: withTokenPerplexity(
      metricListFor(task),
      lines.some((line) => line.metrics.includes('token_perplexity')),
    ),
  };
  const filters = task.config.filter_list?.length
    ? task.config.filter_list.map((filter) => buildFilterPipeline(filter).name)
    : [defaultFilterPipeline().name];
  const clusterBy = task.config.cluster_by;
  const byFilter = new Map<string, ScoredDoc[]>();
  for (const filter of filters) {
    byFilter.set(
      filter,
      docs.map((planned) => {
        const line = byDoc.get(planned.docId)?.find((candidate) => candidate.filter === filter);
        if (!line) {
          throw new AssayError('bad_data', `the sample logs have no line for filter ${filter}`, {
            location: { task: task.name, docId: planned.docId },
          });
        }
        return scoredFromLine(line, clusterBy);
      }),
    );
  }
  return { plan, filters, byFilter };
}

function scoredFromLine(line: SampleLine, clusterBy: string | undefined): ScoredDoc {
  const metrics: Record<string, unknown> = {};
  for (const name of line.metrics) {
    // JSON writes NaN as null; a metric value of null only ever comes from a NaN.
    metrics[name] = line[name] === null ? Number.NaN : line[name];
  }
  const scored: ScoredDoc = {
    docId: line.doc_id,
    filter: line.filter,
    filtered: line.filtered_resps,
    metrics,
  };
  if (line.error !== undefined) scored.error = line.error;
  if (line.timed_out === true) scored.timedOut = true;
  if (line.ppl_doc) {
    // JSON writes NaN as null, as for metric values.
    scored.ppl = { ...line.ppl_doc, logprob: line.ppl_doc.logprob ?? Number.NaN };
  }
  if (line.repeat_scores) scored.repeatScores = line.repeat_scores;
  if (clusterBy !== undefined) {
    // Logs written before `cluster_key` have the doc itself, which the key is read from.
    const key = line.cluster_key ?? clusterKey(line.doc, clusterBy);
    if (key !== undefined) scored.clusterKey = key;
  }
  return scored;
}

export function reportIdentity(report: PerplexityReport): ReportIdentity {
  return {
    mode: report.mode,
    mode_source: report.mode_source,
    parameters: report.parameters,
    tokenizer: report.tokenizer,
  };
}

/**
 * The task's perplexity block, rebuilt as a run builds it: from each doc's `ppl_doc` (log-likelihood,
 * token and window counts) and metric pairs in the merged logs, in selection order. The mode, parameters
 * and tokenizer come from the shards (equal in all of them); seconds are summed (timing).
 */
export function mergePerplexity(
  name: string,
  scored: ScoredTask,
  runs: ShardRun[],
): PerplexityReport | undefined {
  // The shard schema checked these blocks' identity fields; the raw file keeps their exact types.
  const recorded = (runs[0].raw.perplexity as Record<string, PerplexityReport> | undefined)?.[name];
  if (!recorded) return undefined;
  const docs = scored.byFilter.get(scored.filters[0]) ?? [];
  const missing = docs.find((doc) => doc.error === undefined && doc.ppl === undefined);
  if (missing) {
    throw new AssayError(
      'bad_data',
      `the sample logs of ${name} lack the per-doc perplexity counts (ppl_doc) that merging its perplexity block needs; they were written by an older assay: run the shards again`,
      { location: { task: name, docId: missing.docId } },
    );
  }
  const seconds = runs.reduce((total, run) => total + (run.results.perplexity?.[name]?.seconds ?? 0), 0);
  return perplexityReport(reportIdentity(recorded), docs, seconds);
}
