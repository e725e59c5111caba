/**
 * A step written `function: !function module.Name` (bbh zero-shot, kormedmcqa): lm-eval's `get_filter`
 * returns a callable as is, builds `partial(Name, **kwargs)` and applies `Name(**kwargs).apply(resps, docs)`.
 * Here the export is constructed with the step's other keys as one object and applied to a one-doc batch,
 * `apply([responses], [doc])`; its first result is the doc's value.
 */
import { AssayError } from '../../errors.js';
import type { Doc } from '../../task-config/doc.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import type { FunctionRef } from '../../task-config/function-ref.js';
import type { FilterStep } from './types.js';

interface FilterInstance {
  apply(responses: unknown[], docs: Doc[]): Iterable<unknown>;
}

export function classFilterStep(reference: FunctionRef, config: FilterStepConfig): FilterStep {
  const { function: _reference, ...options } = config;
  let instance: FilterInstance | undefined;
  return (responses, doc) => {
    instance ??= new (reference.fn as unknown as new (options: Record<string, unknown>) => FilterInstance)(
      options,
    );
    if (typeof instance.apply !== 'function') {
      throw new AssayError(
        'scoring_error',
        `filter ${reference.ref}: its instances have no apply(resps, docs) method`,
        { location: { file: reference.file, field: 'filter_list' } },
      );
    }
    const [first] = [...instance.apply([responses], [doc])];
    if (first === undefined) {
      throw new AssayError('scoring_error', `filter ${reference.ref} returned nothing for a doc`, {
        location: { file: reference.file, field: 'filter_list' },
      });
    }
    return first;
  };
}
