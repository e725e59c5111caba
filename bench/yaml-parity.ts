/**
 * Checks that assay's YAML loader gives every file of a task tree the value PyYAML gives it (lm-eval
 * reads task files with PyYAML: CSafeLoader when libyaml is present, else FullLoader). Every file is
 * compared, not a sample: PyYAML dumps each value as JSON (`!function x` as {"!function": "x"}), and
 * assay's value, normalised the same way, must be deeply equal. Both PyYAML loaders are run when
 * libyaml is available, and must agree with each other too.
 *
 *   npx tsx bench/yaml-parity.ts <task-tree> [--python python3]
 *
 * Exit 0 when every file matches, 1 otherwise (each difference is printed), 2 on bad arguments or when
 * PyYAML cannot be imported.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DeferredFunction, parseYamlText } from '../src/tasks/yaml-loader.js';

// Dumps every .yaml/.yml file under the tree, one JSON line per file, in sorted path order.
const DUMP = `
import json, os, sys, yaml
root, which = sys.argv[1], sys.argv[2]
Base = yaml.CSafeLoader if which == 'csafe' else yaml.FullLoader
class Loader(Base): pass
yaml.add_constructor('!function', lambda loader, node: {'!function': loader.construct_scalar(node)}, Loader=Loader)
def norm(value):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(key, bool): key = 'true' if key else 'false'
            elif key is None: key = 'null'
            elif not isinstance(key, str): key = '!key:' + repr(key)
            out[key] = norm(item)
        return out
    if isinstance(value, (list, tuple)): return [norm(item) for item in value]
    if isinstance(value, float) and (value != value or value in (float('inf'), float('-inf'))): return {'!float': repr(value)}
    if isinstance(value, (str, int, float, bool)) or value is None: return value
    return {'!python': type(value).__name__, 'repr': repr(value)}
files = []
for folder, dirs, names in os.walk(root):
    dirs[:] = [d for d in dirs if d not in ('__pycache__', '.ipynb_checkpoints')]
    files += [os.path.join(folder, n) for n in names if n.endswith(('.yaml', '.yml'))]
for file in sorted(files):
    try:
        with open(file, 'rb') as handle: line = {'file': file, 'value': norm(yaml.load(handle, Loader=Loader))}
    except Exception as error:
        line = {'file': file, 'error': type(error).__name__ + ': ' + str(error).splitlines()[0]}
    print(json.dumps(line, ensure_ascii=False))
`;

interface DumpLine {
  file: string;
  value?: unknown;
  error?: string;
}

function pyyamlDump(python: string, root: string, loader: 'csafe' | 'full'): DumpLine[] | undefined {
  const result = spawnSync(python, ['-c', DUMP, root, loader], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) {
    if (loader === 'csafe' && /CSafeLoader/.test(result.stderr)) return undefined;
    throw new Error(`PyYAML dump failed: ${result.stderr || result.error}`);
  }
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as DumpLine);
}

function normalise(value: unknown): unknown {
  if (value instanceof DeferredFunction) return { '!function': value.ref };
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return { '!float': Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf' };
  }
  if (value !== null && typeof value === 'object') {
    if (value instanceof Date || value instanceof Uint8Array || value instanceof Set) {
      return { '!js': value.constructor.name };
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalise(item)]));
  }
  return value;
}

function main(): number {
  const args = process.argv.slice(2);
  const pythonFlag = args.indexOf('--python');
  const python = pythonFlag >= 0 ? args.splice(pythonFlag, 2)[1] : process.env.ASSAY_PYTHON || 'python3';
  const [root] = args;
  if (!root || !statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write('usage: tsx bench/yaml-parity.ts <task-tree> [--python python3]\n');
    return 2;
  }
  const probe = spawnSync(python, ['-c', 'import yaml; print(yaml.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    process.stderr.write(`yaml-parity: ${python} cannot import yaml (PyYAML)\n`);
    return 2;
  }
  const full = pyyamlDump(python, path.resolve(root), 'full') as DumpLine[];
  const csafe = pyyamlDump(python, path.resolve(root), 'csafe');
  let loaderDifferences = 0;
  if (csafe) {
    for (const [index, line] of csafe.entries()) {
      if (!isDeepStrictEqual(line, full[index])) {
        loaderDifferences++;
        process.stdout.write(`PyYAML CSafeLoader and FullLoader differ on ${line.file}\n`);
      }
    }
  }
  let same = 0;
  let bothReject = 0;
  const differences: string[] = [];
  for (const line of full) {
    let value: unknown;
    let error: string | undefined;
    try {
      value = normalise(parseYamlText(readFileSync(line.file, 'utf8'), line.file));
    } catch (thrown) {
      error = (thrown as Error).message;
    }
    if (line.error !== undefined) {
      if (error !== undefined) bothReject++;
      else differences.push(`${line.file}: PyYAML rejects it (${line.error}), assay reads it`);
    } else if (error !== undefined) {
      differences.push(`${line.file}: assay rejects it (${error}), PyYAML reads it`);
    } else if (isDeepStrictEqual(value, line.value)) {
      same++;
    } else {
      differences.push(
        `${line.file}: values differ\n  PyYAML ${JSON.stringify(line.value).slice(0, 300)}\n  assay  ${JSON.stringify(value).slice(0, 300)}`,
      );
    }
  }
  for (const difference of differences) process.stdout.write(`${difference}\n`);
  process.stdout.write(
    `${full.length} files: ${same} equal to PyYAML's value, ${bothReject} rejected by both, ${differences.length} different` +
      `${csafe ? `; PyYAML's CSafeLoader and FullLoader differ on ${loaderDifferences}` : '; libyaml absent (FullLoader only)'}\n`,
  );
  return differences.length === 0 && loaderDifferences === 0 ? 0 : 1;
}

process.exitCode = main();
