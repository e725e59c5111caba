/**
 * The results stage: the evaluation stage's plain output (EvaluatedRun) becomes what a run writes, the
 * results file and one sample log per task. Nothing here reads a backend or the run's options.
 */
import type { GroupResult, TaskResult } from '../evaluate/aggregate.js';
import type { TaskPlan } from '../evaluate/plan.js';
import type { EvaluatedRun } from '../evaluate/run-evaluation.js';
import { buildResults } from './build.js';
import type { ResultsFile } from './results-file.js';
import { type SampleLine, sampleLine, taskHash } from './samples.js';

/** What writeOutputs writes: results_<time>.json and, per task, samples_<task>_<time>.jsonl. */
export interface RunOutput {
  results: ResultsFile;
  /** task name → one line per doc per filter. */
  samples: Record<string, SampleLine[]>;
}

/** A run's output with the stage results it came from, as the library returns it. */
export interface EvaluationOutput extends RunOutput {
  taskResults: TaskResult[];
  groupResults: GroupResult[];
  plans: TaskPlan[];
  /** Requests that failed and made errored samples; the CLI exits 1 when any did. */
  erroredSamples: number;
}

/** Each task's sample lines, as lm-eval writes them: every doc under the first filter, then the next. */
export function sampleLines(run: Pick<EvaluatedRun, 'plans' | 'scored'>): Record<string, SampleLine[]> {
  const samples: Record<string, SampleLine[]> = {};
  run.plans.forEach((plan, position) => {
    const scored = run.scored[position];
    const docsById = new Map(plan.docs.map((doc) => [doc.docId, doc]));
    const lines: SampleLine[] = [];
    for (const filter of scored.filters) {
      for (const doc of scored.byFilter.get(filter) ?? []) {
        const planned = docsById.get(doc.docId);
        if (planned) lines.push(sampleLine(planned, doc));
      }
    }
    // Docs by id within each filter.
    lines.sort(
      (a, b) => scored.filters.indexOf(a.filter) - scored.filters.indexOf(b.filter) || a.doc_id - b.doc_id,
    );
    samples[plan.task.name] = lines;
  });
  return samples;
}

export function taskHashes(samples: Record<string, SampleLine[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(samples).map(([name, lines]) => [name, taskHash(lines)]));
}

export function runOutput(run: EvaluatedRun): EvaluationOutput {
  const samples = sampleLines(run);
  const results = buildResults({
    record: run.record,
    nodes: run.nodes,
    plans: run.plans,
    taskResults: run.taskResults,
    groupResults: run.groupResults,
    taskHashes: taskHashes(samples),
    latency: run.latency,
    taskLatency: run.taskLatency,
    startDate: run.startDate,
    seconds: run.seconds,
    errors: run.errors,
  });
  // Last, as lm-eval's keys come first.
  if (Object.keys(run.perplexity).length) results.perplexity = run.perplexity;
  return {
    results,
    samples,
    taskResults: run.taskResults,
    groupResults: run.groupResults,
    plans: run.plans,
    erroredSamples: run.erroredSamples,
  };
}
