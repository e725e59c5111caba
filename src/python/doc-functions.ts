/**
 * Before a task is planned, its Python doc functions (doc_to_text, doc_to_target, doc_to_choice and the
 * fewshot_config overrides) run over every doc the plan will read, in one request per task; the
 * evaluator's synchronous calls then read the results (python-ref.ts).
 */
import type { Doc } from '../task-config/doc.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { isPythonRef, type PythonFunctionRef } from './python-ref.js';
import { boundRuntime, type ItemLocation, type PythonRuntime } from './python-runtime.js';

const DOC_FIELDS = ['doc_to_text', 'doc_to_target', 'doc_to_choice'] as const;

/**
 * `evalDocs`: the eval docs the plan uses, by doc id; `shotDocs`: the few-shot docs drawn for them, by
 * position in the few-shot pool.
 */
export async function prepareDocFunctions(
  config: TaskConfig,
  evalDocs: ReadonlyMap<Doc, number>,
  shotDocs: ReadonlyMap<Doc, number>,
): Promise<void> {
  const calls: Array<{ ref: PythonFunctionRef; docs: Doc[] }> = [];
  const all = [...new Set([...evalDocs.keys(), ...shotDocs.keys()])];
  for (const field of DOC_FIELDS) {
    const own = config[field];
    if (isPythonRef(own)) calls.push({ ref: own, docs: all });
    const fewshot = config.fewshot_config?.[field];
    if (isPythonRef(fewshot)) calls.push({ ref: fewshot, docs: [...shotDocs.keys()] });
  }
  if (calls.length === 0) return;
  const locate = (doc: Doc): ItemLocation => {
    const docId = evalDocs.get(doc);
    if (docId !== undefined) return { task: config.task, docId };
    return { task: config.task, label: `few-shot doc ${shotDocs.get(doc) ?? '?'}` };
  };
  const byRuntime = new Map<PythonRuntime, typeof calls>();
  for (const call of calls) {
    const runtime = boundRuntime(call.ref);
    byRuntime.set(runtime, [...(byRuntime.get(runtime) ?? []), call]);
  }
  for (const [runtime, group] of byRuntime) await runtime.prepareDocFunctions(group, locate);
}
