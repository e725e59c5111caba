import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { AssayError, closestNames } from '../errors.js';
import { parsePerplexityOptions } from '../evaluate/perplexity/settings.js';
import type { RunEvent, RunListener } from '../events.js';
import type { ExportRequest } from '../export/export-run.js';
import { exportRun } from '../export/export-run.js';
import { wandbRefusal } from '../export/wandb.js';
import type { ResultsFile } from '../results/results-file.js';
import { makeTable } from '../results/table.js';
import { type EvaluateOptions, evaluate } from '../run/evaluate.js';
import { buildTaskIndex } from '../tasks/index.js';
import { reportError } from './errors.js';
import { consoleExportLogger, hubRequest } from './export.js';
import { pinsFlag, secondsFlag } from './flag-values.js';
import { progressListener } from './progress.js';
import { isListing, taskListing } from './task-listing.js';
import { taskSources } from './task-sources.js';

function splitList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : [String(value)];
  return items
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
}

function integerFlag(value: unknown, flag: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  if (!/^\d+$/.test(text))
    throw new AssayError('bad_argument', `${flag} must be a non-negative integer, got "${text}"`);
  return Number.parseInt(text, 10);
}

/** --code_timeout in seconds: the wall clock, and the CPU limit rounded up to whole seconds. */
function codeTimeout(value: unknown): { timeoutMs: number; cpuSeconds: number } {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new AssayError(
      'bad_argument',
      `--code_timeout must be a positive number of seconds, got "${value}"`,
    );
  }
  return { timeoutMs: Math.round(seconds * 1000), cpuSeconds: Math.ceil(seconds) };
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** --code_memory: bytes, or a number with a binary unit (512M, 2G, 1.5GiB). */
function codeMemory(value: unknown): { memoryBytes: number } {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(value).trim());
  const bytes = match ? Math.floor(Number(match[1]) * SIZE_UNITS[match[2].toLowerCase()]) : Number.NaN;
  if (!Number.isFinite(bytes) || bytes <= 0) {
    throw new AssayError(
      'bad_argument',
      `--code_memory must be a size such as 2G, 1536M or a number of bytes, got "${value}"`,
    );
  }
  return { memoryBytes: bytes };
}

function boolFlag(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === false) return value;
  const text = String(value).toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  throw new AssayError('bad_argument', `expected true or false, got "${value}"`);
}

/** The `yaml` package, loaded for a --config file only (~60 ms of start-up otherwise). */
const requireModule = createRequire(import.meta.url);
const parseYaml = (text: string): unknown => (requireModule('yaml') as typeof Yaml).parse(text);

/** CLI > --config YAML > defaults. A YAML key must be a flag name: `known` lists them. */
function mergeConfigFile(flags: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  if (typeof flags.config !== 'string') return flags;
  let text: string;
  try {
    text = readFileSync(flags.config, 'utf8');
  } catch (error) {
    throw new AssayError('bad_argument', `--config: cannot read ${flags.config}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new AssayError('yaml_syntax', (error as Error).message.split('\n')[0], {
      location: { file: flags.config },
    });
  }
  if (!parsed || typeof parsed !== 'object')
    throw new AssayError('bad_argument', `--config: ${flags.config} is not a mapping`);
  const merged: Record<string, unknown> = {};
  const keys = known.filter((key) => key !== 'config');
  for (const [key, value] of Object.entries(parsed)) {
    const name = key.replaceAll('-', '_');
    if (LM_EVAL_ONLY.has(name)) {
      throw new AssayError(
        'bad_argument',
        `--config: "${key}" is an lm-eval flag that assay run does not take`,
        {
          location: { file: flags.config },
        },
      );
    }
    if (!keys.includes(name)) {
      const close = closestNames(name, keys, 1);
      throw new AssayError(
        'bad_argument',
        `--config: unknown key "${key}"${close.length ? `; did you mean "${close[0]}"?` : ''} (keys are the flags of assay run)`,
        { location: { file: flags.config } },
      );
    }
    merged[name] = value;
  }
  for (const [key, value] of Object.entries(flags)) {
    if (value !== undefined && !(DEFAULTED.has(key) && key in merged && value === DEFAULTS[key]))
      merged[key] = value;
  }
  return merged;
}

/** lm-eval run flags assay has no equivalent of; a config naming one is refused by name, as lm-eval refuses unknown keys. */
const LM_EVAL_ONLY = new Set([
  'cache_requests',
  'check_integrity',
  'device',
  'max_batch_size',
  'metadata',
  'trackio_args',
  'trust_remote_code',
  'verbosity',
  'wandb_config_args',
]);

/** No --include_path stays undefined: the shard record keeps `include_path: null`. */
function runTaskSources(flags: Record<string, unknown>): { includePath?: string[]; indexCacheDir: string } {
  const { includePath, indexCacheDir } = taskSources(flags);
  return { includePath: includePath.length ? includePath : undefined, indexCacheDir };
}

const DEFAULTS: Record<string, unknown> = {
  batch_size: '1',
  seed: '0,1234,1234,1234',
  bootstrap_iters: '100000',
};
const DEFAULTED = new Set(Object.keys(DEFAULTS));

/**
 * lm-eval's tracking flags, checked before the run: `--hf_hub_log_args` pushes the written run to the
 * Hub at the end (so it needs --output_path, and --log_samples to push samples); `--wandb_args` is refused.
 */
function hubExport(flags: Record<string, unknown>): ExportRequest | undefined {
  if (flags.wandb_args !== undefined) throw wandbRefusal('--wandb_args');
  if (flags.hf_hub_log_args === undefined) return undefined;
  const text =
    typeof flags.hf_hub_log_args === 'object' && flags.hf_hub_log_args !== null
      ? JSON.stringify(flags.hf_hub_log_args)
      : String(flags.hf_hub_log_args);
  const request = hubRequest(text);
  if (!flags.output_path)
    throw new AssayError(
      'bad_argument',
      '--hf_hub_log_args pushes the files a run writes: add --output_path DIR',
    );
  if (request.to === 'hub' && request.hub.pushSamples && boolFlag(flags.log_samples) !== true)
    throw new AssayError('bad_argument', '--hf_hub_log_args push_samples_to_hub=True needs --log_samples');
  return request;
}

/** `known`: the flags of `assay run` as commander declared them (main.ts), the keys --config may set. */
export function optionsFromFlags(
  raw: Record<string, unknown>,
  known: readonly string[],
): EvaluateOptions & { showConfig: boolean; writeOut: boolean; hubExport?: ExportRequest } {
  const flags = mergeConfigFile(raw, known);
  const tracking = hubExport(flags);
  if (!flags.model) throw new AssayError('bad_argument', '--model is required (e.g. --model dummy)');
  const tasks = splitList(flags.tasks);
  if (!tasks?.length) throw new AssayError('bad_argument', '--tasks is required');
  const chat = flags.apply_chat_template;
  const modelArgs = flags.model_args;
  return {
    model: String(flags.model),
    modelArgs:
      typeof modelArgs === 'object' && modelArgs !== null
        ? (modelArgs as Record<string, unknown>)
        : (modelArgs as string | undefined),
    tasks,
    ...runTaskSources(flags),
    numFewshot: integerFlag(flags.num_fewshot, '--num_fewshot'),
    batchSize: flags.batch_size as string | undefined,
    outputPath: flags.output_path as string | undefined,
    limit: flags.limit as string | undefined,
    samples: flags.samples as string | undefined,
    shard: flags.shard as string | undefined,
    mcMode: flags.mc_mode as EvaluateOptions['mcMode'],
    logSamples: boolFlag(flags.log_samples),
    predictOnly: boolFlag(flags.predict_only),
    seed: flags.seed as string | undefined,
    genKwargs: flags.gen_kwargs as string | undefined,
    applyChatTemplate: chat === undefined ? false : chat === true ? true : String(chat),
    systemInstruction: flags.system_instruction as string | undefined,
    fewshotAsMultiturn:
      flags.fewshot_as_multiturn === undefined ? undefined : boolFlag(flags.fewshot_as_multiturn),
    useCache: flags.use_cache as string | undefined,
    bootstrapIters: integerFlag(flags.bootstrap_iters, '--bootstrap_iters'),
    includePerExample: boolFlag(flags.include_per_example),
    confirmRunUnsafeCode: boolFlag(flags.confirm_run_unsafe_code),
    unsafeCodeWithoutSandbox: boolFlag(flags.unsafe_code_without_sandbox),
    sandbox: {
      workers: integerFlag(flags.code_workers, '--code_workers'),
      limits:
        flags.code_timeout === undefined && flags.code_memory === undefined
          ? undefined
          : {
              ...(flags.code_timeout === undefined ? {} : codeTimeout(flags.code_timeout)),
              ...(flags.code_memory === undefined ? {} : codeMemory(flags.code_memory)),
            },
    },
    perplexity: parsePerplexityOptions(flags, '--ppl_* flags'),
    python: flags.python === undefined ? undefined : String(flags.python),
    maxLatencyS: secondsFlag(flags.max_latency_s, '--max_latency_s'),
    expectSha256: pinsFlag(flags.expect_sha256),
    showConfig: boolFlag(flags.show_config) ?? false,
    writeOut: boolFlag(flags.write_out) ?? false,
    hubExport: tracking,
  };
}

function partialReason(options: EvaluateOptions, results: ResultsFile): string {
  const reasons: string[] = [];
  const erroredSamples = results.errors.samples;
  if (erroredSamples > 0) reasons.push(`${erroredSamples} errored samples`);
  const timeouts = results.timeouts;
  if (timeouts && timeouts.samples > 0)
    reasons.push(`${timeouts.samples} timed out over --max_latency_s ${timeouts.max_latency_s}`);
  if (options.limit !== undefined) reasons.push(`--limit ${options.limit}`);
  if (options.samples !== undefined) reasons.push('--samples');
  if (options.shard !== undefined)
    reasons.push(`--shard ${String(options.shard)}; combine the shards with assay merge`);
  return reasons.join(', ');
}

/** What the run is doing, for the message Ctrl-C prints. */
interface RunState {
  phase: string;
  requests: Map<string, { done: number; total: number }>;
}

function trackRun(state: RunState, event: RunEvent): void {
  if (event.type === 'phase') state.phase = event.phase;
  else if (event.type === 'request-batch-start')
    state.requests.set(event.requestType, { done: 0, total: event.unique });
  else if (event.type === 'request-progress')
    state.requests.set(event.requestType, { done: event.done, total: event.total });
}

function interruptedMessage(options: EvaluateOptions, state: RunState): string {
  const progress = [...state.requests]
    .map(([type, { done, total }]) => `${type} requests ${done} of ${total} answered`)
    .join(', ');
  const what = `assay: interrupted (SIGINT) while ${state.phase === 'loading' ? 'loading tasks' : state.phase}${progress ? `: ${progress}` : ''}`;
  const outputs = !options.outputPath
    ? 'no outputs were written (no --output_path)'
    : state.phase === 'writing'
      ? `it was writing outputs under ${options.outputPath}: a run's files become visible together, and the next run into that folder finishes or removes an interrupted write`
      : `no outputs were written to ${options.outputPath}`;
  const cache = options.useCache
    ? `; the answers received so far are kept in the response cache ${options.useCache}: rerun the same command to resume`
    : '';
  return `${what}; ${outputs}${cache}\n`;
}

/** The errored samples on the console: how many, where, by cause, the first message, and where the rest are. */
function errorSummary(results: ResultsFile, logged: string[] | undefined): string {
  const errors = results.errors;
  const tasks = Object.entries(errors.by_task)
    .map(([task, count]) => `${task}: ${count}`)
    .join(', ');
  const causes = Object.entries(errors.by_cause ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([cause, count]) => `${cause}: ${count}`)
    .join(', ');
  const lines = [
    `assay: ${errors.samples} samples failed and count in no metric (${tasks})${causes ? `; by cause: ${causes}` : ''}`,
  ];
  if (errors.first)
    lines.push(
      `assay: first error (task ${errors.first.task}, doc ${errors.first.doc_id}): ${errors.first.message}`,
    );
  lines.push(
    logged?.length
      ? `assay: every error is in the sample logs: ${logged.join(', ')}`
      : 'assay: no sample log was written; add --output_path DIR --log_samples to keep every error',
  );
  return `${lines.join('\n')}\n`;
}

export async function runCommand(flags: Record<string, unknown>, known: readonly string[]): Promise<number> {
  let stopListening = () => {};
  try {
    // `--tasks list` (list_groups, list_tags, list_subtasks) prints the listing, as lm-eval did; no model.
    const listing = isListing(splitList(flags.tasks));
    if (listing) {
      const { includePath, indexCacheDir } = taskSources(flags);
      const index = await buildTaskIndex({
        includePath,
        cacheDir: indexCacheDir,
        logger: { warn: (message) => process.stderr.write(`assay: warning: ${message}\n`) },
      });
      process.stdout.write(`${taskListing(index, listing)}\n`);
      return 0;
    }
    const options = optionsFromFlags(flags, known);
    const progress = progressListener();
    const state: RunState = { phase: 'loading', requests: new Map() };
    const listener: RunListener = (event) => {
      trackRun(state, event);
      progress(event);
    };
    const onInterrupt = () => {
      process.stderr.write(`\n${interruptedMessage(options, state)}`);
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    stopListening = () => process.off('SIGINT', onInterrupt);
    const result = await evaluate({
      ...options,
      listener,
      logger: { warn: (message) => listener({ type: 'warning', message }) },
    });
    stopListening();
    const { results } = result;
    if (options.writeOut) {
      for (const plan of result.plans) {
        const first = plan.docs[0];
        if (!first) continue;
        const args = first.instances[0]?.args;
        const prompt = args && 'context' in args ? args.context : args && 'text' in args ? args.text : '';
        process.stderr.write(
          `Task: ${plan.task.name}; document 0; context prompt (starting on next line):\n${prompt}\n(end of prompt on previous line)\ntarget string or answer choice index (starting on next line):\n${String(first.target)}\n(end of target on previous line)\n`,
        );
      }
    }
    if (options.showConfig) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    const gen = options.genKwargs ?? '';
    process.stdout.write(
      `${options.model} (${typeof options.modelArgs === 'string' ? options.modelArgs : JSON.stringify(options.modelArgs ?? {})}), gen_kwargs: (${
        typeof gen === 'string' ? gen : JSON.stringify(gen)
      }), limit: ${options.limit ?? 'None'}, num_fewshot: ${options.numFewshot ?? 'None'}, batch_size: ${options.batchSize ?? 1}\n`,
    );
    process.stdout.write(makeTable(results));
    if (results.groups) process.stdout.write(`\n${makeTable(results, 'groups')}`);
    if (results.partial) {
      process.stdout.write(
        `\nWARNING: partial run (${partialReason(options, results)}): these numbers cover only part of each task and are not comparable with full runs.\n`,
      );
    }
    if (result.files) process.stderr.write(`assay: results written to ${result.files.results}\n`);
    if (result.files && options.hubExport) {
      try {
        const report = await exportRun(result.files.results, options.hubExport, {
          logger: consoleExportLogger,
        });
        process.stderr.write(`assay: ${report.summary}: ${report.url}\n`);
      } catch (error) {
        const code = reportError(error);
        process.stderr.write(
          `assay: the run's files are written; push them again with: assay export ${result.files.results} --to hub --hf_hub_log_args …\n`,
        );
        return code;
      }
    }
    if (result.erroredSamples > 0) {
      process.stderr.write(errorSummary(results, result.files?.samples));
      return 1;
    }
    return 0;
  } catch (error) {
    return reportError(error);
  } finally {
    stopListening();
  }
}
