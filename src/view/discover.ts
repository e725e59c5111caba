import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunSummary } from './api.js';
import { type ViewedResults, viewedResultsSchema } from './results-schema.js';

/** A run as the server holds it: the summary the API shows plus where its files are. */
export interface DiscoveredRun {
  summary: RunSummary;
  resultsFile: string;
  results: ViewedResults;
  /** task name → absolute path of samples_<task>_<time>.jsonl */
  sampleFiles: Map<string, string>;
}

export interface Discovery {
  runs: DiscoveredRun[];
  problems: { file: string; message: string }[];
}

// results_<time>.json as lm-eval and assay name it (or <stem>_<time>.json with a .json output path).
const TIMESTAMP = /_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d+)\.json$/;
const SKIP_DIRECTORIES = new Set(['node_modules', '.git']);
const MAX_DEPTH = 8;

async function walk(directory: string, depth: number, found: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    // Symlinks are not followed: a link could lead outside the directories the user chose to serve.
    if (entry.isDirectory() && !SKIP_DIRECTORIES.has(entry.name) && depth < MAX_DEPTH)
      await walk(full, depth + 1, found);
    else if (entry.isFile() && entry.name.endsWith('.json') && TIMESTAMP.test(entry.name)) found.push(full);
  }
}

export function runId(resultsFile: string): string {
  return createHash('sha256').update(path.resolve(resultsFile)).digest('hex').slice(0, 12);
}

function modelArgsText(config: Record<string, unknown>): string {
  const args = config.model_args;
  if (typeof args === 'string') return args;
  if (args && typeof args === 'object') {
    return Object.entries(args)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(',');
  }
  return '';
}

function limitOf(config: Record<string, unknown>): number | null {
  return typeof config.limit === 'number' ? config.limit : null;
}

async function sampleFilesFor(resultsFile: string, tasks: string[]): Promise<Map<string, string>> {
  const directory = path.dirname(resultsFile);
  const stamp = TIMESTAMP.exec(path.basename(resultsFile))?.[1];
  const files = new Map<string, string>();
  if (!stamp) return files;
  const names = new Set(await readdir(directory));
  for (const task of tasks) {
    const name = `samples_${task}_${stamp}.jsonl`;
    if (names.has(name)) files.set(task, path.join(directory, name));
  }
  return files;
}

/** Every results file under the roots, newest first; invalid files are reported, not dropped. */
export async function discoverRuns(roots: string[]): Promise<Discovery> {
  const runs: DiscoveredRun[] = [];
  const problems: Discovery['problems'] = [];
  for (const [rootIndex, root] of roots.entries()) {
    const found: string[] = [];
    await walk(path.resolve(root), 0, found);
    for (const file of found.sort()) {
      let parsed: ViewedResults;
      try {
        const result = viewedResultsSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
        if (!result.success) {
          problems.push({
            file: path.relative(root, file),
            message: result.error.issues
              .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
              .join('; '),
          });
          continue;
        }
        parsed = result.data;
      } catch (error) {
        problems.push({ file: path.relative(root, file), message: (error as Error).message });
        continue;
      }
      const tasks = Object.keys(parsed['n-samples']).length
        ? Object.keys(parsed['n-samples'])
        : Object.keys(parsed.results);
      const limit = limitOf(parsed.config);
      const sampleFiles = await sampleFilesFor(file, tasks);
      runs.push({
        resultsFile: file,
        results: parsed,
        sampleFiles,
        summary: {
          id: runId(file),
          label: path.relative(path.resolve(root), file),
          root: rootIndex,
          model: parsed.model_name,
          modelArgs: modelArgsText(parsed.config),
          tasks,
          date: parsed.date,
          gitHash: parsed.git_hash,
          partial: parsed.partial ?? limit !== null,
          limit,
          sampleTasks: [...sampleFiles.keys()],
        },
      });
    }
  }
  runs.sort((a, b) => b.summary.date - a.summary.date);
  return { runs, problems };
}
