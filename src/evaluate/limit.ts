import { AssayError } from '../errors.js';

/**
 * lm-eval's get_sample_size: a limit below 1.0 is a fraction (ceil of len × limit); anything else is a
 * count, so `--limit 1.0` means one doc.
 */
export function parseLimit(value: string | number | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  if (
    !Number.isFinite(number) ||
    number <= 0 ||
    (typeof value === 'string' && !/^\s*[0-9.eE+]+\s*$/.test(value))
  ) {
    throw new AssayError(
      'bad_limit',
      `--limit must be a positive count or a fraction below 1, got "${value}"`,
    );
  }
  if (number >= 1 && !Number.isInteger(number)) {
    throw new AssayError('bad_limit', `--limit must be a whole count when it is 1 or more, got "${value}"`);
  }
  return number;
}

export function sampleSize(total: number, limit: number | undefined): number {
  if (limit === undefined) return total;
  if (limit < 1) return Math.ceil(total * limit);
  return Math.min(total, Math.trunc(limit));
}
