/**
 * Which Python runs task code: `--python PATH`, else the ASSAY_PYTHON environment variable, else
 * `python3` on PATH. Nothing is started here; a missing interpreter is reported only when a task needs one.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export type InterpreterSource = 'python' | 'ASSAY_PYTHON' | 'PATH';

export type InterpreterChoice =
  | { found: true; path: string; source: InterpreterSource }
  | { found: false; reason: string; source: InterpreterSource };

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function searchPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function lookUp(given: string, source: InterpreterSource, env: NodeJS.ProcessEnv): InterpreterChoice {
  const label = source === 'python' ? `\`python\` ${given}` : `ASSAY_PYTHON=${given}`;
  if (given.includes('/') || given.includes(path.sep)) {
    const resolved = path.resolve(given);
    return isExecutable(resolved)
      ? { found: true, path: resolved, source }
      : { found: false, reason: `${label}: no executable file there`, source };
  }
  const found = searchPath(given, env);
  return found
    ? { found: true, path: found, source }
    : { found: false, reason: `${label}: not found on PATH`, source };
}

export function chooseInterpreter(option?: string, env: NodeJS.ProcessEnv = process.env): InterpreterChoice {
  if (option) return lookUp(option, 'python', env);
  if (env.ASSAY_PYTHON) return lookUp(env.ASSAY_PYTHON, 'ASSAY_PYTHON', env);
  const found = searchPath('python3', env);
  return found
    ? { found: true, path: found, source: 'PATH' }
    : { found: false, reason: 'no python3 on PATH', source: 'PATH' };
}

/** How to give assay an interpreter, for error messages. */
export const INTERPRETER_HINT = 'install Python 3, or pass `python` PATH (or set ASSAY_PYTHON)';

const evaluateByInterpreter = new Map<string, boolean>();

/**
 * Whether the interpreter can import Hugging Face `evaluate` (checked once per interpreter and process,
 * only when a task names a metric assay does not know).
 */
export function hfEvaluateImportable(option?: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const choice = chooseInterpreter(option, env);
  if (!choice.found) return false;
  let known = evaluateByInterpreter.get(choice.path);
  if (known === undefined) {
    const probe = spawnSync(
      choice.path,
      ['-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("evaluate") else 1)'],
      { stdio: 'ignore', timeout: 10_000 },
    );
    known = probe.status === 0;
    evaluateByInterpreter.set(choice.path, known);
  }
  return known;
}
