import { AssayError } from '../errors.js';
import { type ResolvedRunOptions, type RunOptionsInput, resolveRunOptions } from '../evaluate/run-options.js';
import type { RunEvent, RunListener } from '../events.js';
import type { ExportRequest } from '../export/export-run.js';
import { hubSettingsFromArgs } from '../export/hub-settings.js';
import type { ResultsFile } from '../results/results-file.js';
import { evaluateResolved } from '../run/evaluate.js';
import { readConfigFile } from './config-file.js';
import type { TableStyle } from './console-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { configKeys, parseOptionFlags } from './option-table.js';
import { type ConsoleProgress, progressListener } from './progress.js';
import { resultsTables } from './results-table.js';
import type { Verbosity } from './run-flag-values.js';
import { RUN_FLAGS, RUN_OPTION_FLAGS, type RunCommandSettings } from './run-flags.js';
import { listingCommand } from './run-listing.js';
import { taskSources } from './task-sources.js';

/** What `assay run` runs with: the library's resolved options and the command's own settings. */
export type RunCommandOptions = ResolvedRunOptions &
  Required<Pick<RunCommandSettings, 'verbosity' | 'table'>> &
  Omit<RunCommandSettings, 'verbosity' | 'table'> & {
    hubExport?: ExportRequest;
    /** The flags as typed, for lm-eval's banner line (`model (args), gen_kwargs: (…), limit: …`). */
    banner: { modelArgs: string; genKwargs: string; limit: string };
  };

/**
 * lm-eval's tracking flags, checked before the run: `--hf_hub_log_args` pushes the written run to the
 * Hub at the end (so it needs --output_path, and --log_samples to push samples).
 */
function hubExport(given: Partial<RunOptionsInput & RunCommandSettings>): ExportRequest | undefined {
  if (given.hfHubLogArgs === undefined) return undefined;
  const request: ExportRequest = {
    to: 'hub',
    hub: hubSettingsFromArgs(given.hfHubLogArgs, process.env, '--hf_hub_log_args'),
  };
  if (!given.outputPath)
    throw new AssayError(
      'bad_option',
      '--hf_hub_log_args pushes the files a run writes: add --output_path DIR',
    );
  if (request.to === 'hub' && request.hub.pushSamples && given.logSamples !== true)
    throw new AssayError('bad_option', '--hf_hub_log_args push_samples_to_hub=True needs --log_samples');
  return request;
}

/** How a flag was typed, for the banner: text as given, a --config mapping as JSON. */
function shown(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * CLI > --config YAML > defaults: the flags parsed once through RUN_OPTION_FLAGS into the fields they
 * set, the library's options resolved from those by its schema (its defaults, its checks: an error
 * names the field, which the error reporter shows as its flag), before any work.
 */
export function optionsFromFlags(raw: Record<string, unknown>): RunCommandOptions {
  const config =
    typeof raw.config === 'string' ? readConfigFile(raw.config, configKeys(RUN_FLAGS), 'assay run') : {};
  const given = parseOptionFlags<RunOptionsInput & RunCommandSettings>(RUN_OPTION_FLAGS, raw, config);
  const typed = (name: string) => (raw[name] !== undefined ? raw[name] : config[name]);
  const tracking = hubExport(given);
  const { model, tasks } = given;
  if (!model) throw new AssayError('bad_option', '--model is required (e.g. --model dummy)');
  if (!tasks?.length) throw new AssayError('bad_option', '--tasks is required');
  // No --include_path stays undefined: the shard record keeps `include_path: null`.
  const sources = taskSources({ include_path: given.includePath, python: given.python });
  const options = resolveRunOptions({
    ...given,
    model,
    tasks,
    includePath: sources.includePath.length ? sources.includePath : undefined,
    indexCacheDir: sources.indexCacheDir,
  });
  return {
    ...options,
    config: given.config,
    // Both flags have a default in the table, so parseOptionFlags always sets them.
    verbosity: given.verbosity as Verbosity,
    table: given.table as TableStyle,
    quiet: given.quiet,
    showConfig: given.showConfig,
    writeOut: given.writeOut,
    cacheRequests: given.cacheRequests,
    hfHubLogArgs: given.hfHubLogArgs,
    hubExport: tracking,
    banner: {
      modelArgs: shown(typed('model_args')),
      genKwargs: shown(typed('gen_kwargs')),
      limit: options.limit === undefined ? 'None' : shown(typed('limit')),
    },
  };
}

function partialReason(options: RunCommandOptions, results: ResultsFile): string {
  const reasons: string[] = [];
  const erroredSamples = results.errors.samples;
  if (erroredSamples > 0) reasons.push(`${erroredSamples} errored samples`);
  const timeouts = results.timeouts;
  if (timeouts && timeouts.samples > 0)
    reasons.push(`${timeouts.samples} timed out over --max_latency_s ${timeouts.max_latency_s}`);
  if (options.limit !== undefined) reasons.push(`--limit ${options.banner.limit}`);
  if (options.samples !== undefined) reasons.push('--samples');
  if (options.shard !== undefined)
    reasons.push(
      `--shard ${options.shard.index}/${options.shard.count}; combine the shards with assay merge`,
    );
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
  else if (event.type === 'request-progress') {
    // Once per answered request: updated in place.
    const known = state.requests.get(event.requestType);
    if (known) {
      known.done = event.done;
      known.total = event.total;
    } else state.requests.set(event.requestType, { done: event.done, total: event.total });
  }
}

function interruptedMessage(options: RunCommandOptions, state: RunState): string {
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
      `assay: first error (task ${errors.first.task}, doc ${errors.first.doc_id}): ${withFlagNames(errors.first.message)}`,
    );
  lines.push(
    logged?.length
      ? `assay: every error is in the sample logs: ${logged.join(', ')}`
      : 'assay: no sample log was written; add --output_path DIR --log_samples to keep every error',
  );
  return `${lines.join('\n')}\n`;
}

/**
 * What each --verbosity level prints on stderr (the results table on stdout always prints); --quiet is
 * WARNING whatever --verbosity says, but keeps DEBUG's stack traces.
 */
function channels(
  verbosity: Verbosity,
  quiet: boolean,
): {
  progress: boolean;
  warnings: boolean;
  info: boolean;
  debug: boolean;
} {
  const rank = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'].indexOf(verbosity);
  const shown = rank <= 1 && !quiet;
  return { debug: rank === 0, progress: shown, info: shown, warnings: rank <= 2 };
}

export async function runCommand(flags: Record<string, unknown>): Promise<number> {
  let stopListening = () => {};
  let progress: ConsoleProgress | undefined;
  let debug = false;
  try {
    // `--tasks list` (list_groups, list_tags, list_subtasks) prints the listing, as lm-eval did; no model.
    const listed = await listingCommand(flags);
    if (listed !== undefined) return listed;
    const options = optionsFromFlags(flags);
    const show = channels(options.verbosity, options.quiet === true);
    debug = show.debug;
    const info = (message: string) => {
      if (show.info) process.stderr.write(`assay: ${message}\n`);
    };
    if (show.debug) {
      const { banner: _banner, hubExport: _hub, ...typed } = options;
      const modelArgs =
        typed.modelArgs && 'api_key' in typed.modelArgs
          ? { ...typed.modelArgs, api_key: '<redacted>' }
          : typed.modelArgs;
      process.stderr.write(`assay: debug: options ${JSON.stringify({ ...typed, modelArgs })}\n`);
    }
    if (options.cacheRequests !== undefined)
      info(
        '--cache_requests: nothing to cache (assay builds its requests in milliseconds); the flag does nothing',
      );
    if (options.trustRemoteCode && options.model !== 'vllm' && options.model !== 'sglang')
      info(
        `--trust_remote_code: model ${options.model} loads no code from the Hub (assay reads datasets as parquet and tokenizers as tokenizer.json), so the flag does nothing; it reaches the servers --model vllm and sglang start`,
      );
    const drawn = progressListener(process.stderr, show);
    progress = drawn;
    const state: RunState = { phase: 'loading', requests: new Map() };
    const listener: RunListener = (event) => {
      trackRun(state, event);
      drawn(event);
    };
    const onInterrupt = () => {
      drawn.stop();
      process.stderr.write(`\n${interruptedMessage(options, state)}`);
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    stopListening = () => process.off('SIGINT', onInterrupt);
    const { result, plans } = await evaluateResolved({
      ...options,
      listener,
      logger: { warn: (message) => listener({ type: 'warning', message }) },
    });
    stopListening();
    drawn.stop();
    const { results } = result;
    if (options.writeOut) {
      for (const plan of plans) {
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
    process.stdout.write(
      `${options.model} (${options.banner.modelArgs || '{}'}), gen_kwargs: (${options.banner.genKwargs}), limit: ${options.banner.limit}, num_fewshot: ${options.numFewshot ?? 'None'}, batch_size: ${options.batchSize}\n`,
    );
    process.stdout.write(resultsTables(results, options.table));
    if (results.partial) {
      process.stdout.write(
        `\nWARNING: partial run (${partialReason(options, results)}): these numbers cover only part of each task and are not comparable with full runs.\n`,
      );
    }
    if (result.files) info(`results written to ${result.files.results}`);
    if (result.files && options.hubExport) {
      try {
        // Loaded only when the run pushes: the upload code is no part of a plain run's start-up.
        const [{ exportRun }, { consoleExportLogger }] = await Promise.all([
          import('../export/export-run.js'),
          import('./export.js'),
        ]);
        const report = await exportRun(result.files.results, options.hubExport, {
          logger: show.info ? consoleExportLogger : { ...consoleExportLogger, info: () => {} },
          listener: drawn,
        });
        process.stderr.write(`assay: ${report.summary}: ${report.url}\n`);
      } catch (error) {
        const code = reportError(error, { debug });
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
    return reportError(error, { debug });
  } finally {
    stopListening();
    progress?.stop();
  }
}
