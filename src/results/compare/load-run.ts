/**
 * A "run" for compare and gate: one results file and the sample logs written beside it by
 * `assay run --log_samples` (or lm-eval's `--log_samples`). Accepts the results file itself, the
 * directory holding it, or the `--output_path` directory one level above (`<output_path>/<model>/`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AssayError } from '../../errors.js';
import { isResultsFileName, isStagingName, samplesFileName, stampOf } from '../run-files.js';

/** The part of results.json that compare and gate read (rule: outside data keeps only the fields we use). */
const resultsSchema = z.object({
  results: z.record(z.string(), z.record(z.string(), z.unknown())),
  groups: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  group_subtasks: z.record(z.string(), z.array(z.string())).default({}),
  configs: z.record(z.string(), z.record(z.string(), z.unknown())),
  higher_is_better: z.record(z.string(), z.record(z.string(), z.boolean())).default({}),
  model_name: z.string().optional(),
  /** Read by tracking export (src/export/): the run's settings, task hashes, and the folder name. */
  config: z.record(z.string(), z.unknown()).nullish(),
  task_hashes: z.record(z.string(), z.string()).nullish(),
  versions: z.record(z.string(), z.unknown()).optional(),
  'n-shot': z.record(z.string(), z.unknown()).optional(),
  model_name_sanitized: z.string().nullish(),
  model_source: z.string().nullish(),
  assay_version: z.string().nullish(),
  date: z.number().nullish(),
  manifest: z
    .object({ tasks: z.record(z.string(), z.object({ sha256: z.string().nullish() })).optional() })
    .optional(),
  /** Errored samples per task (assay runs; older runs and lm-eval's have none, their sample logs tell). */
  errors: z.object({ by_task: z.record(z.string(), z.number()) }).optional(),
  /** Perplexity tasks: the tokenizer behind token counts (token_perplexity compares only under one). */
  perplexity: z
    .record(
      z.string(),
      z.object({
        tokenizer: z
          .object({
            name: z.string(),
            vocab_size: z.number().nullable(),
            vocab_sha256: z.string().nullable(),
          })
          .nullable()
          .optional(),
      }),
    )
    .optional(),
});

export type RunResults = z.infer<typeof resultsSchema>;

/** One sample-log line, reduced to what pairing needs. */
export interface SampleScore {
  docId: number;
  docHash: string;
  filter: string;
  error?: string;
  values: Record<string, unknown>;
}

export interface LoadedRun {
  /** What the user passed. */
  location: string;
  resultsFile: string;
  results: RunResults;
  /** Leaf task → its sample log, for the tasks that have one. */
  sampleFiles: Map<string, string>;
  /** Other results files found in the directory and not used (the newest one wins). */
  ignoredResultsFiles: string[];
}

function resultsFilesIn(directory: string): string[] {
  return readdirSync(directory)
    .filter(isResultsFileName)
    .sort()
    .map((name) => path.join(directory, name));
}

function findResultsFiles(location: string): string[] {
  const here = resultsFilesIn(location);
  if (here.length) return here;
  // --output_path layout: results live one level down, under the sanitized model name.
  const below = readdirSync(location, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !isStagingName(entry.name))
    .flatMap((entry) => resultsFilesIn(path.join(location, entry.name)));
  return below.sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
}

export interface LoadRunOptions {
  /** compare and gate pair per-sample scores, so they refuse a run without sample logs (the default). */
  requireSamples?: boolean;
}

export function loadRun(location: string, options: LoadRunOptions = {}): LoadedRun {
  if (!existsSync(location)) {
    throw new AssayError(
      'not_found',
      `run not found: ${location} (give a results directory or a results_*.json file)`,
    );
  }
  let candidates: string[];
  if (statSync(location).isDirectory()) {
    candidates = findResultsFiles(location);
    if (!candidates.length) {
      throw new AssayError('not_found', `no results_*.json in ${location} or its subdirectories`, {
        location: { file: location },
      });
    }
  } else {
    candidates = [location];
  }
  // File names carry the run's timestamp, so the lexically last is the newest run.
  const resultsFile = candidates[candidates.length - 1];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch (error) {
    throw new AssayError('bad_data', `cannot read results file: ${(error as Error).message}`, {
      location: { file: resultsFile },
      cause: error,
    });
  }
  const checked = resultsSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AssayError(
      'bad_data',
      `not an assay/lm-eval results file: ${issue.path.join('.')}: ${issue.message}`,
      {
        location: { file: resultsFile },
      },
    );
  }
  const stamp = stampOf(resultsFile);
  const directory = path.dirname(resultsFile);
  const sampleFiles = new Map<string, string>();
  if (stamp !== undefined) {
    for (const task of Object.keys(checked.data.configs)) {
      const file = path.join(directory, samplesFileName(task, stamp));
      if (existsSync(file)) sampleFiles.set(task, file);
    }
  }
  if (sampleFiles.size === 0 && options.requireSamples !== false) {
    throw new AssayError(
      'missing_sample_logs',
      `no sample logs beside ${resultsFile}: compare and gate pair per-sample scores, so the run must be made with \`logSamples\``,
      { location: { file: resultsFile } },
    );
  }
  return {
    location,
    resultsFile,
    results: checked.data,
    sampleFiles,
    ignoredResultsFiles: candidates.slice(0, -1),
  };
}

/**
 * Keeps only the metric values a line lists in `metrics` (lm-eval writes that list too): holding every
 * parsed doc, prompt and response of 100,000 lines costs more in garbage collection than parsing them.
 */
function metricValues(line: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(line.metrics)) return line;
  const out: Record<string, unknown> = {};
  for (const name of line.metrics) if (typeof name === 'string') out[name] = line[name];
  return out;
}

/** Reads one sample log. Lines are JSON objects; only the pairing fields are checked, for speed. */
export function readSampleScores(file: string): SampleScore[] {
  const text = readFileSync(file, 'utf8');
  const out: SampleScore[] = [];
  let start = 0;
  let lineNumber = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNumber++;
    const line = text.slice(start, end);
    start = end + 1;
    if (!line.trim()) continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new AssayError('bad_jsonl_line', `sample log line is not JSON: ${(error as Error).message}`, {
        location: { file, line: lineNumber },
      });
    }
    if (
      typeof value.doc_hash !== 'string' ||
      typeof value.filter !== 'string' ||
      typeof value.doc_id !== 'number'
    ) {
      throw new AssayError('bad_data', 'sample log line lacks doc_id, doc_hash or filter', {
        location: { file, line: lineNumber },
      });
    }
    out.push({
      docId: value.doc_id,
      docHash: value.doc_hash,
      filter: value.filter,
      error: typeof value.error === 'string' ? value.error : undefined,
      values: metricValues(value),
    });
  }
  return out;
}
