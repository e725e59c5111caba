import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function tempDir(prefix = 'assay-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `name` (a path relative to `dir`, its folders created) and returns the file's path. */
export async function writeIn(dir: string, name: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

export function findOne(directory: string, pattern: RegExp): string {
  const matches = readdirSync(directory).filter((name) => pattern.test(name));
  if (matches.length !== 1)
    throw new Error(`expected one file matching ${pattern} in ${directory}, found ${matches.join(', ')}`);
  return path.join(directory, matches[0]);
}

export function readJson<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function readJsonl<T = Record<string, unknown>>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

export function sampleStderr(values: number[]): number {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance) / Math.sqrt(n);
}

const TIMES = new Set(['seconds', 'mean_ms', 'p50_ms', 'p95_ms']);

/** A results or leaderboard value without its wall times (request counts and every score stay). */
export function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !TIMES.has(key))
      .map(([key, inner]) => [key, withoutTimes(inner)]),
  );
}

/**
 * A multiple-choice task over local JSONL files (`test` and train.jsonl in its folder), the question as
 * the prompt; `extra` adds its choices, target, few-shot settings and metrics, one YAML line each.
 */
export function jsonMultipleChoiceTask(name: string, test: string, extra: readonly string[]): string {
  return [
    `task: ${name}`,
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    `    test: ${test}`,
    '    train: train.jsonl',
    'test_split: test',
    'output_type: multiple_choice',
    'doc_to_text: "{{question}}\\nAnswer:"',
    ...extra,
    '',
  ].join('\n');
}
