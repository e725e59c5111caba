import { AssayError } from '../errors.js';
import type { ModelBackend } from '../models/backend.js';
import type { PythonRuntime } from '../python/python-runtime.js';
import { buildResults, type ResultsFile } from '../results/build.js';
import { type SampleLine, sampleLine, taskHash } from '../results/samples.js';
import type { CodeSandbox } from '../sandbox/sandbox.js';
import type { LoadedTask, TaskNode } from '../tasks/task.js';
import { leafTasks } from '../tasks/task.js';
import { aggregateGroup, aggregateTask, allGroups, type GroupResult, type TaskResult } from './aggregate.js';
import { runCodeStage } from './code-stage.js';
import { errorCauses } from './errored-samples.js';
import type { RunListener } from './events.js';
import { executeRequests } from './execute.js';
import type { McMode } from './mc-generate.js';
import type { PerplexityOptions } from './perplexity/settings.js';
import { PerplexityStage } from './perplexity/stage.js';
import { type TaskPins, verifyPins } from './pins.js';
import { planTask, type TaskPlan } from './plan.js';
import type { Instance } from './requests.js';
import { type ScoredTask, scoreTask } from './score.js';
import type { Shard } from './shard.js';

export interface Seeds {
  random: number | null;
  numpy: number | null;
  torch: number | null;
  fewshot: number | null;
}

export interface RunOptions {
  limit?: number;
  samples?: Record<string, number[]>;
  shard?: Shard;
  mcMode?: McMode;
  numFewshot?: number;
  seeds: Seeds;
  systemInstruction?: string;
  applyChatTemplate: boolean | string;
  fewshotAsMultiturn: boolean;
  genKwargs: Record<string, unknown>;
  bootstrapIters: number;
  predictOnly: boolean;
  /** What results.json's `config` block records about how the model was asked for. */
  modelLabel: { model: string; modelArgs: Record<string, unknown> | string; batchSize: string | number };
  useCache?: string | null;
  listener?: RunListener;
  /** Runs model-written code for code metrics; set only when the run's tasks were confirmed as unsafe_code. */
  codeSandbox?: CodeSandbox;
  /** --ppl_mode / --ppl_stride / --ppl_max_length for loglikelihood_rolling tasks. */
  perplexity?: PerplexityOptions;
  /** The Python worker the tasks' Python functions are bound to, when any task has them (the manifest records it). */
  python?: PythonRuntime;
  /** Task → expected content sha256 (`--expect_sha256`), checked once the docs are loaded. */
  pins?: TaskPins;
  /** The per-request latency cap in seconds (`--max_latency_s`). */
  maxLatencyS?: number;
}

export interface EvaluationOutput {
  results: ResultsFile;
  /** task name → one line per doc per filter. */
  samples: Record<string, SampleLine[]>;
  taskResults: TaskResult[];
  groupResults: GroupResult[];
  plans: TaskPlan[];
  /** Requests that failed and made errored samples; the CLI exits 1 when any did. */
  erroredSamples: number;
}

/** plan → run → filter → score → aggregate, for tasks already resolved and a backend already created. */
export async function runEvaluation(
  backend: ModelBackend,
  nodes: TaskNode[],
  options: RunOptions,
): Promise<EvaluationOutput> {
  const started = performance.now();
  const startDate = Date.now() / 1000;
  const tasks = uniqueLeaves(nodes);
  const listener = options.listener;
  listener?.({ type: 'run-start', tasks: tasks.map((task) => task.name) });

  listener?.({ type: 'phase', phase: 'building' });
  const plans: TaskPlan[] = [];
  for (const task of tasks) {
    plans.push(
      await planTask(task, {
        limit: options.limit,
        samples: options.samples,
        shard: options.shard,
        mcMode: options.mcMode,
        numFewshot: options.numFewshot,
        fewshotSeed: options.seeds.fewshot ?? 1234,
        systemInstruction: options.systemInstruction,
        applyChatTemplate: options.applyChatTemplate,
        fewshotAsMultiturn: options.fewshotAsMultiturn,
        genKwargs: options.genKwargs,
        backend,
        listener,
      }),
    );
  }

  // Every doc is loaded now (few-shot pools included), so the content hashes are known: a pinned task
  // that changed stops the run before any model request.
  verifyPins(options.pins, tasks);

  // Perplexity modes are settled now, so a backend that cannot serve one stops the run before any request.
  const perplexity = await PerplexityStage.plan(backend, plans, options.perplexity);

  listener?.({ type: 'phase', phase: 'requests' });
  const instances: Instance[] = [];
  for (const plan of plans)
    for (const doc of plan.docs)
      for (const instance of doc.instances) if (!perplexity.ownsInstance(instance)) instances.push(instance);
  if (options.maxLatencyS !== undefined) {
    const windowed = plans.find((plan) =>
      plan.docs.some((doc) => doc.instances.some((instance) => perplexity.ownsInstance(instance))),
    );
    if (windowed) {
      throw new AssayError(
        'bad_argument',
        `--max_latency_s caps requests; task ${windowed.task.name} is scored in token windows (--ppl_mode strided or chunked), which it cannot time one by one: drop one of the two`,
        { location: { task: windowed.task.name } },
      );
    }
  }
  const latency = await executeRequests(backend, instances, listener, { maxLatencyS: options.maxLatencyS });
  await perplexity.run(backend, listener);

  listener?.({ type: 'phase', phase: 'scoring' });
  const taskResults: TaskResult[] = [];
  const samples: Record<string, SampleLine[]> = {};
  let erroredSamples = 0;
  const scoredTasks: ScoredTask[] = [];
  for (const plan of plans) {
    const scored = await scoreTask(plan, options.predictOnly);
    perplexity.annotate(scored);
    scoredTasks.push(scored);
    await runCodeStage(scored, options.codeSandbox, listener);
    const result = await aggregateTask(scored, {
      bootstrapIters: options.bootstrapIters,
      predictOnly: options.predictOnly,
    });
    erroredSamples += result.erroredSamples;
    taskResults.push(result);
    const lines: SampleLine[] = [];
    const docsById = new Map(plan.docs.map((doc) => [doc.docId, doc]));
    for (const filter of scored.filters) {
      for (const doc of scored.byFilter.get(filter) ?? []) {
        const planned = docsById.get(doc.docId);
        if (planned) lines.push(sampleLine(planned, doc));
      }
    }
    // As lm-eval writes them: every doc under the first filter, then every doc under the next (docs by id).
    lines.sort(
      (a, b) => scored.filters.indexOf(a.filter) - scored.filters.indexOf(b.filter) || a.doc_id - b.doc_id,
    );
    samples[plan.task.name] = lines;
  }
  const byName = new Map(taskResults.map((result) => [result.name, result]));
  const groupResults = (
    await Promise.all(allGroups(nodes).map((group) => aggregateGroup(group, byName)))
  ).filter((result): result is GroupResult => result !== undefined);

  const taskHashes: Record<string, string> = {};
  for (const [name, lines] of Object.entries(samples)) taskHashes[name] = taskHash(lines);
  const results = buildResults({
    nodes,
    plans,
    taskResults,
    groupResults,
    backend,
    options,
    taskHashes,
    latency,
    startDate,
    seconds: (performance.now() - started) / 1000,
    errors: errorCauses(scoredTasks),
  });
  const perplexityReports = perplexity.report(scoredTasks);
  if (Object.keys(perplexityReports).length) results.perplexity = perplexityReports;
  listener?.({ type: 'run-end', seconds: (performance.now() - started) / 1000 });
  return { results, samples, taskResults, groupResults, plans, erroredSamples };
}

function uniqueLeaves(nodes: TaskNode[]): LoadedTask[] {
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
