/**
 * The sandbox's Python, kept as files of the package (src/sandbox/*.py, shipped by package.json `files`;
 * the dist/ build reads them from src/ too) and read here, on the host. None of them enters the sandbox
 * as a file: the bootstrap and the I/O runner go in as `python -c` text, the checker as bytecode on its
 * stdin (check.ts), so what runs inside is what the host read, whatever the sandbox's mounts hold. Each
 * file's header says what it does; checker.py argues why no program can forge its verdict.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type SandboxPython =
  /** The trusted checker of HumanEval/MBPP-style programs, compiled on the host. */
  | 'checker'
  /** Reads the checker's bytecode from stdin and runs it (`python -c`, in the sandbox). */
  | 'checker_bootstrap'
  /** Compiles the checker to marshalled bytecode (on the host). */
  | 'checker_compile'
  /** Calls f on each input of a JSONL code_exec check (`python -c`, in the sandbox). */
  | 'io_runner'
  /** Lists the interpreter's site- and dist-packages folders (on the host). */
  | 'site_dirs';

const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'sandbox');
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
      throw new Error(`assay's sandbox cannot read its Python ${file} (an incomplete install?)`, { cause: error });
    }
    sources.set(name, source);
  }
  return source;
}
