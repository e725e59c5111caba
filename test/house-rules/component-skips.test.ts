/**
 * The rule that a test skips on a missing component only through requireComponent (component-skips.ts),
 * on small files: each way the suite skipped by a rule of its own before is refused with its line, and the
 * ways require-component.ts documents pass. test-files.test.ts holds the repo to it.
 */
import { describe, expect, it } from 'vitest';
import { CI_READ, componentSkipProblems } from './component-skips.js';
import { blankComments } from './test-sources.js';

const problems = (code: string, file = 'test/a.test.ts') =>
  componentSkipProblems({ file, code: blankComments(code) }).map((problem) => problem.split(/: |; /)[0]);

describe('the component-skip rule', () => {
  it('passes the forms require-component.ts documents', () => {
    const code = [
      "const present = requireComponent('python3', interpreters.length > 0);",
      "describe.skipIf(!present)('a suite', () => {});",
      "it.skipIf(!present)('a test', () => {});",
      "it.runIf(present)('a test', () => {});",
      'const describeSandbox = describe.skipIf(!present);',
      "if (requireComponent('python3-jinja2', python !== undefined)) {",
      "  describe('a suite', () => {});",
      '}',
      "describe.skipIf(!requireComponent('chromium', found))('a suite', () => {});",
    ].join('\n');
    expect(componentSkipProblems({ file: 'test/a.test.ts', code: blankComments(code) })).toEqual([]);
  });

  it('refuses a hand-written CI rule (the six copies it replaced)', () => {
    const code = [
      'const probe = probeSandbox(sandboxOptions());',
      'if (!probe.available) {',
      `  if (${CI_READ} === 'true') {`,
      "    describe('code sandbox', () => {",
      "      it('is available under CI', () => { throw new Error('bubblewrap is required'); });",
      '    });',
      '  }',
      '}',
      'const describeSandbox = probe.available ? describe : describe.skip;',
    ].join('\n');
    expect(problems(code)).toEqual([`test/a.test.ts:3 reads ${CI_READ}`, 'test/a.test.ts:9 uses .skip']);
    expect(problems("it.runIf(process.env['CI'] === 'true')('CI built it', () => {});")).toEqual([
      `test/a.test.ts:1 reads ${CI_READ}`,
      "test/a.test.ts:1 runIf(process.env['CI'] === 'true')",
    ]);
  });

  it('refuses the silent skips of stories260K and others: a condition requireComponent did not give', () => {
    const code = [
      'const storiesPresent = existsSync(STORIES);',
      "describe.skipIf(!storiesPresent)('chunked on stories260K', () => {});",
      "describe.skipIf(!native.addon)('native', () => {});",
      "it.skipIf(!existsSync(TINY_32K))('32K vocabulary', () => {});",
      "describe.skipIf(interpreters.length === 0)('validate', () => {});",
      "const present = requireComponent('python3', found);",
      "describe.skipIf(present)('inverted', () => {});",
    ].join('\n');
    expect(problems(code)).toEqual([
      'test/a.test.ts:2 skipIf(!storiesPresent)',
      'test/a.test.ts:3 skipIf(!native.addon)',
      'test/a.test.ts:4 skipIf(!existsSync(TINY_32K))',
      'test/a.test.ts:5 skipIf(interpreters.length === 0)',
      'test/a.test.ts:7 skipIf(present)',
    ]);
  });

  it('refuses .skip, a skipping context, and an early return on a missing file', () => {
    const code = [
      "it.skip('skipped: not present', () => {});",
      "it('a test', (context) => { context.skip(); });",
      "it('reads the vectors', () => {",
      '  if (!existsSync(path.join(root, "vectors.json"))) return;',
      '});',
    ].join('\n');
    expect(problems(code)).toEqual([
      'test/a.test.ts:1 uses .skip',
      'test/a.test.ts:2 uses .skip',
      'test/a.test.ts:4 returns early when a file is missing, and passes without checking',
    ]);
  });

  it('names what to do', () => {
    const [message] = componentSkipProblems({
      file: 'test/a.test.ts',
      code: blankComments("describe.skipIf(!found)('x', () => {});"),
    });
    expect(message).toBe(
      'test/a.test.ts:1 skipIf(!found): a skip on a condition requireComponent did not give, so it skips ' +
        'silently under CI=true too; probe the component, pass the answer to requireComponent (const present = ' +
        "requireComponent('python3', found)) and skip on what it returns (describe.skipIf(!present)); a " +
        'component it does not list yet is a new entry of COMPONENTS in test/support/require-component.ts, saying where ' +
        'it comes from and whether CI has it.',
    );
  });

  it('lets test/support/require-component.ts read CI, and ignores comments and strings', () => {
    expect(problems(`if (${CI_READ} === 'true') {}`, 'test/support/require-component.ts')).toEqual([]);
    expect(problems(`// describe.skip, ${CI_READ}\nconst text = 'use it.skip(…) never';`)).toEqual([]);
  });
});
