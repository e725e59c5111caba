/**
 * The rule that every test skips on a missing component through test/support/require-component.ts, which fails
 * under CI=true where CI should have had it. A grep of the test files and the helpers under test/ they
 * import (comments and program text blanked, test-sources.ts) that refuses the other ways a test has
 * skipped here:
 * - reading the CI variable of the environment (only require-component.ts decides what CI must have);
 * - `.skipIf(…)` / `.runIf(…)` on anything but a value requireComponent returned (`!present` for skipIf,
 *   `present` for runIf, with `const present = requireComponent(…)` in the same file, or the call itself);
 * - `.skip` (`describe.skip`, `it.skip`, a context's `skip()`): a test that never runs;
 * - `if (!existsSync(…)) return`: a test that passes without checking anything.
 * A plain `if (present) { describe(…) }` is not seen: wrap a suite in `if (requireComponent(…))` instead.
 */
import { lineOf, type SourceFile, type TestSource } from './test-sources.js';

const RULE_FILE = 'test/support/require-component.ts';
/**
 * How a test would read the CI variable, spelled out only here (the rule's tests write it into the code
 * they check): a grep for it then finds the one file that reads it, the rule file.
 */
export const CI_READ = ['process', 'env', 'CI'].join('.');
const HOW =
  "probe the component, pass the answer to requireComponent (const present = requireComponent('python3', " +
  'found)) and skip on what it returns (describe.skipIf(!present)); a component it does not list yet is a ' +
  `new entry of COMPONENTS in ${RULE_FILE}, saying where it comes from and whether CI has it.`;

/** The names a file binds to requireComponent's answer. */
function componentNames(code: string): Set<string> {
  return new Set(
    [...code.matchAll(/\b(?:const|let)\s+([\w$]+)\s*=\s*requireComponent\(/g)].map((match) => match[1]),
  );
}

/** The text between the parenthesis at `open` and its match. */
function argumentAt(code: string, open: number): string {
  let depth = 0;
  for (let index = open; index < code.length; index++) {
    if (code[index] === '(') depth++;
    else if (code[index] === ')' && --depth === 0) return code.slice(open + 1, index);
  }
  return code.slice(open + 1);
}

/** What one file breaks of the rule. */
export function componentSkipProblems(source: SourceFile): string[] {
  if (source.file === RULE_FILE) return [];
  const { code, file } = source;
  const problems: string[] = [];
  const at = (index: number) => `${file}:${lineOf(code, index)}`;
  for (const match of code.matchAll(/\benv(?:\.CI\b|\[\s*'CI'\s*\])/g))
    problems.push(`${at(match.index)} reads ${CI_READ}: only ${RULE_FILE} decides what CI must have; ${HOW}`);
  const names = componentNames(code);
  for (const match of code.matchAll(/\.(skipIf|runIf)\s*\(/g)) {
    const condition = argumentAt(code, match.index + match[0].length - 1).trim();
    const negated = match[1] === 'skipIf';
    const operand = negated ? condition.replace(/^!\s*/, '') : condition;
    const fromRule =
      negated === condition.startsWith('!') && (names.has(operand) || /^requireComponent\(/.test(operand));
    if (!fromRule)
      problems.push(
        `${at(match.index)} ${match[1]}(${condition}): a skip on a condition requireComponent did not give, so it ` +
          `skips silently under CI=true too; ${HOW}`,
      );
  }
  for (const match of code.matchAll(/\.skip\b(?!If)/g))
    problems.push(
      `${at(match.index)} uses .skip: a test that never runs, and never fails under CI=true; ${HOW}`,
    );
  for (const match of code.matchAll(
    /if\s*\(\s*!\s*existsSync\((?:[^()]|\([^()]*\))*\)\s*\)\s*\{?\s*return\b/g,
  ))
    problems.push(
      `${at(match.index)} returns early when a file is missing, and passes without checking; ${HOW}`,
    );
  return problems;
}

/** The problems of every test file and of every helper they import (each helper once). */
export function componentSkipProblemsOf(sources: TestSource[]): string[] {
  const files = new Map<string, SourceFile>();
  for (const source of sources) for (const file of [source, ...source.helpers]) files.set(file.file, file);
  return [...files.values()].flatMap(componentSkipProblems);
}
