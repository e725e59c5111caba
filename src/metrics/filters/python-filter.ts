/**
 * Filter steps that run in Python, over every instance of a task at once as lm-eval's FilterEnsemble
 * applies them: a filter class (`function: !function utils.MyFilter`, built with the step's other keys)
 * and `custom`'s `filter_fn: !function utils.fn` (called as `filter_fn(resps, docs)`).
 */
import { AssayError } from '../../errors.js';
import { keyLabel, type PythonFunctionRef } from '../../python/python-ref.js';
import { boundRuntime } from '../../python/python-runtime.js';
import { pythonResponse } from '../../python/responses.js';
import type { Doc } from '../../task-config/doc.js';
import type { FilterStep } from './types.js';

function step(ref: PythonFunctionRef, mode: 'class' | 'custom', kwargs: Record<string, unknown>): FilterStep {
  const perDoc = (() => {
    throw new AssayError(
      'python_error',
      `internal: ${keyLabel(ref.keyPath)} !function ${ref.ref} filters every instance at once; use applyAll`,
      { location: { file: ref.yamlFile, field: 'filter_list' } },
    );
  }) as FilterStep;
  perDoc.batch = async (values: unknown[], docs: Doc[], task: string) => {
    return boundRuntime(ref).filter(
      ref,
      mode,
      kwargs,
      values.map((value) => pythonResponse(value)),
      docs,
      task,
    );
  };
  return perDoc;
}

export function pythonFilterClass(ref: PythonFunctionRef, kwargs: Record<string, unknown>): FilterStep {
  return step(ref, 'class', kwargs);
}

export function pythonFilterFunction(ref: PythonFunctionRef): FilterStep {
  return step(ref, 'custom', {});
}
