import { AssayError } from '../errors.js';
import type { RunListener } from '../events.js';
import {
  type ChatMessage,
  type GenerateRequest,
  hasChatTemplate,
  type ModelBackend,
} from '../models/backend.js';
import { buildPrompt, createFewshotCache, fewshotTurns } from '../prompts/context.js';
import { docToChoice, docToTarget, docToText } from '../prompts/doc-to.js';
import { FewshotSampler, isSameSplit } from '../prompts/fewshot.js';
import { prepareDocFunctions } from '../python/doc-functions.js';
import type { Doc } from '../task-config/doc.js';
import type { MetricConfig } from '../task-config/metric-config.js';
import type { LoadedTask } from '../tasks/task.js';
import { selectDocIds } from './doc-selection.js';
import { normalizeGenerationKwargs } from './generation-kwargs.js';
import {
  checkGenerativeChoice,
  GENERATE_METRICS,
  generativeChoiceConfig,
  generativeChoiceGeneration,
} from './mc-generate.js';
import { effectiveNumFewshot } from './num-fewshot.js';
import {
  choiceContinuations,
  type DocRequests,
  generateRequests,
  generativeChoiceRequests,
  loglikelihoodRequests,
  multipleChoiceRequests,
  rollingRequests,
} from './request-builders.js';
import type { Instance, RequestArgs } from './requests.js';
import type { ResolvedRunOptions } from './run-options.js';

/** The run's options planning reads (run-options.ts), with the seed and backend it plans for. */
export type PlanOptions = Pick<
  ResolvedRunOptions,
  | 'limit'
  | 'samples'
  | 'shard'
  | 'numFewshot'
  | 'systemInstruction'
  | 'applyChatTemplate'
  | 'fewshotAsMultiturn'
  | 'genKwargs'
> &
  Partial<Pick<ResolvedRunOptions, 'mcMode'>> & {
    /** null: do not seed (lm-eval's `--seed None`); the default sampler then uses seed 1234 anyway. */
    fewshotSeed: number;
    backend: ModelBackend;
    listener?: RunListener;
  };

export interface PlannedDoc {
  docId: number;
  doc: Doc;
  fewshotIds: number[];
  /** doc_to_target, as the sample log writes it. */
  target: unknown;
  /** The gold choice index when it is not doc_to_target: multiple-input tasks (winogrande) take doc_to_text's. */
  gold?: number;
  choices?: string[];
  instances: Instance[];
}

export interface TaskPlan {
  task: LoadedTask;
  numFewshot: number;
  docs: PlannedDoc[];
  /** Docs in the evaluation split before --limit/--samples. */
  original: number;
  metricList: MetricConfig[];
  generation?: Omit<GenerateRequest, 'context'>;
  /** Set for a multiple-choice task planned with `mcMode: 'generate'`. */
  mcMode?: 'generate';
  /**
   * Set for a task evaluated a chunk of docs at a time (chunked-task.ts): `docs` then holds its first doc
   * only (the one the CLI's prompt print-out shows), and this counts them all.
   */
  chunked?: { docs: number };
}

const DEFAULT_METRICS: Record<string, string[]> = {
  loglikelihood: ['perplexity', 'acc'],
  loglikelihood_rolling: ['word_perplexity', 'byte_perplexity', 'bits_per_byte'],
  multiple_choice: ['acc', 'acc_norm'],
  generate_until: ['exact_match'],
};

/**
 * The name a metric_list entry reports under: the registry name, or for a `!function` metric the
 * function's own name (lm-eval keys callables by `__name__`).
 */
export function metricName(entry: MetricConfig): string {
  if (typeof entry.metric === 'string') return entry.metric;
  return entry.metric.ref.split(/[.#]/).pop() ?? entry.metric.ref;
}

export function metricListFor(task: LoadedTask): MetricConfig[] {
  if (task.config.metric_list?.length) return task.config.metric_list;
  if (task.custom) return Object.keys(task.custom.aggregation).map((metric) => ({ metric }));
  return DEFAULT_METRICS[task.config.output_type].map((metric) => ({ metric }));
}

export async function planTask(task: LoadedTask, options: PlanOptions): Promise<TaskPlan> {
  const planner = await createTaskPlanner(task, options);
  return { ...planner.header, docs: await planner.planDocs(planner.docIds) };
}

/**
 * A task's planning, split so that its docs can be planned a chunk at a time (run-evaluation.ts): the
 * task-level part once (`header`, the plan without its docs; `docIds`, the docs selected), and `planDocs`
 * for a run of those ids. Calls must come in doc order: the few-shot sampler draws with one RNG per task
 * over every doc up to the last planned, as one call over all the ids does. Each call's request ids start
 * at 0 (a chunk is a plan of its own).
 */
export interface TaskPlanner {
  header: Omit<TaskPlan, 'docs'>;
  docIds: number[];
  planDocs: (docIds: readonly number[]) => Promise<PlannedDoc[]>;
  /**
   * What planDocs can fail at, without building requests: the few-shot draws (made on a sampler of the
   * same seed, and dropped), each doc's own fields (doc_to_text, doc_to_target, doc_to_choice, the gold)
   * and its few-shot examples (each rendered once), in planDocs' order. A task planned a chunk at a time
   * runs them over every selected doc first, so a doc in a later chunk stops the run before any request,
   * as it does a task planned whole.
   */
  checkDocs: (docIds: readonly number[]) => Promise<void>;
}

export async function createTaskPlanner(task: LoadedTask, options: PlanOptions): Promise<TaskPlanner> {
  const { config } = task;
  const docs = await task.evalDocs();
  if (docs.length === 0) throw emptySplit(task);
  const numFewshot = effectiveNumFewshot(task, options.numFewshot);
  const docIds = selectDocIds(task.name, docs.length, options);

  const sampler = numFewshot > 0 ? await fewshotSampler(task, numFewshot, options.fewshotSeed) : undefined;

  const generative = options.mcMode === 'generate' && config.output_type === 'multiple_choice';
  if (generative) checkGenerativeChoice(task);
  const generativeConfig = generative ? generativeChoiceConfig(task) : undefined;
  const metricList = generative ? GENERATE_METRICS : metricListFor(task);
  const wantsMutualInfo = metricList.some((entry) => entry.metric === 'acc_mutual_info');
  const generation =
    config.output_type === 'generate_until'
      ? normalizeGenerationKwargs(config.generation_kwargs, options.genKwargs, config.fewshot_delimiter)
      : generative
        ? generativeChoiceGeneration(options.genKwargs, config.fewshot_delimiter)
        : undefined;
  // What lm-eval's Instance holds (and logs): the config's kwargs, dict-updated with --gen_kwargs.
  const loggedKwargs =
    config.output_type === 'generate_until'
      ? { ...(config.generation_kwargs ?? {}), ...options.genKwargs }
      : undefined;
  const chat = chatOptions(options, task.name);
  const continuations = choiceContinuations();
  const shots = sampler ? shotDrawer(sampler, docs, numFewshot) : undefined;

  /** A doc's own fields, rendered in this order by planDocs and checkDocs alike. */
  const docFields = (docId: number) => {
    const doc = docs[docId];
    const location = { task: task.name, docId };
    const choices = config.doc_to_choice === undefined ? undefined : docToChoice(config, doc, location);
    const target = docToTarget(config, doc, location);
    const text = docToText(config, doc, location);
    return { doc, location, choices, target, text };
  };
  /**
   * A multiple-choice doc's gold must name a choice; for multiple-input tasks the gold is doc_to_text's
   * index (lm-eval's multiple_input branch). Whether the doc is multiple-input.
   */
  const checkDocGold = ({ location, choices, target, text }: ReturnType<typeof docFields>): boolean => {
    const multipleInput = config.output_type === 'multiple_choice' && typeof text === 'number';
    if (config.output_type === 'multiple_choice' && choices) {
      checkGold(multipleInput ? text : target, choices, { ...location, file: task.source.path });
    }
    return multipleInput;
  };

  const planDocs = async (chunkIds: readonly number[]): Promise<PlannedDoc[]> => {
    const planned: PlannedDoc[] = [];
    // Per call, not per task: a chunked task's cache would otherwise keep every shot its chunks drew (a
    // pool as large as the test split, when shots come from it); a pool's shots render again per chunk.
    const fewshotCache = createFewshotCache();
    const shotsById = shots ? shots(chunkIds) : new Map<number, Shots>();
    // Python doc functions run over every doc the loop below reads, in one call per task (per chunk).
    const shotDocs = new Map<Doc, number>();
    let lastDrawn: Shots | undefined;
    for (const drawn of shotsById.values()) {
      // first_n gives every doc one shared draw: its shots are set once.
      if (drawn === lastDrawn) continue;
      lastDrawn = drawn;
      for (let position = 0; position < drawn.docs.length; position++)
        shotDocs.set(drawn.docs[position], drawn.indices[position]);
    }
    await prepareDocFunctions(config, new Map(chunkIds.map((docId) => [docs[docId], docId])), shotDocs);
    // Request ids: dense within the plan (or chunk), in plan order (requests.ts).
    let nextId = 0;
    for (const docId of chunkIds) {
      const fields = docFields(docId);
      const { doc, location, choices, target, text } = fields;
      const docShots = shotsById.get(docId) ?? { docs: [], indices: [] };
      const repeats = config.repeats ?? 1;
      // A literal per instance, not a spread of a shared base plus index and args: V8's spread-then-add
      // is ~20× slower per object, and a task plans tens of thousands. Same keys in the same order.
      const instance = (index: number, args: RequestArgs, unconditional?: true): Instance =>
        unconditional
          ? { id: nextId++, task: task.name, docId, repeats, index, unconditional, args }
          : { id: nextId++, task: task.name, docId, repeats, index, args };
      const requests: DocRequests = {
        task: task.name,
        text,
        target,
        choices,
        instance,
        continuations,
        // doc_to_text is rendered once per doc: the prompt's last turn reuses `text`.
        contextFor: (textOverride?: string) =>
          buildPrompt({
            config,
            doc,
            location,
            fewshotDocs: docShots.docs,
            textOverride,
            text,
            systemInstruction: options.systemInstruction,
            chat,
            fewshotCache,
          }),
      };
      let instances: Instance[];
      switch (config.output_type) {
        case 'loglikelihood':
          instances = loglikelihoodRequests(requests);
          break;
        case 'loglikelihood_rolling':
          instances = rollingRequests(requests);
          break;
        case 'generate_until':
          if (!generation) throw new Error('unreachable: generate_until without generation kwargs');
          instances = generateRequests(requests, generation, loggedKwargs);
          break;
        case 'multiple_choice':
          if (generativeConfig && generation && choices) {
            const { context } = buildPrompt({
              config: generativeConfig,
              doc,
              location,
              fewshotDocs: docShots.docs,
              systemInstruction: options.systemInstruction,
              chat,
            });
            instances = generativeChoiceRequests(requests, context, generation);
          } else {
            instances = multipleChoiceRequests(requests, wantsMutualInfo);
          }
          break;
      }
      // The sample log's `target` stays doc_to_target, as lm-eval writes it.
      const multipleInput = checkDocGold(fields);
      // Two literals, not a spread for `gold`: spreading into a literal is many times slower per object.
      const fewshotIds = docShots.indices;
      planned.push(
        multipleInput
          ? { docId, doc, fewshotIds, target, gold: text as number, choices, instances }
          : { docId, doc, fewshotIds, target, choices, instances },
      );
    }
    return planned;
  };
  const checkDocs = async (checkIds: readonly number[]): Promise<void> => {
    // The draws that give a shot no earlier doc had: each shot is rendered once, with the first doc drawn
    // it, so that an error names the doc and shot planDocs' would.
    const firstShots = new Map<number, Doc[]>();
    const rendered = new Set<Doc>();
    if (sampler) {
      const twin = await fewshotSampler(task, numFewshot, options.fewshotSeed);
      const wanted = new Set(checkIds);
      const seen = new Set<Doc>();
      const last = checkIds.reduce((max, id) => Math.max(max, id), -1);
      // Every doc up to the last is drawn for, as planDocs draws; no draw is kept.
      for (let docId = 0; docId <= last; docId++) {
        const drawn = twin.sample(docs[docId], numFewshot).docs;
        if (!wanted.has(docId)) continue;
        if (drawn.every((shot) => seen.has(shot))) continue;
        for (const shot of drawn) seen.add(shot);
        firstShots.set(docId, drawn);
      }
    }
    for (const docId of checkIds) {
      const fields = docFields(docId);
      const { doc, location } = fields;
      const shots = firstShots.get(docId);
      if (shots) {
        // The shots rendered already are passed as cached (with no turns), and nothing rendered is kept.
        const fewshotCache = createFewshotCache();
        for (const shot of shots) if (rendered.has(shot)) fewshotCache.turns.set(shot, []);
        fewshotTurns({ config, doc, location, fewshotDocs: shots, fewshotCache });
        for (const shot of shots) rendered.add(shot);
      }
      checkDocGold(fields);
    }
  };
  return {
    header: {
      task,
      numFewshot,
      original: docs.length,
      metricList,
      generation,
      ...(generative ? { mcMode: 'generate' as const } : {}),
    },
    docIds,
    planDocs,
    checkDocs,
  };
}

type Shots = { docs: Doc[]; indices: number[] };

async function fewshotSampler(task: LoadedTask, numFewshot: number, seed: number): Promise<FewshotSampler> {
  const pool = await task.fewshotDocs();
  if (pool.length === 0) {
    throw new AssayError(
      'invalid_config',
      `task ${task.name} asks for ${numFewshot}-shot but has no few-shot docs`,
      { location: { task: task.name, field: 'num_fewshot' } },
    );
  }
  return new FewshotSampler({
    pool,
    sampler: task.config.fewshot_config?.sampler ?? 'default',
    seed,
    // lm-eval's rule: the eval doc is excluded when the few-shot split equals test_split (None == None too).
    sameSplit: isSameSplit(task.config),
    task: task.name,
  });
}

/**
 * The few-shot examples of each planned doc, a run of doc ids at a time. lm-eval draws them with one RNG
 * per task, consumed in doc order: the sampler sees every doc up to the last one planned, in order, so
 * `samples` picks the same shots as a full run, and so does a task planned in chunks (each call goes on
 * where the last stopped; ids below it were drawn for already).
 */
function shotDrawer(
  sampler: FewshotSampler,
  docs: Doc[],
  numFewshot: number,
): (docIds: readonly number[]) => Map<number, Shots> {
  let next = 0;
  return (docIds) => {
    const maxId = docIds.reduce((max, id) => Math.max(max, id), -1);
    const wanted = new Set(docIds);
    const shotsById = new Map<number, Shots>();
    for (; next <= maxId; next++) {
      const shots = sampler.sample(docs[next], numFewshot);
      if (wanted.has(next)) shotsById.set(next, shots);
    }
    return shotsById;
  };
}

/** An evaluation split without documents would score as an empty (or zero) result; it is an error. */
function emptySplit(task: LoadedTask): AssayError {
  const { config } = task;
  const field =
    config.test_split !== undefined ? 'test_split' : config.validation_split ? 'validation_split' : undefined;
  const split = task.evalSplit === undefined ? '' : ` "${task.evalSplit}"`;
  const filtered = config.process_docs ? ' after process_docs' : '';
  return new AssayError(
    'bad_data',
    `task ${task.name} has no documents in its evaluation split${split}${filtered}`,
    { location: { file: task.source.path, task: task.name, ...(field ? { field } : {}) } },
  );
}

/**
 * A multiple-choice gold must name a choice: an index in range, a choice's text, or a list of those.
 * lm-eval only warns and scores such a doc as wrong; here it stops the run before any request.
 */
export function checkGold(
  gold: unknown,
  choices: string[],
  location: { task: string; docId: number; file?: string },
): void {
  // Checked for every doc of a run: nothing is built for the message unless it is thrown.
  if (typeof gold === 'number' && Number.isInteger(gold) && gold >= 0 && gold < choices.length) return;
  const shown = JSON.stringify(choices);
  for (const value of Array.isArray(gold) ? gold : [gold]) {
    if (typeof value === 'string') {
      if (choices.includes(value)) continue;
      throw new AssayError('bad_data', `gold label "${value}" is not one of the choices ${shown}`, {
        location,
      });
    }
    if (typeof value === 'number' && Number.isInteger(value)) {
      if (value >= 0 && value < choices.length) continue;
      throw new AssayError(
        'bad_data',
        `gold label ${value} is not a choice index: the doc has ${choices.length} choices ${shown}`,
        { location },
      );
    }
    throw new AssayError(
      'bad_data',
      `gold label ${JSON.stringify(value)} is neither a choice index nor a choice`,
      {
        location,
      },
    );
  }
}

function chatOptions(
  options: PlanOptions,
  task: string,
):
  | { render: (messages: ChatMessage[], addGenerationPrompt: boolean) => string; fewshotAsMultiturn: boolean }
  | undefined {
  if (options.applyChatTemplate === false) return undefined;
  const backend = options.backend;
  if (!hasChatTemplate(backend)) {
    const missing = backend.info?.().chatTemplateMissing;
    throw new AssayError(
      'capability_missing',
      `\`applyChatTemplate\`: model ${backend.name} has no chat template${typeof missing === 'string' ? `: ${missing}` : ''}`,
    );
  }
  const templateName = typeof options.applyChatTemplate === 'string' ? options.applyChatTemplate : undefined;
  // A name the model does not have stops the run here, before any doc is rendered.
  backend.chatTemplate(templateName);
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    options.listener?.({ type: 'warning', message: `${task}: ${message}` });
  };
  return {
    render: (messages, addGenerationPrompt) =>
      backend.applyChatTemplate(messages, { addGenerationPrompt, templateName, warn }),
    fewshotAsMultiturn: options.fewshotAsMultiturn,
  };
}
