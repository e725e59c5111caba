/**
 * docs/cli.md is generated from the CLI's option tables (scripts/cli-doc.ts): the committed page must be
 * what they generate now, so a flag, a help text or a default changed in src/cli/ without
 * `npm run docs:cli` fails here with that command.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { CLI_DOC, CLI_DOC_COMMAND, checkTable, renderCliDoc } from '../../scripts/cli-doc.js';
import { COMMAND_FLAGS } from '../../src/cli/command-flags.js';
import { RUN_FLAGS } from '../../src/cli/run-flags.js';

const page = renderCliDoc();

describe('docs/cli.md', () => {
  it('is what the option tables generate', () => {
    expect(
      readFileSync(CLI_DOC, 'utf8'),
      `docs/cli.md differs from what src/cli/'s option tables generate; run \`${CLI_DOC_COMMAND}\` and commit docs/cli.md`,
    ).toBe(page);
  });

  it("has every command's section with each flag of its table, help and default", () => {
    const tables = { run: RUN_FLAGS, ...COMMAND_FLAGS };
    for (const [command, table] of Object.entries(tables)) {
      const start = page.indexOf(`\n## \`assay ${command}\`\n`);
      expect(start, `assay ${command}`).toBeGreaterThan(0);
      const end = page.indexOf('\n## ', start + 1);
      const section = page.slice(start, end < 0 ? undefined : end);
      for (const flag of Object.keys(table))
        expect(section, `assay ${command} --${flag}`).toContain(`--${flag}\``);
    }
    // One row read back whole: its short form, value, default, library option and help.
    expect(page).toContain(
      '| `--bootstrap_iters` | `<n>` | `100000` | `bootstrapIters` | bootstrap iterations for stderr of non-mean metrics (0 disables stderr) |',
    );
    expect(page).toContain('| `-L, --limit` | `<n>` |  | `limit` |');
  });

  it('refuses a table that is not what commander was given', () => {
    const command = new Command('demo').option('--alpha <x>', 'a').option('--beta', 'b');
    expect(() => checkTable('demo', command, { alpha: { help: 'a', parse: String } })).toThrow(
      "assay demo: commander's flags and the option table differ (only in commander: beta; only in the table: none)",
    );
    expect(() =>
      checkTable('demo', command, {
        alpha: { help: 'a', parse: String },
        beta: { help: 'b', parse: String },
        gamma: { help: 'c', parse: String },
      }),
    ).toThrow('(only in commander: none; only in the table: gamma)');
  });
});
