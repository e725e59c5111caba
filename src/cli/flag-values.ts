/** Flag value parsing shared by the statistics commands (compare, gate, power). */
import { AssayError } from '../errors.js';

export function splitList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : [String(value)];
  const out = items
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
  return out.length ? out : undefined;
}

export function numberFlag(value: unknown, flag: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  const parsed = Number(text);
  if (text === '' || !Number.isFinite(parsed))
    throw new AssayError('bad_argument', `${flag} must be a number, got "${text}"`);
  return parsed;
}

/** A number strictly between 0 and 1 (levels, powers, accuracies). */
export function probabilityFlag(value: unknown, flag: string): number | undefined {
  const parsed = numberFlag(value, flag);
  if (parsed !== undefined && !(parsed > 0 && parsed < 1))
    throw new AssayError('bad_argument', `${flag} must be between 0 and 1, got ${parsed}`);
  return parsed;
}
