/**
 * The sandbox's Python, kept as files of the package (src/sandbox/*.py, shipped by package.json `files`;
 * the dist/ build reads them from src/ too) and read here, on the host. None of them enters the sandbox
 * as a file: the bootstrap and the I/O runner go in as `python -c` text, the checker as bytecode on its
 * stdin (check.ts), so what runs inside is what the host read, whatever the sandbox's mounts hold. Each
 * file's header says what it does; checker.py argues why no program can forge its verdict.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../util/package-root.js';

/** Each file, by its name without `.py`. */
export const SANDBOX_PYTHON = {
  /** The trusted checker of HumanEval/MBPP-style programs, compiled on the host. */
  checker: 'in the sandbox, as bytecode',
  /** Reads the checker's bytecode from stdin and runs it. */
  checker_bootstrap: 'in the sandbox, as python -c',
  /** Compiles the checker to marshalled bytecode. */
  checker_compile: 'on the host',
  /** Calls f on each input of a JSONL code_exec check. */
  io_runner: 'in the sandbox, as python -c',
  /** Lists the interpreter's site- and dist-packages folders. */
  site_dirs: 'on the host',
} as const;

export type SandboxPython = keyof typeof SANDBOX_PYTHON;

const folder = packagePath('src', 'sandbox');
const sources = new Map<SandboxPython, string>();

export function sandboxPythonPath(name: SandboxPython): string {
  return path.join(folder, `${name}.py`);
}

/** The file's text, read once per process. */
export function sandboxPython(name: SandboxPython): string {
  let source = sources.get(name);
  if (source === undefined) {
    const file = sandboxPythonPath(name);
    try {
      source = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(`assay's sandbox cannot read its Python ${file} (an incomplete install?)`, {
        cause: error,
      });
    }
    sources.set(name, source);
  }
  return source;
}
