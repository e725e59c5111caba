/**
 * Parse functions for the option tables: command-line text (or a --config YAML value, which may already
 * be a number, a boolean, a list or a mapping) to a typed value. Each throws `bad_option` naming the flag.
 */
import { AssayError } from '../errors.js';
import { parseKeyValueArgs } from './key-value-args.js';

export type Parse<T> = (raw: unknown, flag: string) => T;

function bad(message: string): AssayError {
  return new AssayError('bad_option', message);
}

export const text: Parse<string> = (raw) => String(raw);

/** Comma-separated, repeated (`--tasks a b`) or a YAML list; empty items dropped. */
export const list: Parse<string[]> = (raw) =>
  (Array.isArray(raw) ? raw.map(String) : [String(raw)])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);

/** `list`, or undefined when nothing is given. */
export function splitList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = list(value, '');
  return items.length ? items : undefined;
}

export const number: Parse<number> = (raw, flag) => {
  const shown = String(raw).trim();
  const parsed = typeof raw === 'number' ? raw : Number(shown);
  if (shown === '' || !Number.isFinite(parsed)) throw bad(`${flag} must be a number, got "${shown}"`);
  return parsed;
};

/** A number strictly between 0 and 1 (levels, powers, accuracies). */
export const probability: Parse<number> = (raw, flag) => {
  const parsed = number(raw, flag);
  if (!(parsed > 0 && parsed < 1)) throw bad(`${flag} must be between 0 and 1, got ${parsed}`);
  return parsed;
};

/** A whole number of at least `min`. */
export function integer(min = 0): Parse<number> {
  return (raw, flag) => {
    const shown = String(raw).trim();
    if (!/^-?\d+$/.test(shown) || Number(shown) < min) {
      throw bad(
        min === 0
          ? `${flag} must be a non-negative integer, got "${shown}"`
          : `${flag} must be an integer ≥ ${min}, got "${shown}"`,
      );
    }
    return Number.parseInt(shown, 10);
  };
}

/** A TCP port; 0 picks a free one. */
export const port: Parse<number> = (raw, flag) => {
  const shown = String(raw).trim();
  if (!/^\d+$/.test(shown) || Number(shown) > 65535) throw bad(`${flag} must be 0-65535, got "${shown}"`);
  return Number(shown);
};

export function choice<const T extends readonly string[]>(values: T): Parse<T[number]> {
  return (raw, flag) => {
    const value = String(raw);
    if (!values.includes(value)) {
      const options = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
      throw bad(`${flag} must be ${options}, got "${value}"`);
    }
    return value as T[number];
  };
}

/** A switch, or `--flag true|false` (lm-eval's `[bool]` flags; a YAML boolean). */
export const switchFlag: Parse<boolean> = (raw, flag) => {
  if (raw === true || raw === false) return raw;
  const value = String(raw).toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no'].includes(value)) return false;
  throw bad(`${flag} expects true or false, got "${raw}"`);
};

/** `k=v,k2=v2` or a JSON object (lm-eval's MergeDictAction), or a --config YAML mapping. */
export const keyValues: Parse<Record<string, unknown>> = (raw, flag) => {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  return parseKeyValueArgs(Array.isArray(raw) ? raw.map(String).join(',') : String(raw), flag);
};

/** A flag that only exists to refuse it, with what to do instead. */
export function refused(reason: (flag: string) => string): Parse<never> {
  return (_raw, flag) => {
    throw new AssayError('not_supported', reason(flag));
  };
}

/** A positive number of seconds (latency caps, timeouts). */
export const seconds: Parse<number> = (raw, flag) => {
  const parsed = number(raw, flag);
  if (!(parsed > 0)) throw bad(`${flag} must be a positive number of seconds, got ${parsed}`);
  return parsed;
};
