import { AssayError } from '../errors.js';

/** Docs per task: a count (the first N docs), or a share of each task (`{ fraction: 0.1 }`). For testing only. */
export type Limit = number | { fraction: number };

/**
 * The limit as lm-eval's get_sample_size takes it, and as results.json records it: a count of at least 1,
 * or a fraction below 1.
 */
export function limitValue(limit: Limit | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit === 'number') {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new AssayError(
        'bad_option',
        `\`limit\` must be a whole number of docs, at least 1 (for a share of each task give { fraction }), got ${limit}`,
        { location: { field: 'limit' } },
      );
    }
    return limit;
  }
  const fraction = (limit as { fraction?: unknown } | null)?.fraction;
  if (typeof fraction !== 'number' || !(fraction > 0 && fraction < 1)) {
    throw new AssayError(
      'bad_option',
      `\`limit\` must be a count or { fraction } with a fraction between 0 and 1, got ${JSON.stringify(limit)}`,
      { location: { field: 'limit' } },
    );
  }
  return fraction;
}

/** lm-eval's get_sample_size: below 1 a fraction (ceil of len × limit), else a count. */
export function sampleSize(total: number, limit: Limit | undefined): number {
  if (limit === undefined) return total;
  if (typeof limit === 'object') return Math.ceil(total * limit.fraction);
  if (limit < 1) return Math.ceil(total * limit);
  return Math.min(total, Math.trunc(limit));
}
