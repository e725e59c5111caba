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
import type { McMode } from './mc-generate.js';
import type { RunOptions, Seeds } from './run-options.js';
import type { ShardRecord } from './shard.js';

export interface RunRecord {
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
  systemInstruction: string | null;
  fewshotAsMultiturn: boolean;
  seeds: Seeds;
  /** The seed generation was sampled with: --gen_kwargs seed, else the random seed. */
  samplingSeed: number | null;
  limit: number | null;
  /** --samples picked the docs. */
  samples: boolean;
  bootstrapIters: number;
  genKwargs: Record<string, unknown>;
  useCache: string | null;
  mcMode: McMode | null;
  /** One slice of a sharded run (`--shard i/N`); null otherwise. */
  shard: ShardRecord | null;
  codeExecution: SandboxDescription | null;
  python: PythonDescription | null;
  /** The per-request latency cap in seconds (`--max_latency_s`); null: no cap. */
  maxLatencyS: number | null;
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
  const { model, modelArgs, batchSize } = options.modelLabel;
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
      batchSize,
      info: backend.info(),
      usage: hasUsage(backend) ? backend.usage() : null,
    },
    chatTemplate: { applied: options.applyChatTemplate !== false, name: templateName, text: chatTemplate },
    systemInstruction: options.systemInstruction ?? null,
    fewshotAsMultiturn: options.fewshotAsMultiturn,
    seeds: options.seeds,
    samplingSeed: typeof options.genKwargs.seed === 'number' ? options.genKwargs.seed : options.seeds.random,
    limit: options.limit ?? null,
    samples: options.samples !== undefined,
    bootstrapIters: options.bootstrapIters,
    genKwargs: options.genKwargs,
    useCache: options.useCache ?? null,
    mcMode: options.mcMode ?? null,
    shard: options.shardRecord ?? null,
    codeExecution: options.codeSandbox?.describe() ?? null,
    python: options.python?.describe() ?? null,
    maxLatencyS: options.maxLatencyS ?? null,
  };
}
