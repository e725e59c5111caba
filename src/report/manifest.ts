import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskPlan } from '../evaluate/plan.js';
import { pythonModulesOf } from '../python/module-digests.js';
import type { Manifest, TaskManifest } from '../results/results-file.js';
import { taskContentSha256 } from '../tasks/source-hash.js';
import { packageRoot } from '../util/package-root.js';
import { sha256 } from './samples.js';
import { serializeConfigValue } from './serialize.js';

let cachedVersion: string | undefined;
export function assayVersion(): string {
  if (!cachedVersion) {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
      version: string;
    };
    cachedVersion = pkg.version;
  }
  return cachedVersion;
}

/** git answers started ahead of need (startGitLookups), by `directory\0args`; settled ones are read at once. */
const gitAnswers = new Map<string, string | null>();
let gitGeneration = 0;

function gitKey(args: string[], directory: string): string {
  return `${directory}\0${args.join(' ')}`;
}

/**
 * Starts, in the background, the two git lookups a run's results record (assay's own commit and the
 * working directory's `git describe`), so they run while the evaluation does instead of after it. Each
 * is a child process of ~10-20 ms; one not answered by the time the results are built runs then, as
 * without this call. The promise settles when both have answered (runs do not wait for it).
 */
export function startGitLookups(): Promise<void> {
  // Each run asks afresh (a long-lived process may see a new commit); a late answer of an earlier call is dropped.
  gitAnswers.clear();
  const generation = ++gitGeneration;
  const lookups = (
    [
      [['rev-parse', 'HEAD'], packageRoot()],
      [['describe', '--always'], process.cwd()],
    ] as const
  ).map(
    ([args, directory]) =>
      new Promise<void>((resolve) => {
        const key = gitKey([...args], directory);
        try {
          const child = execFile('git', args, { cwd: directory, timeout: 2000 }, (error, stdout) => {
            if (generation === gitGeneration) gitAnswers.set(key, error ? null : stdout.toString().trim());
            resolve();
          });
          child.stdin?.end();
        } catch {
          // No git: the synchronous lookup will say so.
          resolve();
        }
      }),
  );
  return Promise.all(lookups).then(() => undefined);
}

function gitOutput(args: string[], directory: string): string | null {
  const known = gitAnswers.get(gitKey(args, directory));
  if (known !== undefined) return known;
  try {
    return execFileSync('git', args, { cwd: directory, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

/** `git describe --always` in a directory, or null outside a checkout (lm-eval's git_hash). */
export function gitDescribe(directory: string): string | null {
  return gitOutput(['describe', '--always'], directory);
}

/** The commit of assay itself, when it runs from a checkout. */
export function assayGitCommit(): string | null {
  return gitOutput(['rev-parse', 'HEAD'], packageRoot());
}

export function promptTemplateHash(plan: TaskPlan): string {
  const { config } = plan.task;
  const fields: Record<string, unknown> = {
    description: config.description ?? '',
    doc_to_text: serializeConfigValue(config.doc_to_text),
    doc_to_target: serializeConfigValue(config.doc_to_target),
    doc_to_choice: serializeConfigValue(config.doc_to_choice),
    gen_prefix: config.gen_prefix ?? null,
    target_delimiter: config.target_delimiter,
    fewshot_delimiter: config.fewshot_delimiter,
    fewshot_config: serializeConfigValue(config.fewshot_config),
  };
  // A template written in Python is its code: the modules of the functions that make the prompts
  // (process_docs builds the fields a template reads), by content.
  const code = pythonModulesOf([
    config.process_docs,
    config.doc_to_text,
    config.doc_to_target,
    config.doc_to_choice,
    config.fewshot_config,
  ]).map((module) => module.sha256);
  if (code.length) fields.python_modules = code.sort();
  return sha256(JSON.stringify(fields));
}

function dataProvenance(
  plan: TaskPlan,
): Pick<TaskManifest, 'dataset_revision' | 'dataset_commit' | 'data_files'> {
  const sources = plan.task.dataSources?.() ?? [];
  return {
    dataset_revision: sources[0]?.revision ?? plan.task.config.revision ?? null,
    dataset_commit: sources[0]?.commit ?? null,
    data_files: (plan.task.dataFiles?.() ?? []).map(({ split, path, sha256, size }) => ({
      split,
      path,
      sha256,
      size,
    })),
  };
}

export function taskManifest(plan: TaskPlan, fewshotSeed: number | null): TaskManifest {
  const { task } = plan;
  const outputType = task.config.output_type;
  const modules = pythonModulesOf(task.config).map((module) => ({
    path: path.relative(path.dirname(task.source.path), module.path),
    sha256: module.sha256,
  }));
  return {
    version: task.version,
    source: task.source.path,
    format: task.source.format,
    sha256: taskContentSha256(task),
    config_sha256: task.source.sha256,
    dataset_path: task.config.dataset_path ?? null,
    dataset_name: task.config.dataset_name ?? null,
    ...dataProvenance(plan),
    ...(modules.length ? { python_modules: modules } : {}),
    split: task.evalSplit ?? null,
    fewshot_split: task.fewshotSplit ?? null,
    num_fewshot: plan.numFewshot,
    fewshot_sampler: task.config.fewshot_config?.sampler ?? 'default',
    fewshot_seed: fewshotSeed,
    prompt_template_sha256: promptTemplateHash(plan),
    scoring_mode:
      outputType === 'generate_until'
        ? 'generation'
        : outputType === 'loglikelihood_rolling'
          ? 'rolling'
          : 'loglikelihood',
    length_normalisation:
      outputType === 'multiple_choice' ? 'acc_norm: characters; acc_bytes: UTF-8 bytes' : null,
    repeats: task.config.repeats ?? 1,
  };
}

export function hardware(numericFormat: string | null): Manifest['hardware'] {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    memory_bytes: os.totalmem(),
    gpu: null,
    numeric_format: numericFormat,
  };
}
