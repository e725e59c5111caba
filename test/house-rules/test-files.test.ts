/**
 * The house rules for test files, held over every test file of the repo (read once, about 0.1 s): the
 * files that leave the process changed are in vitest.config.ts's `isolated` list (isolation.ts), a test
 * skips on a missing component only through test/support/require-component.ts (component-skips.ts), and
 * `*.e2e.test.ts` names exactly the files that start the CLI in a child process (e2e-naming.ts). A
 * failure names the file and line and says what to do.
 */
import { expect, it } from 'vitest';
import { repoRoot } from '../support/helpers.js';
import { componentSkipProblemsOf } from './component-skips.js';
import { cliStarts, e2eNamingProblems } from './e2e-naming.js';
import { isolationProblems, readIsolatedFiles } from './isolation.js';
import { readTestSources } from './test-sources.js';

const sources = readTestSources(repoRoot);

it('vitest.config.ts isolates every test file that leaves the process changed', () => {
  expect(isolationProblems(sources, readIsolatedFiles(repoRoot))).toEqual([]);
});

it('every test skips on a missing component through requireComponent', () => {
  expect(componentSkipProblemsOf(sources)).toEqual([]);
});

it('names *.e2e.test.ts exactly the test files that start the CLI in a child process', () => {
  expect(sources.flatMap(e2eNamingProblems)).toEqual([]);
});

it('reads the test files the rules are about', () => {
  // Guards the two checks above against passing because the reader found nothing.
  const files = new Set(sources.map((source) => source.file));
  expect(files.has('test/house-rules/test-files.test.ts')).toBe(true);
  expect(files.has('src/python/bridge.test.ts')).toBe(true);
  expect(
    sources
      .find((source) => source.file === 'src/python/bridge.test.ts')
      ?.helpers.map((helper) => helper.file),
  ).toEqual([
    'test/conformance/python-bridge-failures.ts',
    'test/conformance/python-bridge.ts',
    'test/support/python-interpreters.ts',
    'test/support/require-component.ts',
  ]);
  // Guards the naming rule against passing because it sees no CLI start, or sees one everywhere.
  const starting = sources.filter((source) => cliStarts(source).length > 0).map((source) => source.file);
  expect(starting).toContain('test/run.e2e.test.ts');
  expect(starting).toContain('test/http.e2e.test.ts');
  expect(starting).not.toContain('test/results-table.test.ts');
});
