/**
 * What a run was, as plain data: the model as asked for and as it described itself, the chat template,
 * seeds and settings. Built once, at the end of the evaluation (when a served backend's usage is final),
 * from the live backend and the run's options; the report stage (report/build.ts) reads only this, so
 * `assay merge` builds one from a results file instead of faking a backend.
 */
import {
  hasChatTemplate,
  hasUsage,
  type ModelBackend,
  type ModelInfo,
  type UsageSummary,
} from '../models/backend.js';
import type { PythonDescription } from '../python/python-runtime.js';
import type { SandboxDescription } from '../sandbox/sandbox.js';
import { limitValue } from './limit.js';
import type { ResolvedRunOptions, RunOptions } from './run-options.js';
import type { ShardRecord } from './shard.js';

/** The options a run records as they were resolved; an option left out is recorded as null. */
const RECORDED = [
  'systemInstruction',
  'fewshotAsMultiturn',
  'seeds',
  'bootstrapIters',
  'genKwargs',
  'useCache',
  'mcMode',
  'maxLatencyS',
] as const satisfies ReadonlyArray<keyof ResolvedRunOptions>;

export type RecordedOptions = {
  [K in (typeof RECORDED)[number]]-?: undefined extends ResolvedRunOptions[K]
    ? Exclude<ResolvedRunOptions[K], undefined> | null
    : ResolvedRunOptions[K];
} & {
  /** The limit as lm-eval records it: a count, or a fraction below 1 (see limit.ts). */
  limit: number | null;
  /** --samples picked the docs. */
  samples: boolean;
};

/** The run record's share of the resolved options: a function of them alone. */
export function recordedOptions(
  options: Pick<ResolvedRunOptions, (typeof RECORDED)[number] | 'limit' | 'samples'>,
): RecordedOptions {
  const recorded = Object.fromEntries(RECORDED.map((key) => [key, options[key] ?? null]));
  return {
    ...(recorded as Omit<RecordedOptions, 'limit' | 'samples'>),
    limit: limitValue(options.limit) ?? null,
    samples: options.samples !== undefined,
  };
}

export interface RunRecord extends Omit<RecordedOptions, 'mcMode'> {
  model: {
    /** The backend name the run asked for (`--model`), lm-eval's model_source. */
    source: string;
    /** lm-eval's model_name (see modelNameFrom). */
    name: string;
    /** As recorded: an API key is already redacted. */
    args: Record<string, unknown> | string;
    batchSize: string | number;
    info: ModelInfo;
    /** Served backends: requests, latency percentiles, tokens and cost over the run. */
    usage: UsageSummary | null;
  };
  chatTemplate: { applied: boolean; name: string | null; text: string | null };
  /** The seed generation was sampled with: --gen_kwargs seed, else the random seed. */
  samplingSeed: number | null;
  /** A merged run's files before the option was recorded say null. */
  mcMode: RecordedOptions['mcMode'] | null;
  /** One slice of a sharded run (`--shard i/N`); null otherwise. */
  shard: ShardRecord | null;
  codeExecution: SandboxDescription | null;
  python: PythonDescription | null;
}

/** lm-eval's model_name: the first of these model_args, else the backend name. */
export function modelNameFrom(model: string, modelArgs: Record<string, unknown> | string): string {
  if (typeof modelArgs === 'string') return modelArgs ? `${model}` : model;
  for (const key of ['peft', 'delta', 'pretrained', 'model', 'path', 'engine']) {
    if (typeof modelArgs[key] === 'string' && modelArgs[key]) return modelArgs[key] as string;
  }
  return model;
}

export function runRecord(backend: ModelBackend, options: RunOptions): RunRecord {
  const { model, modelArgs } = options.modelLabel;
  const templateName = typeof options.applyChatTemplate === 'string' ? options.applyChatTemplate : null;
  const chatTemplate =
    options.applyChatTemplate !== false && hasChatTemplate(backend)
      ? (backend.chatTemplate(templateName ?? undefined) ?? null)
      : null;
  return {
    model: {
      source: model,
      name: modelNameFrom(model, modelArgs),
      args: modelArgs,
      batchSize: options.batchSize,
      info: backend.info(),
      usage: hasUsage(backend) ? backend.usage() : null,
    },
    chatTemplate: { applied: options.applyChatTemplate !== false, name: templateName, text: chatTemplate },
    ...recordedOptions(options),
    samplingSeed: typeof options.genKwargs.seed === 'number' ? options.genKwargs.seed : options.seeds.random,
    shard: options.shardRecord ?? null,
    codeExecution: options.codeSandbox?.describe() ?? null,
    python: options.pythonRuntime?.describe() ?? null,
  };
}
