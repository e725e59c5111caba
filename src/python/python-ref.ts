/**
 * A `!function module.name` that resolved to a `utils.py`: a FunctionRef whose function runs in the
 * Python worker. Where the evaluator calls functions synchronously (doc_to_text and friends), the values
 * are computed beforehand in one batched call and `fn` reads them back; everything else goes through
 * the runtime the ref is bound to (python-runtime.ts).
 */
import path from 'node:path';
import { AssayError, type ErrorLocation } from '../errors.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import { INTERPRETER_HINT } from './interpreter.js';

/** What lm-eval does with the function, from where the YAML puts it. */
export type PythonFunctionKind =
  | 'process_docs'
  | 'samples'
  | 'doc'
  | 'process_results'
  | 'metric'
  | 'aggregation'
  | 'filter_class'
  | 'filter_fn'
  | 'group_aggregation'
  | 'other';

/** The part of a PythonRuntime a ref needs (kept as an interface so this file does not import the runtime). */
export interface PythonBinding {
  processDocs(ref: PythonFunctionRef, docs: Doc[], context: DocsContext): Promise<Doc[]>;
  samples(ref: PythonFunctionRef): Promise<Doc[]>;
}

/** A Python module file and its content's sha256. */
export interface ModuleDigest {
  path: string;
  sha256: string;
}

export interface DocsContext {
  task: string;
  split?: string;
}

export interface PythonFunctionRef extends FunctionRef {
  readonly language: 'python';
  /** Absolute path of the .py module. */
  readonly module: string;
  /** The attribute looked up in it. */
  readonly name: string;
  /** The YAML that wrote the tag, and where in the config it sits (`metric_list.0.aggregation`). */
  readonly yamlFile: string;
  readonly keyPath: readonly (string | number)[];
  /**
   * Where the tag is written (file, line, column), for errors found after loading, when binding fails.
   * The task loader, which reads the YAML's positions, gives it; otherwise the location is the YAML file.
   */
  readonly locate: () => Promise<ErrorLocation>;
  readonly usage: PythonFunctionKind;
  /**
   * Set by PythonRuntime.bind: the worker's number for the function, and the task-code modules its module
   * imports, itself included (module-digests.ts), which the task's content hash covers.
   */
  binding?: { runtime: PythonBinding; id: number; modules?: readonly ModuleDigest[] };
  /** doc → value of this doc function, filled by prepareDocFunctions before the evaluator reads them. */
  readonly prepared: WeakMap<object, unknown>;
  /**
   * A metric lm-eval would take from Hugging Face `evaluate` (`evaluate.load(name).compute`): an unknown
   * metric name, or `hf_evaluate: true`. `unavailable` is the error to give when `evaluate` cannot be imported.
   */
  readonly hfEvaluate?: { name: string; unavailable: AssayError };
  /**
   * A filter named in the YAML that task modules register (`@register_filter(name)`): looked up in the
   * filter registry after `modules` are imported; `unknown` is the error when no module registers it.
   */
  readonly registeredFilter?: { name: string; modules: string[]; unknown: AssayError };
}

export function isPythonRef(value: unknown): value is PythonFunctionRef {
  return value !== null && typeof value === 'object' && (value as PythonFunctionRef).language === 'python';
}

function usageOf(keyPath: readonly (string | number)[]): PythonFunctionKind {
  const key = String(keyPath[keyPath.length - 1] ?? '');
  const head = String(keyPath[0] ?? '');
  if (key === 'process_docs') return 'process_docs';
  if (key === 'samples') return 'samples';
  if (key.startsWith('doc_to_')) return 'doc';
  if (key === 'process_results') return 'process_results';
  if (head === 'aggregate_metric_list' && key === 'aggregation') return 'group_aggregation';
  if (head === 'metric_list' && key === 'metric') return 'metric';
  if (head === 'metric_list' && key === 'aggregation') return 'aggregation';
  if (head === 'filter_list' && key === 'function') return 'filter_class';
  if (head === 'filter_list' && key === 'filter_fn') return 'filter_fn';
  return 'other';
}

/** `process_docs` or `metric_list.0.aggregation`, for messages. */
export function keyLabel(keyPath: readonly (string | number)[]): string {
  return keyPath.join('.');
}

export function needsInterpreter(ref: PythonFunctionRef, reason?: string): AssayError {
  return new AssayError(
    'needs_python',
    `${keyLabel(ref.keyPath)}: !function ${ref.ref} is Python (${path.basename(ref.module)}) and needs a Python interpreter` +
      `${reason ? ` (${reason})` : ''}; ${INTERPRETER_HINT}`,
    { location: { file: ref.yamlFile, field: keyLabel(ref.keyPath) } },
  );
}

export function createPythonRef(
  ref: string,
  module: string,
  name: string,
  yamlFile: string,
  keyPath: readonly (string | number)[],
  locate: () => Promise<ErrorLocation> = async () => ({ file: yamlFile }),
): PythonFunctionRef {
  const usage = usageOf(keyPath);
  const prepared = new WeakMap<object, unknown>();
  const target: PythonFunctionRef = {
    kind: 'function',
    language: 'python',
    ref,
    file: module,
    module,
    name,
    yamlFile,
    keyPath,
    locate,
    usage,
    prepared,
    fn: undefined as unknown as FunctionRef['fn'],
  };
  const bound = (): PythonBinding => {
    if (!target.binding) throw needsInterpreter(target);
    return target.binding.runtime;
  };
  let fn: (...args: never[]) => unknown;
  if (usage === 'process_docs') {
    fn = ((docs: Doc[], context?: DocsContext) =>
      bound().processDocs(target, docs, context ?? { task: '?' })) as typeof fn;
  } else if (usage === 'samples') {
    fn = (() => bound().samples(target)) as typeof fn;
  } else {
    fn = ((doc: Doc) => {
      if (prepared.has(doc)) return prepared.get(doc);
      bound();
      throw new AssayError(
        'python_error',
        `internal: ${keyLabel(keyPath)} !function ${ref} was called on a doc it was not prepared for`,
        { location: { file: yamlFile, field: keyLabel(keyPath) } },
      );
    }) as typeof fn;
  }
  (target as { fn: typeof fn }).fn = fn;
  return target;
}

/**
 * A metric_list entry lm-eval resolves through Hugging Face `evaluate.load(name)`. It needs Python and
 * `evaluate`; without them the task fails with `unavailable` (the unknown-metric error), as before.
 */
export function createHfMetricRef(
  name: string,
  yamlFile: string,
  keyPath: readonly (string | number)[],
  unavailable: AssayError,
): PythonFunctionRef {
  return {
    ...createPythonRef(name, `<evaluate.load(${JSON.stringify(name)})>`, name, yamlFile, keyPath),
    hfEvaluate: { name, unavailable },
  };
}

export function createRegisteredFilterRef(
  name: string,
  modules: string[],
  yamlFile: string,
  keyPath: readonly (string | number)[],
  unknown: AssayError,
): PythonFunctionRef {
  return {
    ...createPythonRef(name, modules[0], name, yamlFile, keyPath),
    registeredFilter: { name, modules, unknown },
  };
}

/** Every Python ref in a config tree (task configs, group configs), each once, in tree order. */
export function collectPythonRefs(value: unknown, into: PythonFunctionRef[] = []): PythonFunctionRef[] {
  const seen = new Set<PythonFunctionRef>(into);
  const walk = (node: unknown): void => {
    if (isPythonRef(node)) {
      if (!seen.has(node)) {
        seen.add(node);
        into.push(node);
      }
      return;
    }
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === 'object' && Object.getPrototypeOf(node) === Object.prototype) {
      for (const item of Object.values(node)) walk(item);
    }
  };
  walk(value);
  return into;
}
