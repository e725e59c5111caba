/**
 * The filter seam. lm-eval applies each filter to every doc's list of responses (one per repeat) in turn;
 * a step here does the same for one doc. Steps keep lm-eval's data shapes: before `take_first` a doc's value
 * is a list of responses, after it a single response.
 */
import { AssayError } from '../../errors.js';
import { pythonPosition } from '../../python/semantics/values.js';
import type { Doc } from '../../task-config/doc.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';

export type FilterStep = ((responses: unknown, doc: Doc) => unknown) & {
  /**
   * Set on steps that work as lm-eval's filters do, over every instance of a task at once (Python filter
   * classes and `custom` filter functions): values in instance order, one doc per value.
   */
  batch?: (values: unknown[], docs: Doc[], task: string) => Promise<unknown[]>;
};

export interface FilterDefinition {
  /** The YAML keys the step accepts besides `function`. */
  readonly arguments: readonly string[];
  readonly build: (config: FilterStepConfig) => FilterStep;
}

export interface FilterPipeline {
  readonly name: string;
  /** One instance's responses through every step; for pipelines without batch steps. */
  apply(responses: unknown, doc: Doc): unknown;
  /** True when a step must see every instance at once: use applyAll. */
  readonly batched: boolean;
  /** Every instance's responses through the pipeline, step by step as lm-eval runs it. */
  applyAll(values: unknown[], docs: Doc[], task: string): Promise<unknown[]>;
}

/**
 * Python iterates whatever it is given: a list yields its items, a str its characters. A step placed after
 * `take_first` therefore sees characters in lm-eval, and does here too.
 */
export function iterateResponses(responses: unknown, filterName: string): unknown[] {
  if (Array.isArray(responses)) return responses;
  if (typeof responses === 'string') return [...responses];
  throw new AssayError(
    'scoring_error',
    `filter ${filterName}: expected the doc's list of responses, got ${describe(responses)}`,
    { location: { field: 'filter_list' } },
  );
}

export function describe(value: unknown): string {
  if (value === null) return 'None';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 60) ?? String(value)}`;
}

export function filterLabel(config: FilterStepConfig): string {
  return typeof config.function === 'string' ? config.function : `!function ${config.function.ref}`;
}

export function badArgument(config: FilterStepConfig, key: string, expected: string): never {
  throw new AssayError(
    'invalid_config',
    `filter ${filterLabel(config)}: ${key} must be ${expected}, got ${describe(config[key])}`,
    { location: { field: 'filter_list' } },
  );
}

export function stringArgument(config: FilterStepConfig, key: string, fallback: string): string {
  const value = config[key] ?? fallback;
  if (typeof value !== 'string') badArgument(config, key, 'a string');
  return value;
}

export function integerArgument(config: FilterStepConfig, key: string, fallback?: number): number {
  const value = config[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) badArgument(config, key, 'an integer');
  return value;
}

export function booleanArgument(config: FilterStepConfig, key: string, fallback: boolean): boolean {
  const value = config[key] ?? fallback;
  if (typeof value !== 'boolean') badArgument(config, key, 'true or false');
  return value;
}

/** `sequence[index]` with Python's negative indexes; out of range is Python's IndexError, as an AssayError. */
export function selectIndex<T>(sequence: readonly T[], index: number, what: string): T {
  const position = pythonPosition(sequence.length, index);
  if (position === undefined) {
    throw new AssayError(
      'scoring_error',
      `${what}: index ${index} is out of range for ${sequence.length} item${sequence.length === 1 ? '' : 's'}`,
      { location: { field: 'filter_list' } },
    );
  }
  return sequence[position];
}
