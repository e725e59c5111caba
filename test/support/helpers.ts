import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.join(repoRoot, 'bin', 'assay.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (the built dist/, as a user would) in a child process. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** runCli without blocking the test's process: a loopback server in the test can answer the CLI. */
export function runCliAsync(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

export function tempDir(prefix = 'assay-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
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
