/**
 * Parse functions for `assay run`'s flags whose text has a syntax of its own (lm-eval's): --limit,
 * --seed, --samples, --shard, the code-execution limits, --metadata, --verbosity, --cache_requests,
 * --expect_sha256.
 */
import { readFileSync } from 'node:fs';
import { AssayError } from '../errors.js';
import type { Limit } from '../evaluate/limit.js';
import type { Seeds } from '../evaluate/seeds.js';
import { DEFAULT_SEEDS } from '../evaluate/seeds.js';
import type { Shard } from '../evaluate/shard.js';
import type { Parse } from './flag-values.js';
import { shardFromScheduler } from './scheduler-shard.js';

function bad(message: string, cause?: unknown): AssayError {
  return new AssayError('bad_option', message, cause === undefined ? {} : { cause });
}

/**
 * lm-eval's --limit is a float: below 1.0 a fraction of each task, otherwise a count (so `--limit 1.0`
 * means one doc).
 */
export const limitFlag: Parse<Limit> = (raw, flag) => {
  const shown = String(raw).trim();
  const value = typeof raw === 'number' ? raw : Number(shown);
  if (!/^[0-9.eE+]+$/.test(shown) || !Number.isFinite(value) || value <= 0)
    throw bad(`${flag} must be a positive count or a fraction below 1, got "${shown}"`);
  if (value < 1) return { fraction: value };
  if (!Number.isInteger(value))
    throw bad(`${flag} must be a whole count when it is 1 or more, got "${shown}"`);
  return value;
};

/**
 * lm-eval's --seed: `python,numpy,torch,fewshot`; one value sets all four, three take the fourth from
 * the defaults, `None` leaves that one unseeded.
 */
export const seedFlag: Parse<Seeds> = (raw, flag) => {
  const parts = String(raw)
    .split(',')
    .map((part) => part.trim());
  const parsed = parts.map((part) => {
    if (part === 'None' || part === 'none') return null;
    if (!/^-?\d+$/.test(part)) throw bad(`${flag}: "${part}" is not an integer or None`);
    return Number.parseInt(part, 10);
  });
  let values: Array<number | null>;
  if (parsed.length === 1) values = [parsed[0], parsed[0], parsed[0], parsed[0]];
  else if (parsed.length === 3) values = [...parsed, DEFAULT_SEEDS.fewshot];
  else if (parsed.length === 4) values = parsed;
  else throw bad(`${flag} takes 1, 3 or 4 comma-separated values, got ${parsed.length}`);
  return { random: values[0], numpy: values[1], torch: values[2], fewshot: values[3] };
};

/** lm-eval's --samples: a JSON object `{"task": [doc ids]}`, or a JSON file holding one. */
export const samplesFlag: Parse<Record<string, number[]>> = (raw, flag) => {
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    let text = raw.trim();
    if (!text.startsWith('{')) {
      try {
        text = readFileSync(raw, 'utf8');
      } catch (error) {
        throw bad(`${flag}: "${raw}" is neither a JSON object nor a readable file`, error);
      }
    }
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw bad(`${flag}: ${(error as Error).message}`, error);
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw bad(`${flag}: expected an object`);
  for (const [task, ids] of Object.entries(parsed)) {
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id)))
      throw bad(`${flag}: task ${task} must map to a list of integer doc ids`);
  }
  return parsed as Record<string, number[]>;
};

/** `--shard i/N`, or `auto` / `auto/N`: i and N from the scheduler's environment (scheduler-shard.ts). */
export function shardFlag(env: NodeJS.ProcessEnv = process.env): Parse<Shard> {
  return (raw, flag) => {
    const value = String(raw);
    const auto = /^\s*auto\s*(?:\/\s*(\d+)\s*)?$/.exec(value);
    if (auto) {
      const { index, count, source } = shardFromScheduler(
        env,
        auto[1] === undefined ? undefined : Number(auto[1]),
      );
      return checked(flag, { index, count }, `${value.trim()} (${index}/${count} from ${source})`);
    }
    const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
    if (!match) throw bad(`${flag} must be i/N (e.g. 0/4), auto or auto/N, got "${value}"`);
    return checked(flag, { index: Number(match[1]), count: Number(match[2]) }, value);
  };
}

function checked(flag: string, shard: Shard, shown: string): Shard {
  if (shard.count < 1) throw bad(`${flag} ${shown}: N must be at least 1`);
  if (shard.index >= shard.count)
    throw bad(`${flag} ${shown}: i must be between 0 and ${shard.count - 1} (shards are numbered from 0)`);
  return shard;
}

/**
 * --code_timeout in seconds: the wall clock in milliseconds (the options' schema takes the CPU limit
 * from it, rounded up to whole seconds).
 */
export const codeTimeoutFlag: Parse<number> = (raw, flag) => {
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw bad(`${flag} must be a positive number of seconds, got "${raw}"`);
  return Math.ceil(seconds * 1000);
};

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** --code_memory: bytes, or a number with a binary unit (512M, 2G, 1.5GiB). */
export const codeMemoryFlag: Parse<number> = (raw, flag) => {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(raw).trim());
  const bytes = match ? Math.floor(Number(match[1]) * SIZE_UNITS[match[2].toLowerCase()]) : Number.NaN;
  if (!Number.isFinite(bytes) || bytes <= 0)
    throw bad(`${flag} must be a size such as 2G, 1536M or a number of bytes, got "${raw}"`);
  return bytes;
};

/** lm-eval's --metadata: a JSON object (json.loads in lm-eval's CLI), or a --config mapping. */
export const metadataFlag: Parse<Record<string, unknown>> = (raw, flag) => {
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw bad(
        `${flag} must be a JSON object such as '{"max_seq_lengths": [4096]}': ${(error as Error).message}`,
        error,
      );
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw bad(`${flag} must be a JSON object`);
  return parsed as Record<string, unknown>;
};

/** `--apply_chat_template [name]`: bare → true, a value → that template. */
export const chatTemplateFlag: Parse<boolean | string> = (raw) =>
  raw === true || raw === false ? raw : String(raw);

/** Python's logging levels, as lm-eval's --verbosity (upper-cased). */
export const VERBOSITY_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export type Verbosity = (typeof VERBOSITY_LEVELS)[number];

export const verbosityFlag: Parse<Verbosity> = (raw, flag) => {
  const level = String(raw).trim().toUpperCase();
  if (!(VERBOSITY_LEVELS as readonly string[]).includes(level))
    throw bad(`${flag} must be one of ${VERBOSITY_LEVELS.join(', ')}, got "${raw}"`);
  return level as Verbosity;
};

/**
 * lm-eval's `--cache_requests [true|refresh|delete]` caches the Instances it builds. assay's requests
 * are built in milliseconds from the task and its docs, so there is nothing worth caching: the flag is
 * accepted, checked and does nothing (docs/lm-eval.md).
 */
export type CacheRequests = 'true' | 'refresh' | 'delete' | 'false';

export const cacheRequestsFlag: Parse<CacheRequests> = (raw, flag) => {
  const value = raw === true ? 'true' : raw === false ? 'false' : String(raw).trim().toLowerCase();
  if (!['true', 'refresh', 'delete', 'false'].includes(value))
    throw bad(`${flag} takes true, refresh or delete, got "${raw}"`);
  return value as CacheRequests;
};

/**
 * `--expect_sha256`: `task=SHA256,task2=SHA256`, the path of a JSON file holding `{"task": "sha256"}`,
 * or a --config mapping. The values are checked (64 hex digits, tasks of the run) by the library.
 */
export const pinsFlag: Parse<Record<string, string>> = (raw, flag) => {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, string>;
  const shown = (Array.isArray(raw) ? raw.map(String).join(',') : String(raw)).trim();
  if (shown.includes('=')) {
    const pins: Record<string, string> = {};
    for (const item of shown.split(',').map((part) => part.trim())) {
      if (item === '') continue;
      const at = item.lastIndexOf('=');
      const task = item.slice(0, at).trim();
      if (at <= 0 || task === '') throw bad(`${flag}: expected task=SHA256, got "${item}"`);
      pins[task] = item.slice(at + 1).trim();
    }
    return pins;
  }
  let json: string;
  try {
    json = readFileSync(shown, 'utf8');
  } catch (error) {
    throw bad(
      `${flag}: "${shown}" is neither task=SHA256,… nor a readable pin file (${(error as Error).message})`,
      error,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new AssayError('bad_option', `${flag}: pin file is not JSON: ${(error as Error).message}`, {
      location: { file: shown },
      cause: error,
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AssayError('bad_option', `${flag}: a pin file holds {"task": "sha256", …}`, {
      location: { file: shown },
    });
  }
  return parsed as Record<string, string>;
};
