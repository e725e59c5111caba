/**
 * The naming rule of test files: `*.e2e.test.ts` is exactly the files that start the CLI in a child
 * process (bin/assay.js over the built dist/, through test/support/cli.ts), so the slow, build-dependent tests are the ones the name says. A file that runs the CLI's
 * `main()` in its own process (test/support/cli-in-process.ts) starts no CLI and has no suffix. Read from
 * the file's own code (comments and program text blanked, test-sources.ts); what a helper it imports does
 * is not counted, since a helper that starts the CLI is test/support/cli.ts, which the file calls.
 */
import { lineOf, type SourceFile } from './test-sources.js';

/** The ways a test file starts the CLI in a child process. */
const STARTS_CLI: { pattern: RegExp; what: string }[] = [
  {
    pattern: /\b(?:runCli|runCliAsync|startCli|startView)\s*\(/,
    what: 'runs the CLI (runCli, runCliAsync, startCli or startView)',
  },
  {
    pattern: /import\s*(?:type\s*)?\{[^}]*\bbin\b[^}]*\}\s*from\s*'[^']*support\/cli\.js'/,
    what: "imports the CLI's path (`bin` of test/support/cli.ts)",
  },
  { pattern: /bin\/assay\.js|'bin',\s*'assay\.js'/, what: 'names bin/assay.js' },
];

const SUFFIX = '.e2e.test.ts';

/** Where a file's code starts the CLI, as `file:line what`; empty when it does not. */
export function cliStarts(source: SourceFile): string[] {
  return STARTS_CLI.flatMap(({ pattern, what }) => {
    const match = pattern.exec(source.code);
    return match ? [`${source.file}:${lineOf(source.code, match.index)} ${what}`] : [];
  });
}

/** What a test file breaks of the rule. */
export function e2eNamingProblems(source: SourceFile): string[] {
  const starts = cliStarts(source);
  const named = source.file.endsWith(SUFFIX);
  if (starts.length > 0 && !named)
    return [
      `${starts[0]}, so it is an end-to-end test: rename ${source.file} to ` +
        `${source.file.replace(/\.test\.ts$/, SUFFIX)} (and its entry in vitest.config.ts, if any), or run ` +
        "the CLI's main() in this process (test/support/cli-in-process.ts) where the process boundary adds nothing",
    ];
  if (starts.length === 0 && named)
    return [
      `${source.file} starts no CLI process (no runCli, runCliAsync, startCli, startView or bin/assay.js): rename it to ` +
        `${source.file.slice(0, -SUFFIX.length)}.test.ts (and its entry in vitest.config.ts, if any)`,
    ];
  return [];
}
