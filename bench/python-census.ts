/**
 * Census of a task tree (lm-eval's `lm_eval/tasks`, or any): how many tasks load and plan through assay's
 * library with the Python bridge, and the first blocker of each of the rest, by cause.
 *
 *   node --import tsx bench/python-census.ts <task tree> [--python PATH] [--json FILE]
 *
 * "Load and plan" here is everything planning checks before it reads data: the YAML and its includes
 * parse, the config validates, metric and filter names resolve, and every `!function` resolves, a
 * utils.py one by importing its module in the interpreter and finding the function. (The data itself is
 * not read: the tree's datasets live on the Hugging Face Hub.)
 *
 * Blockers are split into those of the Python bridge (a module that imports a package the interpreter
 * lacks, a stand-in without the helper) and loader gaps that have nothing to do with Python (reported
 * with whether the task's Python functions would import once the gap is fixed).
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../src/errors.js';
import { collectPythonRefs, type PythonFunctionRef } from '../src/python/python-ref.js';
import { PythonRuntime } from '../src/python/python-runtime.js';
import { PythonCallError, type PythonFailure } from '../src/python/worker-process.js';
import { resolveFunctions } from '../src/tasks/function-ref.js';
import { buildTaskIndex } from '../src/tasks/index.js';
import { resolveTasks } from '../src/tasks/manager.js';
import { pythonRefsOf } from '../src/tasks/python-for-tasks.js';
import { cloneYaml, DeferredFunction, loadYaml } from '../src/tasks/yaml-loader.js';

/** Whether a raw config has a `!function` whose module is a .py file (no .ts/.js beside it). */
function hasPythonTag(node: unknown, root: string): boolean {
  if (node instanceof DeferredFunction) {
    const base = path.resolve(
      path.dirname(node.yamlFile),
      node.ref.slice(0, node.ref.lastIndexOf('.')).replaceAll('.', '/'),
    );
    return existsSync(`${base}.py`) && !['.ts', '.mts', '.js', '.mjs'].some((ext) => existsSync(base + ext));
  }
  if (Array.isArray(node)) return node.some((item) => hasPythonTag(item, root));
  if (node !== null && typeof node === 'object')
    return Object.values(node).some((item) => hasPythonTag(item, root));
  return false;
}

interface Outcome {
  task: string;
  ok: boolean;
  /** `python` (a blocker of the bridge), `loader` (a non-Python loader gap) or `unsupported`. */
  kind?: 'python' | 'loader' | 'unsupported';
  cause?: string;
  message?: string;
  /** For loader gaps: whether the task's utils.py functions import (null: it has none). */
  pythonImports?: boolean | null;
  usesPython: boolean;
  /** The Python modules the task's functions live in. */
  modules?: string[];
}

const args = process.argv.slice(2);
const tree = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
if (!tree) {
  process.stderr.write(
    'usage: node --import tsx bench/python-census.ts <task tree> [--python PATH] [--json FILE]\n',
  );
  process.exit(2);
}
const python = option('--python');
const jsonOut = option('--json');

const UNSUPPORTED = /^(custom_dataset|multimodal|promptsource|Python task classes)/;

function pythonCause(failure: PythonFailure): string {
  if (failure.needs) return `a function it names needs a missing package: ${failure.needs}`;
  const used = failure.message.match(/^(\S+) is not installed for /);
  if (used) return `module-level code uses a missing package: ${used[1]}`;
  if (failure.missing) {
    const missing = failure.missing;
    if (missing.startsWith('lm_eval')) return `lm_eval stand-in lacks ${missing}`;
    if (missing.startsWith('datasets.')) return `datasets stand-in lacks ${missing}`;
    if (failure.type === 'ModuleNotFoundError') return `imports a missing package: ${missing.split('.')[0]}`;
    return `ImportError: ${missing}`;
  }
  if (failure.type === 'ImportError' || failure.type === 'ModuleNotFoundError') {
    const match = failure.message.match(/^(\S+) is not available/);
    if (match) return `stand-in lacks ${match[1]}`;
    // The task module's own "please install ..." message for packages it needs.
    const packages = [...failure.message.matchAll(/`([^`]+)`/g)].map((found) => found[1]).slice(0, 3);
    return `the task module asks for packages${packages.length ? `: ${packages.join(', ')}` : ''}`;
  }
  if (failure.type === 'AttributeError' && /has no function/.test(failure.message)) {
    return 'the function is not in its module (lm-eval fails there too)';
  }
  return `${failure.type} at import`;
}

function loaderCause(error: AssayError): string {
  const message = error.message;
  if (error.code === 'yaml_syntax') return 'YAML the yaml package rejects';
  if (error.code === 'unknown_filter')
    return `unknown filter ${message.match(/unknown filter "?([^" ]+)/)?.[1] ?? ''}`;
  if (error.code === 'unknown_metric')
    return `unknown metric ${message.match(/metric "?([^" ,]+)/)?.[1] ?? ''}`;
  const invalid = message.match(/^invalid ([\w.]+): (.*)$/);
  if (invalid) return `invalid ${invalid[1].replace(/\.\d+/g, '.N')}: ${invalid[2].slice(0, 60)}`;
  const unknownField = message.match(/^unknown field "([^"]+)"/);
  if (unknownField) return `unknown field ${unknownField[1].replace(/\.\d+/g, '.N')}`;
  return `${error.code}: ${message.replace(/\/[^\s:]+/g, '<path>').slice(0, 80)}`;
}

function modulesOf(refs: PythonFunctionRef[]): string[] {
  return [
    ...new Set(refs.filter((ref) => !ref.hfEvaluate && !ref.registeredFilter).map((ref) => ref.module)),
  ];
}

async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`timed out after ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const root = path.resolve(tree as string);
  const index = await buildTaskIndex({ includePath: [root], builtinDir: false });
  const names = [...index.entries.values()]
    .filter((entry) => entry.kind === 'task')
    .map((entry) => entry.name);
  names.sort();
  let runtime = await PythonRuntime.start({ python });
  const info = runtime.describe();
  const bind = async (refs: PythonFunctionRef[]): Promise<Array<AssayError | undefined>> => {
    if (refs.length === 0) return [];
    try {
      return await withTimeout(runtime.tryBind(refs), 60_000, () => runtime.kill());
    } catch (error) {
      // A module that hangs or kills the worker: start a fresh one for the next task.
      runtime = await PythonRuntime.start({ python });
      return refs.map(
        () =>
          new AssayError('function_not_found', `import did not finish: ${(error as Error).message}`, {
            cause: new PythonCallError({
              type: 'Timeout',
              message: String(error),
              frame: null,
              traceback: '',
            }),
          }),
      );
    }
  };

  const outcomes: Outcome[] = [];
  for (const [count, name] of names.entries()) {
    if (count % 1000 === 0) process.stderr.write(`census: ${count}/${names.length}\n`);
    const entry = index.entries.get(name);
    // The index keeps a few keys of each file, not its config: read the task's YAML (includes merged) for the
    // failure path's questions (does it name Python functions, would they import).
    const rawConfig = async () =>
      entry?.path && entry.format === 'yaml'
        ? (await loadYaml(entry.path).catch(() => undefined))?.config
        : undefined;
    let nodes: Awaited<ReturnType<typeof resolveTasks>>;
    try {
      nodes = await resolveTasks([name], { index, builtinDir: false, python });
    } catch (error) {
      if (!(error instanceof AssayError)) throw error;
      const unsupported = UNSUPPORTED.test(error.message);
      const config = await rawConfig();
      const usesPython = hasPythonTag(config, root);
      // Would its Python functions import once the loader gap is fixed?
      let pythonImports: boolean | null = null;
      try {
        const resolved = await resolveFunctions(cloneYaml(config ?? {}));
        const refs = collectPythonRefs(resolved.value);
        if (refs.length) pythonImports = (await bind(refs)).every((failure) => failure === undefined);
      } catch {
        pythonImports = false;
      }
      outcomes.push({
        task: name,
        ok: false,
        kind: unsupported ? 'unsupported' : 'loader',
        cause: unsupported ? error.message.split(/[;:(]/)[0] : loaderCause(error),
        message: error.format(),
        pythonImports,
        usesPython: usesPython || pythonImports !== null,
      });
      continue;
    }
    const refs = pythonRefsOf(nodes);
    const failures = await bind(refs);
    const failed = failures.findIndex((failure) => failure !== undefined);
    if (failed < 0) {
      outcomes.push({ task: name, ok: true, usesPython: refs.length > 0, modules: modulesOf(refs) });
      continue;
    }
    const error = failures[failed] as AssayError;
    const ref = refs[failed];
    // An unknown filter no module registers, or an unknown metric evaluate lacks: a loader gap after all.
    if (error === ref.registeredFilter?.unknown || error === ref.hfEvaluate?.unavailable) {
      outcomes.push({
        task: name,
        ok: false,
        kind: 'loader',
        cause: loaderCause(error),
        message: error.format(),
        pythonImports: failures.every((failure, index) => failure === undefined || index === failed),
        usesPython: true,
      });
      continue;
    }
    const cause =
      error.cause instanceof PythonCallError ? pythonCause(error.cause.failure) : loaderCause(error);
    outcomes.push({
      task: name,
      ok: false,
      kind: 'python',
      cause,
      message: error.format(),
      usesPython: true,
      modules: modulesOf(refs),
    });
  }
  await runtime.close();
  // Files the index could not read (lm-eval reads them): each defines a task lm-eval has.
  for (const { file, error } of index.skipped) {
    outcomes.push({
      task: path.relative(root, file),
      ok: false,
      kind: 'loader',
      cause: `not indexed: ${loaderCause(error)}`,
      message: error.format(),
      pythonImports: null,
      usesPython: false,
    });
  }

  const total = outcomes.length;
  const loaded = outcomes.filter((outcome) => outcome.ok).length;
  const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  const lines: string[] = [];
  lines.push(`Task tree: ${root}`);
  lines.push(
    `Interpreter: ${info.path} (Python ${info.version}); datasets ${info.packages.datasets ?? 'absent'}, numpy ${info.packages.numpy ?? 'absent'}, lm_eval ${info.packages.lm_eval ?? 'absent'}; stand-ins: ${info.stand_ins.join(', ') || 'none'}`,
  );
  lines.push(`Tasks: ${total}; load and plan: ${loaded} (${pct(loaded)})`);
  const pythonTasks = outcomes.filter((outcome) => outcome.usesPython);
  lines.push(
    `Tasks naming a Python function: ${pythonTasks.length}; of those loaded: ${pythonTasks.filter((outcome) => outcome.ok).length}`,
  );
  for (const kind of ['python', 'loader', 'unsupported'] as const) {
    const failed = outcomes.filter((outcome) => outcome.kind === kind);
    const title =
      kind === 'python'
        ? 'Blocked in Python (the bridge)'
        : kind === 'loader'
          ? 'Fails on a non-Python loader gap'
          : 'Unsupported by design (not the bridge)';
    lines.push('', `${title}: ${failed.length} (${pct(failed.length)})`);
    if (kind === 'loader') {
      const fixable = failed.filter((outcome) => outcome.pythonImports !== false).length;
      lines.push(
        `  of which load once the gap is fixed, as far as Python goes (no Python, or its functions import): ${fixable}; with a Python blocker too: ${failed.length - fixable}`,
      );
    }
    const byCause = new Map<string, Outcome[]>();
    for (const outcome of failed)
      byCause.set(outcome.cause ?? '?', [...(byCause.get(outcome.cause ?? '?') ?? []), outcome]);
    for (const [cause, items] of [...byCause].sort((a, b) => b[1].length - a[1].length)) {
      const sample = items
        .slice(0, 3)
        .map((item) => item.task)
        .join(', ');
      lines.push(`  ${String(items.length).padStart(5)}  ${cause}  (e.g. ${sample})`);
    }
  }
  lines.push('', `Census took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ interpreter: info, outcomes }, null, 1));
}

await main();
