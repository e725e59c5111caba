/**
 * The judge stage: `llm_judge` metrics scored by another model. Scoring (score.ts) leaves a JudgeRequest
 * where such a metric's value goes; this stage renders the rubric for each (Jinja over `doc`, `response`
 * and, reference-based, `target` / `targets`), sends the prompts to the judge backend as generate requests
 * (deduplicated, one batch per judge: the backend's own batching, retries and answer checks apply, and the
 * response cache when the run has one, so a rerun asks nothing twice), reads each answer as the verdict
 * the config asks for, and returns the scored task anew with the verdict's score in the request's place.
 *
 * A judge call that failed, or an answer that holds no verdict, makes the doc an errored sample whose
 * error names the reason and whose `judge` record keeps the prompt and the raw answer: never a silent 0.
 * The judge's backends are created before the run's own requests (`prepareJudges`), so a bad judge model
 * or labels file stops the run before any expensive work.
 */
import { createHash } from 'node:crypto';
import { AssayError } from '../errors.js';
import { type RunListener, startOperation } from '../events.js';
import { readVerdict } from '../metrics/judge-verdict.js';
import { type JudgeConfig, judgeConfigSchema } from '../metrics/llm-judge-config.js';
import { type GenerateRequest, isRequestError, type ModelBackend } from '../models/backend.js';
import { createBackend } from '../models/registry.js';
import { renderTemplate } from '../prompts/template.js';
import type { JudgeReport } from '../results/results-file.js';
import type { JudgeCall } from '../results/sample-line.js';
import type { LoadedTask } from '../tasks/task.js';
import { type JudgeLabels, judgeLabelsPath, readJudgeLabels } from './judge-labels.js';
import { isJudgeRequest, type JudgeRequest } from './judge-request.js';
import { judgeStatistics } from './judge-statistics.js';
import { metricListFor } from './plan.js';
import type { ScoredDoc, ScoredTask } from './score.js';

/** A scored doc that a judge scored: its judge calls, for the sample log. */
export type JudgedDoc = ScoredDoc & { judge?: JudgeCall[] };

/** One `llm_judge` metric_list entry of one task, ready to judge. */
export interface JudgeSetup {
  task: string;
  entry: number;
  metric: string;
  config: JudgeConfig;
  backend: ModelBackend;
  rubricSha256: string;
  labels?: { file: string; byDoc: JudgeLabels };
}

export interface JudgePanel {
  /** task name → its judge setups by metric_list entry. */
  setups: Map<string, Map<number, JudgeSetup>>;
  close(): Promise<void>;
}

export interface JudgeContext {
  /** The run's response cache (`useCache`): judge calls are cached like any other request. */
  cachePath?: string;
  listener?: RunListener;
  warn?: (message: string) => void;
}

/** Parses every task's judge blocks, reads their labels and creates their backends (one per model and args). */
export async function prepareJudges(
  tasks: LoadedTask[],
  context: JudgeContext,
): Promise<JudgePanel | undefined> {
  const wanted: Array<{ task: LoadedTask; entry: number; raw: unknown }> = [];
  for (const task of tasks) {
    for (const [entry, metric] of metricListFor(task).entries()) {
      if (metric.metric === 'llm_judge') wanted.push({ task, entry, raw: metric.judge });
    }
  }
  if (wanted.length === 0) return undefined;
  const backends = new Map<string, ModelBackend>();
  const setups = new Map<string, Map<number, JudgeSetup>>();
  const panel: JudgePanel = {
    setups,
    close: async () => {
      await Promise.all([...backends.values()].map((backend) => backend.close?.()));
    },
  };
  try {
    for (const { task, entry, raw } of wanted) {
      const parsed = judgeConfigSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AssayError(
          'invalid_config',
          `task ${task.name}: metric_list[${entry}].judge.${issue.path.join('.')}: ${issue.message}`,
          { location: { task: task.name, field: `metric_list.${entry}.judge` } },
        );
      }
      const config = parsed.data;
      const key = JSON.stringify([config.model, config.model_args]);
      let backend = backends.get(key);
      if (!backend) {
        context.listener?.({ type: 'phase', phase: 'loading', detail: `judge model ${config.model}` });
        backend = await createBackend(config.model, config.model_args, {
          cachePath: context.cachePath,
          listener: context.listener,
          warn: context.warn,
        });
        backends.set(key, backend);
      }
      if (!backend.capabilities.generate) {
        throw new AssayError('capability_missing', `judge model ${config.model} cannot generate text`, {
          location: { task: task.name, field: `metric_list.${entry}.judge.model` },
        });
      }
      let labels: JudgeSetup['labels'];
      if (config.judge_labels !== undefined) {
        const file = judgeLabelsPath(config.judge_labels, task.source.path);
        labels = { file, byDoc: await readJudgeLabels(file, config.verdict) };
      }
      const rubric = config.system === undefined ? config.prompt : `${config.system}\n\n${config.prompt}`;
      const setup: JudgeSetup = {
        task: task.name,
        entry,
        metric: 'llm_judge',
        config,
        backend,
        rubricSha256: createHash('sha256').update(rubric).digest('hex'),
        labels,
      };
      const byEntry = setups.get(task.name) ?? new Map<number, JudgeSetup>();
      byEntry.set(entry, setup);
      setups.set(task.name, byEntry);
    }
  } catch (error) {
    await panel.close();
    throw error;
  }
  return panel;
}

interface Pending {
  doc: ScoredDoc;
  key: string;
  request: JudgeRequest;
  setup: JudgeSetup;
  prompt: string;
  context: string;
}

/** The generate request a judge call sends: greedy unless the judge block's generation_kwargs say otherwise. */
export function judgeGenerateRequest(config: JudgeConfig, prompt: string): GenerateRequest {
  const {
    until,
    max_gen_toks: maxGenToks,
    temperature,
    do_sample: doSample,
    ...extra
  } = config.generation_kwargs;
  // A system message makes the prompt a chat: the JSON message list chat backends read as the messages.
  const context =
    config.system === undefined
      ? prompt
      : JSON.stringify([
          { role: 'system', content: config.system },
          { role: 'user', content: prompt },
        ]);
  return {
    context,
    until: Array.isArray(until) ? until.map(String) : typeof until === 'string' ? [until] : [],
    maxGenToks: typeof maxGenToks === 'number' ? maxGenToks : 256,
    temperature: typeof temperature === 'number' ? temperature : 0,
    doSample: doSample === true,
    extra,
  };
}

export interface JudgeStageResult {
  scored: ScoredTask;
  reports: JudgeReport[];
}

/** Judges one scored task: the task with its judge metrics scored, and one report per judge metric. */
export async function runJudgeStage(
  scored: ScoredTask,
  panel: JudgePanel | undefined,
  listener?: RunListener,
): Promise<JudgeStageResult> {
  const task = scored.plan.task.name;
  const setups = panel?.setups.get(task);
  const pending: Pending[] = [];
  const plannedById = new Map(scored.plan.docs.map((planned) => [planned.docId, planned]));
  for (const docs of scored.byFilter.values()) {
    for (const doc of docs) {
      for (const [key, value] of Object.entries(doc.metrics)) {
        if (!isJudgeRequest(value)) continue;
        const setup = setups?.get(value.entry);
        if (!setup) {
          throw new AssayError('invalid_config', `task ${task}: llm_judge has no judge set up for this run`, {
            location: { task, field: `metric_list.${value.entry}.judge` },
          });
        }
        const planned = plannedById.get(doc.docId);
        const variables: Record<string, unknown> = { doc: planned?.doc ?? {}, response: value.response };
        if (setup.config.mode === 'reference-based') {
          variables.target = value.references[0] ?? '';
          variables.targets = value.references;
        }
        const prompt = renderTemplate(setup.config.prompt, variables, {
          task,
          docId: doc.docId,
          field: `metric_list.${value.entry}.judge.prompt`,
        });
        const { context } = judgeGenerateRequest(setup.config, prompt);
        pending.push({ doc, key, request: value, setup, prompt, context });
      }
    }
  }
  if (pending.length === 0) return { scored, reports: reportsOf(setups, new Map(), new Map()) };

  // One batch per judge backend, each distinct request once (filters often leave the same response).
  const answers = new Map<Pending, { raw: string | null; failure?: string }>();
  const requestsBySetup = new Map<JudgeSetup, number>();
  const bySetup = new Map<JudgeSetup, Pending[]>();
  for (const item of pending) bySetup.set(item.setup, [...(bySetup.get(item.setup) ?? []), item]);
  for (const [setup, items] of bySetup) {
    const distinct = new Map<string, GenerateRequest>();
    for (const item of items) {
      if (!distinct.has(item.context))
        distinct.set(item.context, judgeGenerateRequest(setup.config, item.prompt));
    }
    requestsBySetup.set(setup, distinct.size);
    const operation = startOperation(listener, {
      id: `judge:${task}:${setup.entry}`,
      label: `${task}: judge calls`,
      unit: 'requests',
      total: distinct.size,
    });
    const contexts = [...distinct.keys()];
    const results = await setup.backend
      .generate([...distinct.values()], (done) => operation.progress(done))
      .finally(() => operation.end());
    const byContext = new Map(contexts.map((context, index) => [context, results[index]]));
    for (const item of items) {
      const answer = byContext.get(item.context);
      if (answer === undefined || isRequestError(answer)) {
        answers.set(item, { raw: null, failure: `judge request failed: ${answer?.message ?? 'no answer'}` });
      } else {
        answers.set(item, { raw: answer });
      }
    }
  }

  const judged = new Map<ScoredDoc, JudgedDoc>();
  const erroredBySetup = new Map<JudgeSetup, number>();
  const scoresBySetup = new Map<JudgeSetup, Map<number, number>>();
  const firstFilter = scored.filters[0];
  for (const item of pending) {
    const answer = answers.get(item) as { raw: string | null; failure?: string };
    const reading = answer.raw === null ? undefined : readVerdict(answer.raw, item.setup.config.verdict);
    const failure =
      answer.failure ?? (reading && !reading.ok ? `unparseable verdict: ${reading.reason}` : undefined);
    const done = judged.get(item.doc) ?? { ...item.doc, metrics: { ...item.doc.metrics } };
    const call: JudgeCall = {
      metric: item.key,
      model: item.setup.config.model,
      prompt: item.context,
      raw: answer.raw,
      verdict: reading?.ok ? reading.verdict : null,
      score: reading?.ok ? reading.score : null,
    };
    if (failure !== undefined || !reading?.ok) {
      call.error = failure;
      // An errored sample counts in no metric (as a failed request's does); the reason and raw answer stay.
      done.metrics = {};
      done.error =
        done.error ??
        `${item.key}: ${failure}${answer.raw === null ? '' : `; the judge answered ${JSON.stringify(answer.raw)}`}`;
      if (item.doc.filter === firstFilter)
        erroredBySetup.set(item.setup, (erroredBySetup.get(item.setup) ?? 0) + 1);
    } else {
      if (done.error === undefined) done.metrics[item.key] = reading.score;
      if (item.doc.filter === firstFilter) {
        const scores = scoresBySetup.get(item.setup) ?? new Map<number, number>();
        scores.set(item.doc.docId, reading.score);
        scoresBySetup.set(item.setup, scores);
      }
    }
    done.judge = [...(done.judge ?? []), call];
    judged.set(item.doc, done);
  }
  const byFilter = new Map(
    [...scored.byFilter].map(([filter, docs]) => [filter, docs.map((doc) => judged.get(doc) ?? doc)]),
  );
  return {
    scored: { ...scored, byFilter },
    reports: reportsOf(setups, requestsBySetup, erroredBySetup, scoresBySetup),
  };
}

function reportsOf(
  setups: Map<number, JudgeSetup> | undefined,
  requests: Map<JudgeSetup, number>,
  errored: Map<JudgeSetup, number>,
  scores: Map<JudgeSetup, Map<number, number>> = new Map(),
): JudgeReport[] {
  return [...(setups?.values() ?? [])].map((setup) => {
    const { config } = setup;
    const modelArgs =
      'api_key' in config.model_args ? { ...config.model_args, api_key: '<redacted>' } : config.model_args;
    const statistics = setup.labels
      ? judgeStatistics(scores.get(setup) ?? new Map(), setup.labels.byDoc, config.verdict, setup.labels.file)
      : undefined;
    return {
      metric: setup.metric,
      model: config.model,
      model_args: modelArgs,
      rubric_sha256: setup.rubricSha256,
      mode: config.mode,
      verdict: { ...config.verdict },
      requests: requests.get(setup) ?? 0,
      errored: errored.get(setup) ?? 0,
      ...(statistics ? { statistics } : {}),
    };
  });
}
