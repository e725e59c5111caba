/**
 * The sandbox's Python files (python-sources.ts): each one the sandbox names exists beside it, and none
 * enters the sandbox as a file. The command lines carry their text, and a program inside can neither
 * read the checker's file (unless the package sits under a read-only system mount) nor change it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import { interpreterArgs, probeSandbox } from './bubblewrap.js';
import { memoryPlan } from './memory.js';
import { SANDBOX_PYTHON, type SandboxPython, sandboxPython, sandboxPythonPath } from './python-sources.js';
import { CodeSandbox, sandboxOptions } from './sandbox.js';

const names = Object.keys(SANDBOX_PYTHON) as SandboxPython[];
const folder = path.dirname(sandboxPythonPath('checker'));

describe('the sandbox Python files', () => {
  it('are the .py files beside python-sources.ts, every one named', () => {
    const here = path.dirname(new URL(import.meta.url).pathname);
    expect(folder).toBe(here);
    const files = readdirSync(here).filter((file) => file.endsWith('.py'));
    expect(files.sort()).toEqual(names.map((name) => `${name}.py`).sort());
    for (const name of names) expect(sandboxPython(name)).toBe(readFileSync(sandboxPythonPath(name), 'utf8'));
  });

  it('go into the sandbox as text on the command line, never as a path', () => {
    const options = sandboxOptions();
    const memory = memoryPlan(options.limits, 'rlimit_as');
    const check = interpreterArgs({ kind: 'check', language: 'python', checkerBytes: 10 }, options, memory);
    const io = interpreterArgs({ kind: 'io', language: 'python' }, options, memory);
    expect(check.slice(1, 6)).toEqual(['-I', '-S', '-B', '-c', sandboxPython('checker_bootstrap')]);
    expect(io.slice(1)).toEqual(['-I', '-S', '-B', '-c', sandboxPython('io_runner')]);
    for (const arg of [...check, ...io]) expect(arg).not.toContain(folder);
  });
});

const bubblewrap = requireComponent('bubblewrap', probeSandbox(sandboxOptions()).available);

describe.skipIf(!bubblewrap)('a program in the sandbox', () => {
  it("can neither change nor (outside /usr) read the checker's file", async () => {
    const file = sandboxPythonPath('checker');
    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = digest();
    const sandbox = CodeSandbox.create({ limits: { timeoutMs: 5000, cpuSeconds: 2 }, workers: 1 });
    const source = [
      `path = ${JSON.stringify(file)}`,
      'try:',
      '    open(path).read()',
      '    print("read")',
      'except OSError as error:',
      '    print("not read:", type(error).__name__)',
      'try:',
      '    with open(path, "a") as out:',
      '        out.write("# changed")',
      '    print("written")',
      'except OSError as error:',
      '    print("not written:", type(error).__name__)',
    ].join('\n');
    const run = await sandbox.run({ language: 'python', source }).finally(() => sandbox.close());
    // A package under /usr is seen through the sandbox's read-only /usr; anywhere else it is not there.
    const underUsr = file.startsWith('/usr/');
    expect(run.stdout).toBe(
      underUsr
        ? 'read\nnot written: OSError\n'
        : 'not read: FileNotFoundError\nnot written: FileNotFoundError\n',
    );
    expect(digest()).toBe(before);
  });
});
