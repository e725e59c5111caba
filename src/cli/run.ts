import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { AssayError } from '../errors.js';
import { type EvaluateOptions, evaluate } from '../evaluate/evaluate.js';
import { parsePerplexityOptions } from '../evaluate/perplexity/settings.js';
import { makeTable } from '../results/table.js';
import { buildTaskIndex } from '../tasks/index.js';
import { reportError } from './errors.js';
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

function boolFlag(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === false) return value;
  const text = String(value).toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  throw new AssayError('bad_argument', `expected true or false, got "${value}"`);
}

/** CLI > --config YAML > defaults. A YAML key must be a flag name. */
function mergeConfigFile(flags: Record<string, unknown>): Record<string, unknown> {
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
  for (const [key, value] of Object.entries(parsed)) merged[key.replaceAll('-', '_')] = value;
  for (const [key, value] of Object.entries(flags)) {
    if (value !== undefined && !(DEFAULTED.has(key) && key in merged && value === DEFAULTS[key]))
      merged[key] = value;
  }
  return merged;
}

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

export function optionsFromFlags(
  raw: Record<string, unknown>,
): EvaluateOptions & { showConfig: boolean; writeOut: boolean } {
  const flags = mergeConfigFile(raw);
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
      limits: flags.code_timeout === undefined ? undefined : codeTimeout(flags.code_timeout),
    },
    perplexity: parsePerplexityOptions(flags, '--ppl_* flags'),
    showConfig: boolFlag(flags.show_config) ?? false,
    writeOut: boolFlag(flags.write_out) ?? false,
  };
}

function partialReason(options: EvaluateOptions): string {
  const reasons: string[] = [];
  if (options.limit !== undefined) reasons.push(`--limit ${options.limit}`);
  if (options.samples !== undefined) reasons.push('--samples');
  if (options.shard !== undefined)
    reasons.push(`--shard ${String(options.shard)}; combine the shards with assay merge`);
  return reasons.join(', ');
}

export async function runCommand(flags: Record<string, unknown>): Promise<number> {
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
    const options = optionsFromFlags(flags);
    const listener = progressListener();
    const result = await evaluate({
      ...options,
      listener,
      logger: { warn: (message) => listener({ type: 'warning', message }) },
    });
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
        `\nWARNING: partial run (${partialReason(options)}): these numbers cover only part of each task and are not comparable with full runs.\n`,
      );
    }
    if (result.files) process.stderr.write(`assay: results written to ${result.files.results}\n`);
    if (result.erroredSamples > 0) {
      process.stderr.write(
        `assay: ${result.erroredSamples} samples failed; see the sample log for their errors\n`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
