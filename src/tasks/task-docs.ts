/**
 * Docs for a loaded task: the evaluation split and the few-shot pool, with process_docs applied, in
 * lm-eval's order (api/task.py `eval_docs`, `fewshot_docs`). Loading is lazy and happens once.
 */
import type { HubDataSource } from '../data/hub/dataset.js';
import { type DataFile, hasLocalData, type LoadedSplit, loadSplitWithSource } from '../data/local-dataset.js';
import { AssayError } from '../errors.js';
import { scopedListener, startOperation } from '../events.js';
import type { Doc } from '../task-config/doc.js';
import type { TaskConfig } from '../task-config/task-config.js';

export interface TaskDocs {
  evalSplit?: string;
  fewshotSplit?: string;
  evalDocs(): Promise<Doc[]>;
  fewshotDocs(): Promise<Doc[]>;
  /**
   * Starts reading the evaluation split's local files now (a Hub split is left for evalDocs), so the read
   * overlaps other start-up work such as a Python worker's start; evalDocs then uses that read.
   */
  prefetchEvalDocs(): void;
  /**
   * Starts evalDocs itself now, process_docs included, so that a Python worker maps the split while Node
   * goes on with start-up (loading the evaluation's code, creating the backend). The next evalDocs call
   * returns that load, its failure included; a call after a failure loads again, as without it.
   */
  startEvalDocs(): void;
  /** Hub splits read so far (revision, commit, file sha256s), for the manifest. */
  dataSources(): HubDataSource[];
  /** Every data file read so far (local or Hub), once each, for the manifest and the content sha256. */
  dataFiles(): DataFile[];
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    promise ??= load();
    // Retry after a failure: the user may have fixed the data file in a long-lived process.
    promise.catch(() => (promise = undefined));
    return promise;
  };
}

/** Split docs from the task's dataset, through `process` when given (a copy: cached rows stay intact). */
async function splitDocs(
  config: TaskConfig,
  taskFile: string,
  split: string,
  process: TaskConfig['process_docs'],
  sources: HubDataSource[],
  files: DataFile[],
  prefetched?: Promise<LoadedSplit>,
): Promise<Doc[]> {
  const loaded = await (prefetched ?? loadSplitWithSource(config, taskFile, split));
  if (loaded.source && !sources.some((known) => known.split === loaded.source?.split))
    sources.push(loaded.source);
  for (const file of loaded.files) {
    if (!files.some((known) => known.split === file.split && known.path === file.path)) files.push(file);
  }
  const docs = [...loaded.docs];
  if (!process) return docs;
  // One call over the whole split (a Python worker maps it at once), so its progress is the time it takes.
  const operation = startOperation(scopedListener(), {
    id: `process_docs:${config.task}:${split}`,
    label: `${config.task}: process_docs (${process.ref}) over ${docs.length} docs of ${split}`,
    unit: 'docs',
  });
  let processed: unknown;
  try {
    processed = await process.fn(docs, { task: config.task, split });
  } finally {
    operation.end(0);
  }
  if (!Array.isArray(processed)) {
    throw new AssayError('invalid_config', `process_docs (${process.ref}) must return a list of docs`, {
      location: { file: taskFile, task: config.task, field: 'process_docs' },
    });
  }
  return processed;
}

export function taskDocs(config: TaskConfig, taskFile: string): TaskDocs {
  const evalSplit = config.test_split ?? config.validation_split;
  const fewshot = config.fewshot_config;
  const fewshotSplit =
    config.fewshot_split ??
    fewshot?.split ??
    (fewshot?.samples !== undefined
      ? undefined
      : (config.training_split ?? config.validation_split ?? config.test_split));
  const sources: HubDataSource[] = [];
  const files: DataFile[] = [];
  // A read started by prefetchEvalDocs, used once by the next evalDocs load (a retry after a failure reads again).
  let prefetched: Promise<LoadedSplit> | undefined;
  const evalDocs = once(async () => {
    if (evalSplit === undefined) {
      throw new AssayError(
        'invalid_config',
        `task ${config.task} has neither test_split nor validation_split`,
        {
          location: { file: taskFile, task: config.task },
        },
      );
    }
    const read = prefetched;
    prefetched = undefined;
    return splitDocs(config, taskFile, evalSplit, config.process_docs, sources, files, read);
  });
  // A load startEvalDocs began, handed to the next evalDocs call (even when it failed: once() forgets a
  // failed load at once, and the failure must be reported, not the split loaded a second time).
  let started: Promise<Doc[]> | undefined;
  return {
    evalSplit,
    fewshotSplit,
    dataSources: () => [...sources],
    dataFiles: () => [...files],
    evalDocs: () => {
      const load = started ?? evalDocs();
      started = undefined;
      return load;
    },
    startEvalDocs: () => {
      if (started) return;
      started = evalDocs();
      // Reported by the evalDocs call that takes it over.
      started.catch(() => {});
    },
    prefetchEvalDocs: () => {
      if (evalSplit === undefined || prefetched || !hasLocalData(config, taskFile)) return;
      prefetched = loadSplitWithSource(config, taskFile, evalSplit);
      // A failed read is reported by evalDocs, where it would have been without the prefetch.
      prefetched.catch(() => {});
    },
    fewshotDocs: once(async () => {
      if (fewshotSplit !== undefined) {
        return splitDocs(
          config,
          taskFile,
          fewshotSplit,
          fewshot?.process_docs ?? config.process_docs,
          sources,
          files,
        );
      }
      const samples = fewshot?.samples;
      if (Array.isArray(samples)) return samples;
      if (samples !== undefined) {
        const produced = await (samples.fn as () => unknown)();
        if (!Array.isArray(produced)) {
          throw new AssayError(
            'invalid_config',
            `fewshot_config.samples (${samples.ref}) must return a list of docs`,
            {
              location: { file: taskFile, task: config.task, field: 'fewshot_config.samples' },
            },
          );
        }
        return produced as Doc[];
      }
      return [];
    }),
  };
}
