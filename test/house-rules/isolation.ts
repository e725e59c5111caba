/**
 * The rule behind vitest.config.ts's `isolated` list. Test files run several to a process there
 * (`isolate: false`), one after another, so what one file changes in the process and leaves changed, the
 * next file runs under. A test file that does one of the things below, itself or in a helper under test/
 * that it imports, is listed in `isolated` (or `timed`, whose files run isolated): it gets a process of its
 * own. Four of them count as undone when the file (or the helper) also makes the call that undoes them:
 * fake timers and `vi.useRealTimers()`, `vi.stubGlobal`/`vi.stubEnv` and `vi.unstubAllGlobals()`/
 * `vi.unstubAllEnvs()`, a spy and its `mockRestore()` or `vi.restoreAllMocks()`, a backend registered with
 * `registerBackend` and `unregisterBackend` (a backend left registered shows in every later file's `--help`
 * and backend list). A process.env write, a
 * chdir, a module mock or a process signal handler always needs isolation: restoring one in a `finally`
 * still leaves it changed while a test that timed out waits, and the next file has started by then.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { blankComments, lineOf, type SourceFile, type TestSource } from './test-sources.js';

interface Leak {
  what: string;
  pattern: RegExp;
  /** A call in the same file that undoes it (given what the leak's pattern matched). */
  undoneBy?: RegExp | ((match: RegExpExecArray) => RegExp);
  /** What to do instead of isolating the file. */
  instead: string;
}

const LEAKS: Leak[] = [
  {
    what: 'writes process.env',
    pattern:
      /process\.env(?:\.[\w$]+|\[[^\]]+\])?\s*(?:=(?!=)|\?\?=|\|\|=)|delete\s+process\.env\b|Object\.assign\(\s*process\.env\b/,
    instead: "give the variable to the child process instead (spawn's `env` option, runCli's `env`)",
  },
  {
    what: 'calls process.chdir',
    pattern: /process\.chdir\(/,
    instead: "use absolute paths, or the child process's `cwd` option",
  },
  {
    what: 'mocks a module (vi.mock / vi.doMock)',
    pattern: /\bvi\.(?:do)?[mM]ock\(/,
    instead: 'pass the fake in through a parameter (a backend, a server on a loopback port)',
  },
  {
    what: 'registers a process signal or exit handler',
    pattern:
      /process\.(?:on|once|addListener|prependListener|prependOnceListener)\(\s*['"](?:SIG\w+|exit|beforeExit|uncaughtException|unhandledRejection)['"]/,
    instead: 'send the signal to a child process that the test starts',
  },
  {
    what: 'installs fake timers',
    pattern: /\bvi\.useFakeTimers\(/,
    undoneBy: /\bvi\.useRealTimers\(/,
    instead: 'call vi.useRealTimers() in an afterEach (or a finally)',
  },
  {
    what: 'stubs a global (vi.stubGlobal)',
    pattern: /\bvi\.stubGlobal\(/,
    undoneBy: /\bvi\.unstubAllGlobals\(/,
    instead: 'call vi.unstubAllGlobals() in an afterEach',
  },
  {
    what: 'stubs an environment variable (vi.stubEnv)',
    pattern: /\bvi\.stubEnv\(/,
    undoneBy: /\bvi\.unstubAllEnvs\(/,
    instead: 'call vi.unstubAllEnvs() in an afterEach',
  },
  {
    what: "registers a backend in the process's registry (registerBackend)",
    // Each name registered is unregistered: `registerBackend('x', …)` needs `unregisterBackend('x')`. A call
    // an arrow function hands to expect(…).toThrow registers nothing.
    pattern: /(?<!=>\s*)\bregisterBackend\(\s*(['"][^'"]*['"]|[\w$.]+)/,
    undoneBy: (match) =>
      new RegExp(`\\bunregisterBackend\\(\\s*${match[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\)`),
    instead: 'call unregisterBackend(name) in an afterAll',
  },
  {
    what: 'spies on a function (vi.spyOn)',
    pattern: /\bvi\.spyOn\(/,
    undoneBy: /\.mockRestore\(|\bvi\.restoreAllMocks\(/,
    instead: 'call mockRestore() on the spy in a finally, or vi.restoreAllMocks() in an afterEach',
  },
];

/** The leaks of one file's code, each with its line. */
export function leaksOf(source: SourceFile): { what: string; line: number; instead: string }[] {
  const found = [];
  for (const leak of LEAKS) {
    const pattern = new RegExp(leak.pattern.source, `${leak.pattern.flags.replace('g', '')}g`);
    for (const match of source.code.matchAll(pattern)) {
      const undone = typeof leak.undoneBy === 'function' ? leak.undoneBy(match) : leak.undoneBy;
      if (undone?.test(source.code)) continue;
      found.push({ what: leak.what, line: lineOf(source.code, match.index), instead: leak.instead });
      break;
    }
  }
  return found;
}

/** The files vitest.config.ts runs in a process of their own: its `isolated` and `timed` lists. */
export function isolatedFiles(configText: string): Set<string> {
  const code = blankComments(configText);
  const files = new Set<string>();
  for (const name of ['isolated', 'timed']) {
    const list = new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(code);
    if (!list)
      throw new Error(
        `vitest.config.ts has no \`const ${name} = [...]\` list for the isolation check to read`,
      );
    for (const entry of list[1].matchAll(/'([^']+)'/g)) files.add(entry[1]);
  }
  return files;
}

export function readIsolatedFiles(root: string): Set<string> {
  return isolatedFiles(readFileSync(path.join(root, 'vitest.config.ts'), 'utf8'));
}

/** Test files that leak and are not isolated, and isolated entries that name no test file. */
export function isolationProblems(sources: TestSource[], isolated: Set<string>): string[] {
  const problems = [];
  for (const source of sources) {
    if (isolated.has(source.file)) continue;
    for (const file of [source, ...source.helpers]) {
      for (const leak of leaksOf(file)) {
        const where =
          file === source ? `${file.file}:${leak.line}` : `${file.file}:${leak.line}, a helper it imports`;
        problems.push(
          `${source.file} ${leak.what} (${where}), and test files run several to a process (isolate: false), so ` +
            `the next file runs with it. Add '${source.file}' to \`isolated\` in vitest.config.ts with a comment ` +
            `saying why, or ${leak.instead}.`,
        );
      }
    }
  }
  const known = new Set(sources.map((source) => source.file));
  for (const file of isolated)
    if (!known.has(file))
      problems.push(`vitest.config.ts isolates ${file}, which is not a test file: remove it`);
  return problems;
}
