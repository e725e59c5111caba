/**
 * The merge's scores, rebuilt as a run leaves them before aggregation: the tasks loaded again (and
 * checked to be the ones the shards ran), each shard's log lines checked to be exactly its slice, and
 * per task a ScoredTask in selection order (the order aggregation and bootstrap resampling see) with the
 * per-filter metric values from the lines; perplexity blocks from each doc's `ppl_doc`.
 */
import { AssayError } from '../../errors.js';
import { sampleSize } from '../../evaluate/limit.js';
import { perplexityReport } from '../../evaluate/perplexity/report.js';
import type { PerplexityReport, ReportIdentity } from '../../evaluate/perplexity/types.js';
import { metricListFor, type PlannedDoc, type TaskPlan } from '../../evaluate/plan.js';
import type { Instance, Response } from '../../evaluate/requests.js';
import type { ScoredDoc, ScoredTask } from '../../evaluate/score.js';
import { shardDocIds } from '../../evaluate/shard.js';
import { buildFilterPipeline, defaultFilterPipeline } from '../../metrics/filters/registry.js';
import { docToChoice, docToTarget, docToText } from '../../prompts/doc-to.js';
import { prepareDocFunctions } from '../../python/doc-functions.js';
import { parsePythonFloat } from '../../python/semantics/format.js';
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

/** The docs a single run selects, in its order: --samples as given, else the first sampleSize ids. */
function selection(task: string, run: ShardRun): number[] {
  const requested = run.shard.samples?.[task];
  if (requested) return requested;
  const limit = run.results.config.limit;
  const original = run.results['n-samples'][task]?.original ?? 0;
  const count = sampleSize(original, typeof limit === 'number' ? limit : undefined);
  return Array.from({ length: count }, (_, i) => i);
}

/**
 * The shards' lines for one task, in the order a run writes them; each shard must hold exactly its slice
 * of the selection.
 */
export function mergeLogs(task: LoadedTask, runs: ShardRun[]): { lines: SampleLine[] } {
  const all = selection(task.name, runs[0]);
  const entries: SampleLine[] = [];
  for (const run of runs) {
    const log = run.logs.get(task.name);
    if (!log) throw new Error(`unreachable: shard without the log of ${task.name}`);
    const expected = shardDocIds(all, run.shard);
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
 * A ScoredTask as scoring left it, rebuilt from sample lines: docs in selection order (the order
 * aggregation and bootstrap resampling see them in), per-filter metric values from the lines.
 */
export async function rebuildScoredTask(
  task: LoadedTask,
  lines: SampleLine[],
  runs: ShardRun[],
): Promise<ScoredTask> {
  const results = runs[0].results;
  const byDoc = new Map<number, SampleLine[]>();
  for (const line of lines) {
    const list = byDoc.get(line.doc_id);
    if (list) list.push(line);
    else byDoc.set(line.doc_id, [line]);
  }
  const order = selection(task.name, runs[0]);
  const repeats = task.config.repeats ?? 1;
  const logged = new Map<PlannedDoc['doc'], number>();
  for (const docId of order) {
    const line = byDoc.get(docId)?.[0];
    if (line) logged.set(line.doc as PlannedDoc['doc'], docId);
  }
  await prepareDocFunctions(task.config, logged, new Map());
  const docs: PlannedDoc[] = order.map((docId) => {
    const docLines = byDoc.get(docId) ?? [];
    const line = docLines[0];
    const location = { task: task.name, docId };
    const { config } = task;
    const choices =
      config.doc_to_choice === undefined ? undefined : docToChoice(config, line.doc as never, location);
    const text = docToText(config, line.doc as never, location);
    const target = docToTarget(config, line.doc as never, location);
    return {
      docId,
      doc: line.doc as PlannedDoc['doc'],
      fewshotIds: line.fewshot_ids,
      // As the planner does: for multiple-input tasks the gold is doc_to_text's index.
      target: config.output_type === 'multiple_choice' && typeof text === 'number' ? text : target,
      choices,
      instances: repeats > 1 ? instancesFrom(task, line) : [],
    };
  });
  const plan: TaskPlan = {
    task,
    numFewshot: results['n-shot'][task.name] ?? 0,
    docs,
    original: results['n-samples'][task.name]?.original ?? 0,
    metricList: metricListFor(task),
  };
  const filters = task.config.filter_list?.length
    ? task.config.filter_list.map((filter) => buildFilterPipeline(filter).name)
    : [defaultFilterPipeline().name];
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
        return scoredFromLine(line);
      }),
    );
  }
  return { plan, filters, byFilter };
}

function scoredFromLine(line: SampleLine): ScoredDoc {
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

/**
 * Responses back from a line's `resps` (Python str() of each value), for the per-repeat statistics of
 * tasks with repeats > 1, which re-score each repeat. Only `resps` is read after scoring.
 */
function instancesFrom(task: LoadedTask, line: SampleLine): Instance[] {
  const outputType = task.config.output_type;
  const parse = (value: unknown): Response => {
    if (outputType === 'generate_until') return String(value);
    if (outputType === 'loglikelihood_rolling') return parsePythonFloat(String(value));
    const [logprob, greedy] = value as [string, string];
    return { logprob: parsePythonFloat(logprob), isGreedy: greedy === 'True' };
  };
  return line.resps.map((resps, index) => ({
    task: task.name,
    docId: line.doc_id,
    index,
    repeats: task.config.repeats ?? 1,
    args: { type: 'loglikelihood_rolling', text: '' },
    resps: (resps as unknown[]).map(parse),
  }));
}
