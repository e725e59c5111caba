/** Reading a metric_list entry's keyword arguments, with lm-eval's failure (TypeError) as an AssayError. */
import { AssayError } from '../errors.js';

export function checkKwargs(
  metric: string,
  kwargs: Record<string, unknown>,
  accepted: readonly string[],
): void {
  for (const key of Object.keys(kwargs)) {
    if (!accepted.includes(key)) {
      throw new AssayError(
        'invalid_config',
        `metric ${metric} has no argument ${JSON.stringify(key)}; it takes: ${accepted.length ? accepted.join(', ') : 'none'}`,
        { location: { field: 'metric_list' } },
      );
    }
  }
}

export function booleanKwarg(metric: string, kwargs: Record<string, unknown>, key: string): boolean {
  const value = kwargs[key] ?? false;
  if (typeof value !== 'boolean') {
    throw new AssayError(
      'invalid_config',
      `metric ${metric}: ${key} must be true or false, got ${JSON.stringify(value)}`,
      {
        location: { field: 'metric_list' },
      },
    );
  }
  return value;
}

export function requireReferences(metric: string, references: readonly string[]): void {
  if (references.length === 0) {
    throw new AssayError('scoring_error', `metric ${metric} needs at least one reference`, {
      location: { field: 'metric_list' },
    });
  }
}
