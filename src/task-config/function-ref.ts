/**
 * A function a task config names: `!function module.name` in YAML, resolved by the task loader (tasks/) to
 * a TypeScript export or a Python function (python/), or given directly by a TypeScript task. The ref keeps
 * its source reference so that configs serialize as lm-eval's do.
 */
import type { Doc } from './doc.js';

/** A doc_to_* function (or any per-doc function). */
export type DocFunction<T = unknown> = (doc: Doc) => T;
/** `context` names the task and split (Python process_docs uses it in error messages). */
export type DocsFunction = (
  docs: Doc[],
  context?: { task: string; split?: string },
) => Doc[] | Promise<Doc[]>;
/** lm-eval's `process_results(doc, results)`: results are the raw (filtered) responses for the doc. */
export type ProcessResultsFunction = (doc: Doc, results: unknown[]) => Record<string, unknown>;

/** A resolved `!function`. */
export interface FunctionRef<F = (...args: never[]) => unknown> {
  readonly kind: 'function';
  /** As written in YAML, e.g. `utils.process_docs`. */
  readonly ref: string;
  /** Absolute path of the module it resolves to. */
  readonly file: string;
  readonly fn: F;
}
