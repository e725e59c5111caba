import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { leafTasksOf, parseResults } from '../results/read-run.js';
import { isResultsFileName, isStagingName, samplesFileName, stampOf } from '../results/run-files.js';
import type { ReadResults } from '../results/schema.js';
import { SUITE_RECORD_FILE } from '../results/suite-record.js';
import type { RunSummary } from './api.js';
import { primaryScores } from './run-detail.js';
import { resolveInside } from './safe-path.js';

/** A run as the server holds it: the summary the API shows plus where its files are. */
export interface DiscoveredRun {
  summary: RunSummary;
  resultsFile: string;
  results: ReadResults;
  /** task name → absolute path of samples_<task>_<time>.jsonl */
  sampleFiles: Map<string, string>;
}

export interface Discovery {
  runs: DiscoveredRun[];
  problems: { file: string; message: string }[];
  /** Every suite record (suite.json) under the roots: the folders suites.ts reads as suites. */
  suiteRecords: { root: number; file: string }[];
}

interface Found {
  results: string[];
  suiteRecords: string[];
}

const SKIP_DIRECTORIES = new Set(['node_modules', '.git']);
const MAX_DEPTH = 8;
const OUTSIDE = 'a link to a file outside the viewed folder; not read';

/**
 * Results files (results_<time>.json, or <stem>_<time>.json with a .json output path) and suite records
 * under `directory`. Linked folders are not entered; a linked file is used only when it resolves inside
 * the root.
 */
async function walk(root: string, directory: string, depth: number, found: Found, problems: Problem[]) {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      // Staging folders hold runs still being written (or killed while writing): not runs yet.
      if (!SKIP_DIRECTORIES.has(entry.name) && !isStagingName(entry.name) && depth < MAX_DEPTH)
        await walk(root, full, depth + 1, found, problems);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      const list = isResultsFileName(entry.name)
        ? found.results
        : entry.name === SUITE_RECORD_FILE
          ? found.suiteRecords
          : undefined;
      if (!list) continue;
      const real = await resolveInside(root, path.relative(root, full));
      if (real) list.push(full);
      else if (entry.isSymbolicLink()) problems.push({ file: path.relative(root, full), message: OUTSIDE });
    }
  }
}

type Problem = Discovery['problems'][number];

export function runId(resultsFile: string): string {
  return createHash('sha256').update(path.resolve(resultsFile)).digest('hex').slice(0, 12);
}

/**
 * `model_args` as key/value entries: assay writes an object; lm-eval a `key=value,…` string, which it
 * splits on every comma itself (simple_parse_args_string), so a value never holds one.
 */
function modelArgEntries(config: Record<string, unknown>): RunSummary['modelArgEntries'] {
  const args = config.model_args;
  if (typeof args === 'string') {
    return args
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => {
        const at = part.indexOf('=');
        return at < 0
          ? { key: part.trim(), value: '' }
          : { key: part.slice(0, at).trim(), value: part.slice(at + 1) };
      });
  }
  if (args && typeof args === 'object') {
    return Object.entries(args).map(([key, value]) => ({
      key,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    }));
  }
  return [];
}

function modelArgsText(config: Record<string, unknown>): string {
  const args = config.model_args;
  if (typeof args === 'string') return args;
  return modelArgEntries(config)
    .map(({ key, value }) => `${key}=${value}`)
    .join(',');
}

function limitOf(config: Record<string, unknown>): number | null {
  return typeof config.limit === 'number' ? config.limit : null;
}

/** Each task's sample log beside the results file, by its real path inside the root (links out are refused). */
async function sampleFilesFor(
  root: string,
  resultsFile: string,
  tasks: string[],
  problems: Problem[],
): Promise<Map<string, string>> {
  const directory = path.dirname(resultsFile);
  const stamp = stampOf(resultsFile);
  const files = new Map<string, string>();
  if (!stamp) return files;
  const names = new Set(await readdir(directory));
  for (const task of tasks) {
    const name = samplesFileName(task, stamp);
    if (!names.has(name)) continue;
    const relative = path.relative(root, path.join(directory, name));
    const real = await resolveInside(root, relative);
    if (real) files.set(task, real);
    else problems.push({ file: relative, message: OUTSIDE });
  }
  return files;
}

/** Every results file under the roots, newest first; invalid files are reported, not dropped. */
export async function discoverRuns(roots: string[]): Promise<Discovery> {
  const runs: DiscoveredRun[] = [];
  const problems: Discovery['problems'] = [];
  const suiteRecords: Discovery['suiteRecords'] = [];
  for (const [rootIndex, root] of roots.entries()) {
    const found: Found = { results: [], suiteRecords: [] };
    const absoluteRoot = path.resolve(root);
    await walk(absoluteRoot, absoluteRoot, 0, found, problems);
    suiteRecords.push(...found.suiteRecords.sort().map((file) => ({ root: rootIndex, file })));
    for (const file of found.results.sort()) {
      let parsed: ReadResults;
      try {
        // The one reader's contract (results/schema.ts), as compare and gate read the same file.
        parsed = parseResults(JSON.parse(await readFile(file, 'utf8')), file);
      } catch (error) {
        if (error instanceof AssayError) {
          problems.push({ file: path.relative(root, file), message: error.message });
          continue;
        }
        problems.push({ file: path.relative(root, file), message: (error as Error).message });
        continue;
      }
      const tasks = Object.keys(parsed['n-samples']).length
        ? Object.keys(parsed['n-samples'])
        : Object.keys(parsed.results);
      const limit = limitOf(parsed.config);
      // Leaf tasks as every reader lists them (results/read-run.ts), so compare pairs them in one order.
      const sampleFiles = await sampleFilesFor(absoluteRoot, file, leafTasksOf(parsed), problems);
      runs.push({
        resultsFile: file,
        results: parsed,
        sampleFiles,
        summary: {
          id: runId(file),
          label: path.relative(path.resolve(root), file),
          root: rootIndex,
          model: parsed.model_name ?? parsed.model_source ?? 'unknown model',
          modelArgs: modelArgsText(parsed.config),
          modelArgEntries: modelArgEntries(parsed.config),
          tasks,
          date: parsed.date ?? 0,
          gitHash: parsed.git_hash ?? null,
          partial: parsed.partial ?? limit !== null,
          limit,
          sampleTasks: [...sampleFiles.keys()],
          scores: primaryScores(parsed, tasks),
          timeouts: parsed.timeouts
            ? { maxLatencyS: parsed.timeouts.max_latency_s, byTask: { ...parsed.timeouts.by_task } }
            : null,
        },
      });
    }
  }
  runs.sort((a, b) => b.summary.date - a.summary.date);
  return { runs, problems, suiteRecords };
}
