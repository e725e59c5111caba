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
import { readLoglikelihoodVerdict, readVerdict, verdictOptions } from '../metrics/judge-verdict.js';
import {
  type JudgeConfig,
  type JurorConfig,
  judgeConfigSchema,
  jurorsOf,
} from '../metrics/llm-judge-config.js';
import {
  type Answer,
  type GenerateRequest,
  hasUsage,
  isRequestError,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelBackend,
  type UsageSummary,
} from '../models/backend.js';
import { createBackend } from '../models/registry.js';
import { renderTemplate } from '../prompts/template.js';
import type { JudgeReport } from '../results/results-file.js';
import type { JudgeCall } from '../results/sample-line.js';
import { type PairwiseJudgement, positionConsistency } from '../stats/position-consistency.js';
import type { LoadedTask } from '../tasks/task.js';
import { judgeBlocks } from './judge-blocks.js';
import { combineScores } from './judge-jury.js';
import { type JudgeLabels, judgeLabelsPath, readJudgeLabels } from './judge-labels.js';
import { baselineResponses, pairwiseBlock, positional } from './judge-pairwise.js';
import { isJudgeRequest, type JudgeRequest } from './judge-request.js';
import { judgeStatistics, juryAgreement } from './judge-statistics.js';
import type { ScoredDoc, ScoredTask } from './score.js';

/** A scored doc that a judge scored: its judge calls, for the sample log. */
export type JudgedDoc = ScoredDoc & { judge?: JudgeCall[] };

/** One `llm_judge` metric_list entry of one task, ready to judge. */
export interface JudgeSetup {
  task: string;
  /** Where the block is, for messages: `metric_list.0.judge` (YAML) or `judges.quality` (TypeScript). */
  field: string;
  metric: string;
  config: JudgeConfig;
  /** The judge, or each juror of a jury, with its backend. */
  jurors: Array<{ config: JurorConfig; backend: ModelBackend }>;
  rubricSha256: string;
  labels?: { file: string; byDoc: JudgeLabels };
  /** Pairwise judging: the baseline run's response per `filter` + doc id. */
  baseline?: { run: string; responses: Map<string, string> };
}

export interface JudgePanel {
  /** task name → its judge setups by metric name. */
  setups: Map<string, Map<string, JudgeSetup>>;
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
  const wanted = judgeBlocks(tasks);
  if (wanted.length === 0) return undefined;
  const backends = new Map<string, ModelBackend>();
  const setups = new Map<string, Map<string, JudgeSetup>>();
  const panel: JudgePanel = {
    setups,
    close: async () => {
      await Promise.all([...backends.values()].map((backend) => backend.close?.()));
    },
  };
  try {
    for (const { task, metric, field, raw } of wanted) {
      const parsed = judgeConfigSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AssayError(
          'invalid_config',
          `task ${task.name}: ${field}.${issue.path.join('.')}: ${issue.message}`,
          { location: { task: task.name, field } },
        );
      }
      const config = parsed.data;
      const jurors: JudgeSetup['jurors'] = [];
      for (const [index, juror] of jurorsOf(config).entries()) {
        const key = JSON.stringify([juror.model, juror.model_args]);
        let backend = backends.get(key);
        if (!backend) {
          context.listener?.({ type: 'phase', phase: 'loading', detail: `judge model ${juror.model}` });
          backend = await createBackend(juror.model, juror.model_args, {
            cachePath: context.cachePath,
            listener: context.listener,
            warn: context.warn,
          });
          backends.set(key, backend);
        }
        const modelField = config.jury ? `${field}.jury.${index}.model` : `${field}.model`;
        if (byLoglikelihood(config) && !backend.capabilities.loglikelihood) {
          throw new AssayError(
            'capability_missing',
            `task ${task.name}: ${field}.verdict.by: loglikelihood needs log-likelihoods, which judge model ${juror.model} (${modelField}) does not give (a chat-only backend); use a backend that scores text (gguf, vllm, local-completions) or by: generate`,
            { location: { task: task.name, field: `${field}.verdict.by` } },
          );
        }
        if (!byLoglikelihood(config) && !backend.capabilities.generate) {
          throw new AssayError('capability_missing', `judge model ${juror.model} cannot generate text`, {
            location: { task: task.name, field: modelField },
          });
        }
        jurors.push({ config: juror, backend });
      }
      let labels: JudgeSetup['labels'];
      if (config.judge_labels !== undefined) {
        const file = judgeLabelsPath(config.judge_labels, task.source.path);
        labels = { file, byDoc: await readJudgeLabels(file, config.verdict) };
      }
      let baseline: JudgeSetup['baseline'];
      if (config.mode === 'pairwise' && config.baseline !== undefined) {
        baseline = { run: config.baseline, responses: baselineResponses(config.baseline, task.name, field) };
      }
      const rubric = config.system === undefined ? config.prompt : `${config.system}\n\n${config.prompt}`;
      const setup: JudgeSetup = {
        task: task.name,
        field,
        metric,
        config,
        jurors,
        rubricSha256: createHash('sha256').update(rubric).digest('hex'),
        labels,
        baseline,
      };
      const byMetric = setups.get(task.name) ?? new Map<string, JudgeSetup>();
      byMetric.set(metric, setup);
      setups.set(task.name, byMetric);
    }
  } catch (error) {
    await panel.close();
    throw error;
  }
  return panel;
}

/** The judge reads its verdict from each option's log-likelihood, not from an answer it writes. */
function byLoglikelihood(config: JudgeConfig): boolean {
  return config.verdict.type !== 'json' && config.verdict.by === 'loglikelihood';
}

interface Pending {
  doc: ScoredDoc;
  key: string;
  request: JudgeRequest;
  setup: JudgeSetup;
  prompt: string;
  context: string;
  /** Pairwise judging: 0 with this run's response first, 1 with the baseline's first; `partner` the other. */
  order?: 0 | 1;
  partner?: Pending;
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
        const setup = setups?.get(value.metric);
        if (!setup) {
          throw new AssayError(
            'invalid_config',
            `task ${task}: ${value.metric} has no judge set up for this run`,
            {
              location: { task, field: value.metric },
            },
          );
        }
        const planned = plannedById.get(doc.docId);
        const variables: Record<string, unknown> = { doc: planned?.doc ?? {}, response: value.response };
        if (setup.config.mode !== 'reference-free') {
          variables.target = value.references[0] ?? '';
          variables.targets = value.references;
        }
        const render = (extra: Record<string, unknown>) => {
          const prompt = renderTemplate(
            setup.config.prompt,
            { ...variables, ...extra },
            { task, docId: doc.docId, field: `${setup.field}.prompt` },
          );
          return { prompt, context: judgeGenerateRequest(setup.config, prompt).context };
        };
        if (!setup.baseline) {
          pending.push({ doc, key, request: value, setup, ...render({}) });
          continue;
        }
        const other = setup.baseline.responses.get(`${doc.filter}\u0000${doc.docId}`);
        if (other === undefined) {
          throw new AssayError(
            'incompatible_runs',
            `task ${task}: the baseline run ${setup.baseline.run} has no response for doc ${doc.docId} (filter ${doc.filter}) to judge against`,
            { location: { task, docId: doc.docId, field: `${setup.field}.baseline` } },
          );
        }
        const currentFirst: Pending = {
          doc,
          key,
          request: value,
          setup,
          order: 0,
          ...render({ response_a: value.response, response_b: other }),
        };
        const baselineFirst: Pending = {
          doc,
          key,
          request: value,
          setup,
          order: 1,
          partner: currentFirst,
          ...render({ response_a: other, response_b: value.response }),
        };
        currentFirst.partner = baselineFirst;
        pending.push(currentFirst, baselineFirst);
      }
    }
  }
  if (pending.length === 0) return { scored, reports: reportsOf(setups, new Map(), new Map()) };

  // One batch per judge (each juror of a jury), each distinct request once (filters often leave the same
  // response to judge).
  // A log-likelihood verdict's answer is each option's log-likelihood, in verdictOptions order.
  type Answered = { raw: string | null; failure?: string; loglikelihoods?: number[] };
  const answers = new Map<Pending, Answered[]>();
  const requestsBySetup = new Map<JudgeSetup, number>();
  const usageBySetup = new Map<JudgeSetup, JudgeUsage[]>();
  const bySetup = new Map<JudgeSetup, Pending[]>();
  for (const item of pending) bySetup.set(item.setup, [...(bySetup.get(item.setup) ?? []), item]);
  for (const [setup, items] of bySetup) {
    const distinct = new Map<string, GenerateRequest>();
    for (const item of items) {
      if (!distinct.has(item.context))
        distinct.set(item.context, judgeGenerateRequest(setup.config, item.prompt));
    }
    const contexts = [...distinct.keys()];
    const options = byLoglikelihood(setup.config) ? verdictOptions(setup.config.verdict) : undefined;
    // A log-likelihood verdict asks one loglikelihood request per context and option, context-major.
    const loglikelihoodRequests: LoglikelihoodRequest[] = options
      ? contexts.flatMap((context) =>
          options.map((option) => ({ context, continuation: option.continuation })),
        )
      : [];
    const perJuror = options ? loglikelihoodRequests.length : distinct.size;
    requestsBySetup.set(setup, perJuror * setup.jurors.length);
    for (const [index, juror] of setup.jurors.entries()) {
      const operation = startOperation(listener, {
        id: `judge:${task}:${setup.metric}:${index}`,
        label: `${task}: judge calls (${juror.config.model})`,
        unit: 'requests',
        total: perJuror,
      });
      const before = hasUsage(juror.backend) ? juror.backend.usage() : undefined;
      const onProgress = (done: number) => operation.progress(done);
      const results: Answered[] = await (options
        ? juror.backend
            .loglikelihood({ requests: loglikelihoodRequests, onProgress })
            .then((answers) =>
              contexts.map((_, position) => loglikelihoodAnswer(answers, position, options.length)),
            )
        : juror.backend
            .generate({ requests: [...distinct.values()], onProgress })
            .then((answers) => answers.map(generatedAnswer))
      ).finally(() => operation.end());
      if (before && hasUsage(juror.backend)) {
        const spent = usageSpent(before, juror.backend.usage());
        const previous = usageBySetup.get(setup) ?? [];
        previous[index] = spent;
        usageBySetup.set(setup, previous);
      }
      const byContext = new Map(contexts.map((context, position) => [context, results[position]]));
      for (const item of items) {
        const answered = byContext.get(item.context) ?? {
          raw: null,
          failure: 'judge request failed: no answer',
        };
        answers.set(item, [...(answers.get(item) ?? []), answered]);
      }
    }
  }

  const judged = new Map<ScoredDoc, JudgedDoc>();
  const erroredBySetup = new Map<JudgeSetup, number>();
  const scoresBySetup = new Map<JudgeSetup, Map<number, number>>();
  const jurorScoresBySetup = new Map<JudgeSetup, Map<number, Array<number | null>>>();
  const firstFilter = scored.filters[0];
  const judgementsBySetup = new Map<JudgeSetup, PairwiseJudgement[]>();
  for (const item of pending) {
    // A pairwise doc is scored once, from both orders, when its current-first item comes up.
    if (item.order === 1) continue;
    const { setup } = item;
    const jury = setup.config.jury !== undefined;
    const calls: JudgeCall[] = [];
    const scores: number[] = [];
    let failure: string | undefined;
    let failedRaw: string | null = null;
    const orders = item.partner ? [item, item.partner] : [item];
    for (const [index, jurorEntry] of setup.jurors.entries()) {
      const juror = jurorEntry.config;
      const jurorScores: number[] = [];
      for (const ordered of orders) {
        const answer = (answers.get(ordered) ?? [])[index] ?? { raw: null, failure: 'no answer' };
        const picked = answer.loglikelihoods
          ? readLoglikelihoodVerdict(answer.loglikelihoods, setup.config.verdict)
          : undefined;
        const reading =
          picked ?? (answer.raw === null ? undefined : readVerdict(answer.raw, setup.config.verdict));
        const problem =
          answer.failure ?? (reading && !reading.ok ? `unparseable verdict: ${reading.reason}` : undefined);
        const call: JudgeCall = {
          metric: item.key,
          model: juror.model,
          prompt: ordered.context,
          // A log-likelihood verdict's answer is the option it picked.
          raw: picked ? (picked.answer ?? null) : answer.raw,
          verdict: reading?.ok ? reading.verdict : null,
          score: reading?.ok ? reading.score : null,
        };
        const loglikelihoods = answer.loglikelihoods;
        if (loglikelihoods) {
          call.loglikelihoods = Object.fromEntries(
            verdictOptions(setup.config.verdict).map((option, position) => [
              option.text,
              loglikelihoods[position],
            ]),
          );
        }
        if (ordered.order !== undefined)
          call.order = ordered.order === 0 ? 'current-first' : 'baseline-first';
        if (problem !== undefined || !reading?.ok) {
          call.error = problem;
          if (failure === undefined) {
            failure = jury ? `juror ${index} (${juror.model}): ${problem}` : problem;
            failedRaw = answer.raw;
          }
        } else {
          jurorScores.push(reading.score);
        }
        calls.push(call);
      }
      if (jurorScores.length !== orders.length) continue;
      if (!item.partner) {
        scores.push(jurorScores[0]);
        continue;
      }
      // Scores are of the response shown first: 1 it won, 0 the second won, 0.5 a tie.
      const judgement: PairwiseJudgement = {
        aFirst: positional(jurorScores[0], 'A', 'B'),
        bFirst: positional(jurorScores[1], 'B', 'A'),
      };
      if (item.doc.filter === firstFilter) {
        judgementsBySetup.set(setup, [...(judgementsBySetup.get(setup) ?? []), judgement]);
      }
      const resolved = positionConsistency([judgement]).resolved[0];
      scores.push(resolved === 'A' ? 1 : resolved === 'B' ? 0 : 0.5);
    }
    if (item.doc.filter === firstFilter && jury) {
      const perJuror = jurorScoresBySetup.get(setup) ?? new Map<number, Array<number | null>>();
      perJuror.set(
        item.doc.docId,
        calls.map((call) => call.score),
      );
      jurorScoresBySetup.set(setup, perJuror);
    }
    let score: number | undefined;
    if (failure === undefined) {
      const combined = combineScores(scores, setup.config.aggregate, jury);
      if (typeof combined === 'number') score = combined;
      else failure = combined.failure;
    }
    const done = judged.get(item.doc) ?? { ...item.doc, metrics: { ...item.doc.metrics } };
    if (score === undefined) {
      // An errored sample counts in no metric (as a failed request's does); the reason and raw answer stay.
      done.metrics = {};
      done.error =
        done.error ??
        `${item.key}: ${failure}${failedRaw === null ? '' : `; the judge answered ${JSON.stringify(failedRaw)}`}`;
      if (item.doc.filter === firstFilter) erroredBySetup.set(setup, (erroredBySetup.get(setup) ?? 0) + 1);
    } else {
      if (done.error === undefined) done.metrics[item.key] = score;
      if (item.doc.filter === firstFilter) {
        const byDoc = scoresBySetup.get(setup) ?? new Map<number, number>();
        byDoc.set(item.doc.docId, score);
        scoresBySetup.set(setup, byDoc);
      }
    }
    done.judge = [...(done.judge ?? []), ...calls];
    judged.set(item.doc, done);
  }
  const byFilter = new Map(
    [...scored.byFilter].map(([filter, docs]) => [filter, docs.map((doc) => judged.get(doc) ?? doc)]),
  );
  return {
    scored: { ...scored, byFilter },
    reports: reportsOf(
      setups,
      requestsBySetup,
      erroredBySetup,
      scoresBySetup,
      jurorScoresBySetup,
      usageBySetup,
      judgementsBySetup,
    ),
  };
}

/** A generate request's answer as the judge's raw answer, or why there is none. */
function generatedAnswer(answer: Answer<string> | undefined): { raw: string | null; failure?: string } {
  return answer === undefined || isRequestError(answer)
    ? { raw: null, failure: `judge request failed: ${answer?.message ?? 'no answer'}` }
    : { raw: answer };
}

/** The options' log-likelihoods of the context at `position`, or the first of its requests that failed. */
function loglikelihoodAnswer(
  answers: ReadonlyArray<Answer<LoglikelihoodResult> | undefined>,
  position: number,
  optionCount: number,
): { raw: string | null; failure?: string; loglikelihoods?: number[] } {
  const own = answers.slice(position * optionCount, (position + 1) * optionCount);
  const failed = own.find((answer) => answer === undefined || isRequestError(answer));
  if (failed !== undefined || own.length < optionCount) {
    const message = failed !== undefined && isRequestError(failed) ? failed.message : 'no answer';
    return { raw: null, failure: `judge request failed: ${message}` };
  }
  return { raw: null, loglikelihoods: own.map((answer) => (answer as LoglikelihoodResult).logprob) };
}

function reportsOf(
  setups: Map<string, JudgeSetup> | undefined,
  requests: Map<JudgeSetup, number>,
  errored: Map<JudgeSetup, number>,
  scores: Map<JudgeSetup, Map<number, number>> = new Map(),
  jurorScores: Map<JudgeSetup, Map<number, Array<number | null>>> = new Map(),
  usage: Map<JudgeSetup, JudgeUsage[]> = new Map(),
  judgements: Map<JudgeSetup, PairwiseJudgement[]> = new Map(),
): JudgeReport[] {
  return [...(setups?.values() ?? [])].map((setup) => {
    const { config } = setup;
    const jurors = setup.jurors.map((juror) => ({
      model: juror.config.model,
      model_args: redacted(juror.config.model_args),
    }));
    const statistics = setup.labels
      ? judgeStatistics(scores.get(setup) ?? new Map(), setup.labels.byDoc, config.verdict, setup.labels.file)
      : undefined;
    const jury =
      config.jury === undefined
        ? undefined
        : juryAgreement(jurorScores.get(setup) ?? new Map(), config.verdict);
    return {
      metric: setup.metric,
      model: jurors.map((juror) => juror.model).join(' + '),
      model_args: jurors.length === 1 ? jurors[0].model_args : {},
      ...(config.jury === undefined ? {} : { jury: jurors, aggregate: config.aggregate }),
      ...(jury ? { jury_agreement: jury } : {}),
      ...(setup.baseline ? { pairwise: pairwiseBlock(setup.baseline.run, judgements.get(setup) ?? []) } : {}),
      rubric_sha256: setup.rubricSha256,
      mode: config.mode,
      verdict: { ...config.verdict },
      requests: requests.get(setup) ?? 0,
      errored: errored.get(setup) ?? 0,
      ...(usage.get(setup)?.some(Boolean)
        ? { usage: setup.jurors.map((_, index) => usage.get(setup)?.[index] ?? null) }
        : {}),
      ...(statistics ? { statistics } : {}),
    };
  });
}

function redacted(args: Record<string, unknown>): Record<string, unknown> {
  return 'api_key' in args ? { ...args, api_key: '<redacted>' } : args;
}

type JudgeUsage = NonNullable<JudgeReport['usage']>[number];

/** What one batch of judge calls cost a served judge: the difference of its usage before and after. */
function usageSpent(before: UsageSummary, after: UsageSummary): NonNullable<JudgeUsage> {
  return {
    requests: after.requests - before.requests,
    http_requests: after.httpRequests - before.httpRequests,
    cached_requests: after.cachedRequests - before.cachedRequests,
    retries: after.retries - before.retries,
    tokens_in: after.tokensIn - before.tokensIn,
    tokens_out: after.tokensOut - before.tokensOut,
    cost_usd: after.costUsd === null ? null : after.costUsd - (before.costUsd ?? 0),
  };
}
