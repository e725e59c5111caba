/**
 * Starts the Python worker for a set of loaded tasks, only when one of them names a Python function,
 * and binds every such function in one call. No Python function, no interpreter: a run of TypeScript
 * and template-only tasks never needs one.
 */
import { collectPythonRefs, type PythonFunctionRef } from '../python/python-ref.js';
import { PythonRuntime, type PythonRuntimeOptions } from '../python/python-runtime.js';
import type { TaskNode } from './task.js';

/** Every Python function of the tasks and groups under `nodes`. */
export function pythonRefsOf(nodes: readonly TaskNode[]): PythonFunctionRef[] {
  const refs: PythonFunctionRef[] = [];
  const visit = (node: TaskNode): void => {
    collectPythonRefs(node.config, refs);
    if (node.kind === 'group') for (const child of node.children) visit(child);
  };
  for (const node of nodes) visit(node);
  return refs;
}

/** The task (or group) whose config holds a ref, for errors. */
function taskNames(nodes: readonly TaskNode[]): (ref: PythonFunctionRef) => string | undefined {
  const names = new Map<PythonFunctionRef, string>();
  const visit = (node: TaskNode): void => {
    for (const ref of collectPythonRefs(node.config)) if (!names.has(ref)) names.set(ref, node.name);
    if (node.kind === 'group') for (const child of node.children) visit(child);
  };
  for (const node of nodes) visit(node);
  return (ref) => names.get(ref);
}

/** A runtime bound to the tasks' Python functions, or undefined when they have none. Close it after the run. */
export async function startPythonFor(
  nodes: readonly TaskNode[],
  options: PythonRuntimeOptions,
): Promise<PythonRuntime | undefined> {
  const refs = pythonRefsOf(nodes);
  if (refs.length === 0) return undefined;
  // Name a function that truly needs Python in the error, not an optional evaluate-metric fallback.
  const runtime = await PythonRuntime.start(options, refs.find((ref) => !ref.hfEvaluate) ?? refs[0]);
  try {
    await runtime.bind(refs, taskNames(nodes));
  } catch (error) {
    await runtime.close();
    throw error;
  }
  return runtime;
}
