/**
 * vitest.config.ts's `isolated` list, held to its rule (isolation.ts): a test file that leaves the process
 * changed (process.env, chdir, module mocks, signal handlers; fake timers, stubs and spies it does not
 * undo) runs in a process of its own. Here the rule on small files; test-files.test.ts holds the repo to it.
 */
import { describe, expect, it } from 'vitest';
import { CI_READ } from './component-skips.js';
import { isolatedFiles, isolationProblems, leaksOf } from './isolation.js';
import { blankComments, type TestSource } from './test-sources.js';

const test = (file: string, code: string, helpers: Record<string, string> = {}): TestSource => ({
  file,
  code: blankComments(code),
  helpers: Object.entries(helpers).map(([name, text]) => ({ file: name, code: blankComments(text) })),
});

describe('the isolation rule', () => {
  it('names a test file that writes process.env without being isolated, with the line and what to do', () => {
    const file = test(
      'test/a.test.ts',
      "import { it } from 'vitest';\n\nit('x', () => {\n  process.env.HF_TOKEN = 'x';\n});\n",
    );
    expect(isolationProblems([file], new Set())).toEqual([
      'test/a.test.ts writes process.env (test/a.test.ts:4), and test files run several to a process ' +
        "(isolate: false), so the next file runs with it. Add 'test/a.test.ts' to `isolated` in " +
        "vitest.config.ts with a comment saying why, or give the variable to the child process instead (spawn's " +
        "`env` option, runCli's `env`).",
    ]);
    expect(isolationProblems([file], new Set(['test/a.test.ts']))).toEqual([]);
  });

  it('finds each kind of leak', () => {
    const kinds = (code: string) =>
      leaksOf({ file: 'x.test.ts', code: blankComments(code) }).map((leak) => leak.what);
    expect(kinds("delete process.env.PYTHONPATH;\nprocess.env['A'] ??= 'b';")).toEqual([
      'writes process.env',
    ]);
    expect(kinds('Object.assign(process.env, saved);')).toEqual(['writes process.env']);
    expect(kinds('process.env = saved;')).toEqual(['writes process.env']);
    expect(kinds("process.chdir('/tmp');")).toEqual(['calls process.chdir']);
    expect(kinds("vi.mock('node:fs');\nvi.doMock('./x.js');")).toEqual([
      'mocks a module (vi.mock / vi.doMock)',
    ]);
    expect(kinds("process.once('SIGINT', stop);")).toEqual(['registers a process signal or exit handler']);
    expect(kinds('vi.useFakeTimers();')).toEqual(['installs fake timers']);
    expect(kinds("vi.stubGlobal('fetch', fake);")).toEqual(['stubs a global (vi.stubGlobal)']);
    expect(kinds("vi.stubEnv('CI', 'true');")).toEqual(['stubs an environment variable (vi.stubEnv)']);
    expect(kinds("const spy = vi.spyOn(process.stderr, 'write');")).toEqual([
      'spies on a function (vi.spyOn)',
    ]);
    // Each backend registered must be unregistered by name: another name's unregistering undoes nothing.
    const registry = "registers a backend in the process's registry (registerBackend)";
    expect(kinds("registerBackend('bigram', { create });")).toEqual([registry]);
    expect(
      kinds("registerBackend('bigram', { create });\nregisterBackend('old', d);\nunregisterBackend('old');"),
    ).toEqual([registry]);
    expect(
      kinds("registerBackend('bigram', { create });\nafterAll(() => unregisterBackend('bigram'));"),
    ).toEqual([]);
    expect(kinds("expect(() => registerBackend('gguf', { create })).toThrow('built-in');")).toEqual([]);
  });

  it('lets a file undo fake timers, stubs and spies itself', () => {
    const undone = [
      'vi.useFakeTimers();\nafterEach(() => vi.useRealTimers());',
      "vi.stubGlobal('fetch', fake);\nafterEach(() => vi.unstubAllGlobals());",
      "vi.stubEnv('CI', 'true');\nafterEach(() => vi.unstubAllEnvs());",
      "const spy = vi.spyOn(performance, 'now');\ntry { run(); } finally { spy.mockRestore(); }",
      "vi.spyOn(performance, 'now');\nafterEach(() => vi.restoreAllMocks());",
    ];
    for (const code of undone) expect(leaksOf({ file: 'x.test.ts', code: blankComments(code) })).toEqual([]);
  });

  it('does not count reads of process.env, comparisons, comments, or programs in template literals', () => {
    const code = [
      `const ci = ${CI_READ} === 'true';`,
      'const env = { ...process.env, PYTHONPATH: site };',
      '// process.env.X = 1 and process.chdir(dir) in a comment',
      "/* vi.mock('x') */",
      // A program the test writes for a child process, with an expression in it.
      "const child = `process.on('SIGTERM', () => process.exit(0));\\nprocess.chdir($" +
        '{JSON.stringify(dir)});`;',
    ].join('\n');
    expect(leaksOf({ file: 'x.test.ts', code: blankComments(code) })).toEqual([]);
  });

  it("counts a helper's leak against every test file that imports it", () => {
    const helper = 'export function withPath(site) {\n  process.env.PYTHONPATH = site;\n}\n';
    const file = test('src/python/bridge.test.ts', "import { withPath } from '../../test/h.js';\n", {
      'test/h.ts': helper,
    });
    expect(isolationProblems([file], new Set())).toEqual([
      expect.stringMatching(
        /^src\/python\/bridge\.test\.ts writes process\.env \(test\/h\.ts:2, a helper it imports\)/,
      ),
    ]);
  });

  it('names an isolated entry that is no test file', () => {
    expect(isolationProblems([], new Set(['test/gone.test.ts']))).toEqual([
      'vitest.config.ts isolates test/gone.test.ts, which is not a test file: remove it',
    ]);
  });

  it('reads the isolated and timed lists of vitest.config.ts, whatever their comments say', () => {
    const config = [
      "const timed = ['src/a.test.ts'];",
      'const isolated = [',
      "  // the hub's variables ('quoted'), and [brackets]",
      "  'src/b.test.ts',",
      "  /* a comment with 'quotes' */",
      "  'test/c.test.ts',",
      '];',
    ].join('\n');
    expect([...isolatedFiles(config)]).toEqual(['src/b.test.ts', 'test/c.test.ts', 'src/a.test.ts']);
    expect(() => isolatedFiles('export default {}')).toThrow(/no `const isolated = \[...\]` list/);
  });
});
