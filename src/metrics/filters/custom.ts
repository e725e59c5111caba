/**
 * lm-eval `custom` (CustomFilter): calls `filter_fn(resps, docs)`. lm-eval passes every doc at once, and so
 * does a Python `filter_fn` (utils.py); a TypeScript one gets a one-doc batch, `filter_fn([responses], [doc])`,
 * and its first result is the doc's value.
 */
import { AssayError } from '../../errors.js';
import { isPythonRef } from '../../python/python-ref.js';
import type { Doc } from '../../task-config/doc.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import { pythonFilterFunction } from './python-filter.js';
import { badArgument, type FilterDefinition, type FilterStep } from './types.js';

type BatchFilter = (responses: unknown[], docs: Doc[]) => Iterable<unknown>;

function build(config: FilterStepConfig): FilterStep {
  const reference = config.filter_fn as { kind?: string; fn?: unknown; ref?: string } | undefined;
  if (isPythonRef(reference)) return pythonFilterFunction(reference);
  const fn =
    typeof reference === 'function' ? reference : reference?.kind === 'function' ? reference.fn : undefined;
  if (typeof fn !== 'function') badArgument(config, 'filter_fn', 'a function (!function module.name)');
  return (responses, doc) => {
    const [first] = [...(fn as BatchFilter)([responses], [doc])];
    if (first === undefined) {
      throw new AssayError(
        'scoring_error',
        `filter custom: ${reference?.ref ?? 'filter_fn'} returned nothing for a doc`,
        {
          location: { field: 'filter_list' },
        },
      );
    }
    return first;
  };
}

export const customFilter: FilterDefinition = { arguments: ['filter_fn'], build };
