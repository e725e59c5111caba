/**
 * The CLI's own `main()` in this process, its stdout, stderr and exit code captured as `runCli` returns
 * them. A child process costs about 1 CPU s (Node's start and dist's imports); this one imports the CLI
 * once per test file. For tests of what a command prints and returns, where the process boundary adds
 * nothing; each command keeps one real child-process run (`runCli` in test/support/cli.ts), which is what
 * tests bin/assay.js and dist/.
 */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliResult } from './cli.js';

export async function runCliInProcess(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof process.stdout.write;
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture((text) => (stdout += text)));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture((text) => (stderr += text)));
  const previous = process.exitCode;
  process.exitCode = undefined;
  try {
    await main(args);
    return { status: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = previous;
  }
}
