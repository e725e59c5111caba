/**
 * The real CLI (bin/assay.js over the built dist/, as a user runs it) in a child process. Every test that
 * starts the CLI goes through here, and only those files are named `*.e2e.test.ts`
 * (test/house-rules/e2e-naming.ts holds that rule). `runCli` blocks; `startCli` and `runCliAsync` do not,
 * so a loopback server in the test's own process can answer the CLI. The CLI's `main()` in this process,
 * for what a command prints and returns, is cli-in-process.ts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './helpers.js';

export const bin = path.join(repoRoot, 'bin', 'assay.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The working folder (default: the repository). */
  cwd?: string;
  /** Variables added to (or, as `undefined`, removed from) this process's environment. */
  env?: Record<string, string | undefined>;
}

function environment(env: CliOptions['env'] = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
  return merged;
}

/** Runs the CLI to its end, blocking this process. */
export function runCli(args: string[], options: CliOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: environment(options.env),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the CLI without blocking: the child (to signal it) and its outcome once it closes. */
export function startCli(
  args: string[],
  options: CliOptions = {},
): { child: ChildProcess; done: Promise<{ status: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: environment(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
  return { child, done };
}

/** runCli without blocking the test's process: a loopback server in the test can answer the CLI. */
export function runCliAsync(
  args: string[],
  options: CliOptions = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return startCli(args, options).done;
}

/** `assay view ARGS --port 0` as a child process, resolved once it prints the address it serves. */
export interface View {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

export function startView(args: string[]): Promise<View> {
  const child = spawn(process.execPath, [bin, 'view', ...args, '--port', '0'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /at (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1], stderr: () => err });
    });
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString();
    });
    child.on('exit', (code) => reject(new Error(`assay view exited ${code}: ${err}`)));
  });
}
