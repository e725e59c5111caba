/** Flag value parsing shared by the commands. */
import { readFileSync } from 'node:fs';
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

/** A positive number of seconds (latency caps, timeouts). */
export function secondsFlag(value: unknown, flag: string): number | undefined {
  const parsed = numberFlag(value, flag);
  if (parsed !== undefined && !(parsed > 0))
    throw new AssayError('bad_argument', `${flag} must be a positive number of seconds, got ${parsed}`);
  return parsed;
}

/**
 * `--expect_sha256`: `task=SHA256,task2=SHA256`, or the path of a JSON file holding `{"task": "sha256"}`.
 * The values are checked (64 hex digits, tasks of the run) by the library.
 */
export function pinsFlag(value: unknown, flag = '--expect_sha256'): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, string>;
  const text = String(value).trim();
  if (text.includes('=')) {
    const pins: Record<string, string> = {};
    for (const item of splitList(text) ?? []) {
      const at = item.lastIndexOf('=');
      const task = item.slice(0, at).trim();
      if (at <= 0 || task === '')
        throw new AssayError('bad_argument', `${flag}: expected task=SHA256, got "${item}"`);
      pins[task] = item.slice(at + 1).trim();
    }
    return pins;
  }
  let json: string;
  try {
    json = readFileSync(text, 'utf8');
  } catch (error) {
    throw new AssayError(
      'bad_argument',
      `${flag}: "${text}" is neither task=SHA256,… nor a readable pin file (${(error as Error).message})`,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new AssayError('bad_argument', `${flag}: pin file is not JSON: ${(error as Error).message}`, {
      location: { file: text },
      cause: error,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AssayError('bad_argument', `${flag}: a pin file holds {"task": "sha256", …}`, {
      location: { file: text },
    });
  }
  return parsed as Record<string, string>;
}
