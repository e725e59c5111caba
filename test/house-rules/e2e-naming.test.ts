/**
 * The naming rule of end-to-end test files (e2e-naming.ts) on small files: `*.e2e.test.ts` is exactly
 * the files that start the CLI in a child process. test-files.test.ts holds the repo to it.
 */
import { describe, expect, it } from 'vitest';
import { cliStarts, e2eNamingProblems } from './e2e-naming.js';
import { blankComments } from './test-sources.js';

const source = (file: string, code: string) => ({ file, code: blankComments(code) });

describe('the e2e naming rule', () => {
  it('finds each way a file starts the CLI, with its line', () => {
    const starts = (code: string) => cliStarts(source('test/a.e2e.test.ts', code));
    expect(starts("\nconst result = runCli(['run']);")).toEqual([
      'test/a.e2e.test.ts:2 runs the CLI (runCli, runCliAsync, startCli or startView)',
    ]);
    expect(starts("await runCliAsync(['ls'], { env });")).toHaveLength(1);
    expect(starts('const { child, done } = startCli(args);')).toHaveLength(1);
    expect(starts("import { bin, runCli } from './support/cli.js';")).toHaveLength(1);
    expect(starts("import { bin as assayBin } from '../../../test/support/cli.js';")).toEqual([
      "test/a.e2e.test.ts:1 imports the CLI's path (`bin` of test/support/cli.ts)",
    ]);
    expect(starts("spawn(process.execPath, [path.join(root, 'bin/assay.js'), 'run']);")).toEqual([
      'test/a.e2e.test.ts:1 names bin/assay.js',
    ]);
    expect(starts("const bin = path.join(repoRoot, 'bin', 'assay.js');")).toHaveLength(1);
  });

  it('does not count the CLI in process, comments, or a program the test writes', () => {
    const starts = (code: string) => cliStarts(source('test/a.test.ts', code));
    expect(starts("const run = await runCliInProcess(['gate', '--help']);")).toEqual([]);
    expect(starts('// one smoke test through runCli(...) lives in run.e2e.test.ts')).toEqual([]);
    expect(starts("const script = `spawnSync('node', ['bin/assay.js', 'run'])`;")).toEqual([]);
    expect(starts("import { repoRoot } from './support/helpers.js';")).toEqual([]);
  });

  it('names a file that starts the CLI without the suffix, and what to rename it to', () => {
    expect(e2eNamingProblems(source('src/view/best-runs.test.ts', "runCli(['compare', a, b]);"))).toEqual([
      'src/view/best-runs.test.ts:1 runs the CLI (runCli, runCliAsync, startCli or startView), so it is an end-to-end test: ' +
        'rename src/view/best-runs.test.ts to src/view/best-runs.e2e.test.ts (and its entry in vitest.config.ts, ' +
        "if any), or run the CLI's main() in this process (test/support/cli-in-process.ts) where the process " +
        'boundary adds nothing',
    ]);
  });

  it('names a suffixed file that starts no CLI', () => {
    expect(e2eNamingProblems(source('test/gate.e2e.test.ts', "await runCliInProcess(['gate']);"))).toEqual([
      'test/gate.e2e.test.ts starts no CLI process (no runCli, runCliAsync, startCli, startView or bin/assay.js): rename it ' +
        'to test/gate.test.ts (and its entry in vitest.config.ts, if any)',
    ]);
  });

  it('passes a suffixed file that starts the CLI and a plain one that does not', () => {
    expect(e2eNamingProblems(source('test/run.e2e.test.ts', "runCli(['run']);"))).toEqual([]);
    expect(e2eNamingProblems(source('test/view.e2e.test.ts', 'await startView([folder]);'))).toEqual([]);
    expect(e2eNamingProblems(source('test/stats.test.ts', 'expect(mean([1, 2])).toBe(1.5);'))).toEqual([]);
  });
});
