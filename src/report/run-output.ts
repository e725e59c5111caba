/**
 * The results stage: the evaluation stage's plain output (EvaluatedRun) becomes what a run writes, the
 * results file and one sample log per task. Nothing here reads a backend or the run's options.
 */
import type { GroupResult, TaskResult } from '../evaluate/aggregate.js';
import type { PlannedDoc, TaskPlan } from '../evaluate/plan.js';
import { taskResponses } from '../evaluate/responses.js';
import type { EvaluatedRun } from '../evaluate/run-evaluation.js';
import type { ScoredDoc } from '../evaluate/score.js';
import type { ReasoningBlock, ResultsFile } from '../results/results-file.js';
import type { SampleLine } from '../results/sample-line.js';
import { buildResults } from './build.js';
import { leaderboardLineOfScored } from './leaderboard-line.js';
import { readSpooledLines, type SampleSpool, type SpooledTask } from './sample-spool.js';
import { sampleLine, taskHash, taskHashOfDocs } from './samples.js';

/** What writeOutputs writes: results_<time>.json and, per task, samples_<task>_<time>.jsonl. */
export interface RunOutput {
  results: ResultsFile;
  /** task name → one line per doc per filter. */
  samples: Record<string, SampleLine[]>;
}

/** A run's output with the scores it came from, as the library returns it: plain data. */
export interface RunResult extends RunOutput {
  /** Per task, each metric's value, stderr and interval (what results.json's `results` is written from). */
  taskResults: TaskResult[];
  /** Per group, its aggregated metrics. */
  groupResults: GroupResult[];
  /** Requests that failed and made errored samples; the CLI exits 1 when any did. */
  erroredSamples: number;
}

/** RunResult with the plans it came from (the CLI's --write_out prints each task's first prompt). */
export interface EvaluationOutput extends RunResult {
  plans: TaskPlan[];
}

/**
 * A record whose values are computed on first read and then kept. A run's sample lines (three sha256
 * and the Python forms of every doc) cost more than the rest of the results stage, and a run that writes
 * nothing never reads them; JSON.stringify, Object.entries and indexing read them as usual.
 */
function lazyRecord<T>(entries: Array<[string, () => T]>): Record<string, T> {
  const record: Record<string, T> = {};
  for (const [key, compute] of entries) {
    Object.defineProperty(record, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = compute();
        Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
        return value;
      },
      set(value: T) {
        Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
  return record;
}

/** A task's docs in sample-log order: every doc under the first filter by id, then the next filter. */
function orderedDocs(
  plan: TaskPlan,
  scored: EvaluatedRun['scored'][number],
): Array<{ planned: PlannedDoc; doc: ScoredDoc }> {
  const docsById = new Map(plan.docs.map((doc) => [doc.docId, doc]));
  const rows: Array<{ planned: PlannedDoc; doc: ScoredDoc; filterIndex: number }> = [];
  for (const filter of scored.filters) {
    for (const doc of scored.byFilter.get(filter) ?? []) {
      const planned = docsById.get(doc.docId);
      if (planned) rows.push({ planned, doc, filterIndex: scored.filters.indexOf(doc.filter) });
    }
  }
  // Docs by id within each filter.
  rows.sort((a, b) => a.filterIndex - b.filterIndex || a.doc.docId - b.doc.docId);
  return rows;
}

/** Where a lazy sample record keeps, per task, a way to build its lines one at a time. */
const LINE_STREAMS = Symbol('sample line streams');
/** Where it keeps its chunked tasks' lines, written already (sample-spool.ts). */
const SPOOLED = Symbol('spooled sample logs');

type StreamedRecord = Record<string, SampleLine[]> & {
  [LINE_STREAMS]?: Map<string, () => Iterable<SampleLine>>;
  [SPOOLED]?: Map<string, SpooledTask>;
};

/**
 * Each task's sample lines, as lm-eval writes them: every doc under the first filter, then the next.
 * Built per task on first read (lazyRecord); streamSampleLines builds them one at a time instead.
 */
export function sampleLines(
  run: Pick<EvaluatedRun, 'plans' | 'responses' | 'scored'>,
  spool?: SampleSpool,
): Record<string, SampleLine[]> {
  const streams = new Map<string, () => Iterable<SampleLine>>();
  const record: StreamedRecord = lazyRecord(
    run.plans.map((plan, position): [string, () => SampleLine[]] => {
      // A chunked task's lines were written as its chunks finished: read back from their file.
      const spooled = spool?.tasks.get(plan.task.name);
      if (spooled) return [plan.task.name, () => readSpooledLines(spooled)];
      const stream = function* () {
        const answers = taskResponses(run.responses, plan.task.name);
        for (const { planned, doc } of orderedDocs(plan, run.scored[position]))
          yield sampleLine(planned, answers, doc);
      };
      streams.set(plan.task.name, stream);
      return [plan.task.name, () => [...stream()]];
    }),
  );
  Object.defineProperty(record, LINE_STREAMS, { value: streams, enumerable: false });
  if (spool?.tasks.size) Object.defineProperty(record, SPOOLED, { value: spool.tasks, enumerable: false });
  return record;
}

/**
 * A task's sample log written already (a chunked task's spool), when the record is sampleLines' and its
 * lines for that task were not replaced: the writer publishes the file as it is.
 */
export function spooledTask(samples: Record<string, SampleLine[]>, task: string): SpooledTask | undefined {
  const spooled = (samples as StreamedRecord)[SPOOLED]?.get(task);
  const pending = Object.getOwnPropertyDescriptor(samples, task)?.get !== undefined;
  return spooled && pending ? spooled : undefined;
}

/**
 * A task's sample lines one at a time, for a writer: from a record of sampleLines not yet read for that
 * task, each line is built when it is reached and not kept, so a run's lines are never all in memory;
 * otherwise (lines already built, or a plain record) the record's own array.
 */
export function streamSampleLines(samples: Record<string, SampleLine[]>, task: string): Iterable<SampleLine> {
  const stream = (samples as StreamedRecord)[LINE_STREAMS]?.get(task);
  const pending = Object.getOwnPropertyDescriptor(samples, task)?.get !== undefined;
  return stream && pending ? stream() : (samples[task] ?? []);
}

export function taskHashes(samples: Record<string, SampleLine[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(samples).map(([name, lines]) => [name, taskHash(lines)]));
}

/**
 * The same task hashes as taskHashes(sampleLines(run)), from each doc's three hashes alone (the sample
 * lines are not built), on first read.
 */
function runTaskHashes(
  run: Pick<EvaluatedRun, 'plans' | 'scored'>,
  spool?: SampleSpool,
): Record<string, string> {
  return lazyRecord(
    run.plans.map((plan, position): [string, () => string] => [
      plan.task.name,
      () =>
        spool?.tasks.get(plan.task.name)?.taskHash ??
        taskHashOfDocs(orderedDocs(plan, run.scored[position]).map(({ planned }) => planned)),
    ]),
  );
}

/** The results' `reasoning` block: per task and in all. */
export function reasoningBlock(
  byTask: Record<string, { generations: number; truncated: number }>,
): ReasoningBlock {
  const block: ReasoningBlock = { generations: 0, truncated_in_thinking: 0, by_task: {} };
  for (const [task, count] of Object.entries(byTask)) {
    block.by_task[task] = { generations: count.generations, truncated_in_thinking: count.truncated };
    block.generations += count.generations;
    block.truncated_in_thinking += count.truncated;
  }
  return block;
}

/** `spool`: the chunked tasks' sample logs, written as their chunks were scored. */
export function runOutput(run: EvaluatedRun, spool?: SampleSpool): EvaluationOutput {
  const samples = sampleLines(run, spool);
  // A chunked task's leaderboard fields, unless kept as its lines were written (examples listed): from
  // its scored docs, when the leaderboard is built.
  if (spool && !spool.includePerExample) {
    for (const [position, plan] of run.plans.entries()) {
      const spooled = spool.tasks.get(plan.task.name);
      const scored = run.scored[position];
      if (spooled)
        spooled.leaderboard = () =>
          scored.filters.flatMap((filter) =>
            (scored.byFilter.get(filter) ?? []).map(leaderboardLineOfScored),
          );
    }
  }
  const results = buildResults({
    record: run.record,
    nodes: run.nodes,
    plans: run.plans,
    taskResults: run.taskResults,
    groupResults: run.groupResults,
    taskHashes: runTaskHashes(run, spool),
    latency: run.latency,
    taskLatency: run.taskLatency,
    startDate: run.startDate,
    seconds: run.seconds,
    errors: run.errors,
  });
  // Last, as lm-eval's keys come first.
  if (Object.keys(run.perplexity).length) results.perplexity = run.perplexity;
  if (Object.keys(run.thinking).length) results.reasoning = reasoningBlock(run.thinking);
  if (Object.keys(run.judges).length) results.judges = run.judges;
  return {
    results,
    samples,
    taskResults: run.taskResults,
    groupResults: run.groupResults,
    plans: run.plans,
    erroredSamples: run.erroredSamples,
  };
}
