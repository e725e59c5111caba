/**
 * docs/cli.md, generated from the CLI itself: the commands, their descriptions and arguments as
 * src/cli/program.ts gives them to commander, and each command's flags from its option table (run-flags.ts,
 * command-flags.ts, console-flags.ts): name, short form, value, help, default and the library option it
 * sets. A flag commander has and the table lacks, or the other way round, stops the generation, so the
 * page cannot describe a CLI that does not exist.
 *
 *   npm run docs:cli                               writes docs/cli.md
 *   node --import tsx scripts/cli-doc.ts --check   exits 1 when docs/cli.md differs
 *
 * test/docs/cli-doc.test.ts regenerates the page and fails when the committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { COMMAND_FLAGS } from '../src/cli/command-flags.js';
import { runHelpText } from '../src/cli/model-list.js';
import type { FlagSpec, FlagTable } from '../src/cli/option-table.js';
import { buildProgram } from '../src/cli/program.js';
import { RUN_FLAGS } from '../src/cli/run-flags.js';
import { backendNames } from '../src/models/registry.js';

export const CLI_DOC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'cli.md');
export const CLI_DOC_COMMAND = 'npm run docs:cli';

const TABLES: Record<string, FlagTable> = { run: RUN_FLAGS, ...COMMAND_FLAGS };

/** One line, pipes escaped (GitHub's tables read `\|` as a pipe, in code spans too). */
function oneLine(text: string): string {
  return text.replaceAll('\n', ' ').replaceAll('|', '\\|');
}

/** Prose: `<time>` would be read as an HTML tag, so `<` is escaped. */
function cell(text: string): string {
  return oneLine(text).replaceAll('<', '\\<');
}

function code(text: string): string {
  return `\`${oneLine(text)}\``;
}

function defaultOf(spec: FlagSpec): string {
  if (spec.defaultHelp !== undefined) return spec.defaultHelp;
  if (spec.default === undefined) return '';
  return Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
}

/** `data fetch` for the subcommand `fetch` of `data`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent)
    names.unshift(current.name());
  return names.join(' ');
}

/** Every command that runs something (not a group such as `data`), in the order main.ts adds them. */
function leafCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => (sub.commands.length > 0 ? leafCommands(sub) : [sub]));
}

/** Commander's flags of a command must be its table's, one for one. */
export function checkTable(name: string, command: Command, table: FlagTable): void {
  const given = command.options.map((option) => option.long?.replace(/^--/, '') ?? option.flags);
  const listed = Object.keys(table);
  const extra = given.filter((flag) => !listed.includes(flag));
  const missing = listed.filter((flag) => !given.includes(flag));
  if (extra.length > 0 || missing.length > 0) {
    throw new Error(
      `assay ${name}: commander's flags and the option table differ (only in commander: ${extra.join(', ') || 'none'}; only in the table: ${missing.join(', ') || 'none'})`,
    );
  }
}

function flagRows(table: FlagTable): string[] {
  const rows = ['| flag | value | default | option | what it does |', '|---|---|---|---|---|'];
  for (const [name, entry] of Object.entries(table)) {
    const spec = entry as FlagSpec;
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}`;
    const notes = [
      spec.required || spec.requiredInHelp ? '**required**' : '',
      spec.hidden ? '(not in `--help`)' : '',
      spec.configKey === false ? '(not a `--config` key)' : '',
    ].filter(Boolean);
    const fallback = defaultOf(spec);
    rows.push(
      `| ${code(flag)} | ${spec.value ? code(spec.value) : ''} | ${fallback ? code(fallback) : ''} | ${spec.field ? code(spec.field) : ''} | ${cell([...notes, spec.help].join(' '))} |`,
    );
  }
  return rows;
}

function argumentRows(command: Command): string[] {
  if (command.registeredArguments.length === 0) return [];
  const rows = ['| argument | default | what it is |', '|---|---|---|'];
  for (const argument of command.registeredArguments) {
    const name = `${argument.required ? '<' : '['}${argument.name()}${argument.variadic ? '...' : ''}${argument.required ? '>' : ']'}`;
    const fallback =
      argument.defaultValue === undefined ||
      (Array.isArray(argument.defaultValue) && argument.defaultValue.length === 0)
        ? ''
        : code(String(argument.defaultValue));
    rows.push(`| ${code(name)} | ${fallback} | ${cell(argument.description)} |`);
  }
  return [...rows, ''];
}

/** The whole page. */
export function renderCliDoc(): string {
  const program = buildProgram();
  const commands = leafCommands(program);
  const lines = [
    '# Command-line reference',
    '',
    `<!-- generated from the option tables in src/cli/ by \`${CLI_DOC_COMMAND}\` (scripts/cli-doc.ts); test/docs/cli-doc.test.ts fails when this file differs -->`,
    '',
    'Every command of `assay` with its flags, as `assay <command> --help` shows them. Flags are spelled in',
    '`snake_case` or `kebab-case` (`--num_fewshot` = `--num-fewshot`), and a value follows its flag (`--limit 10`',
    'or `--limit=10`). *default* is what a flag left out means; *option* is the library option the flag sets',
    '(errors from the library name that option, and the CLI shows the flag: [library.md](library.md)). Every',
    'flag of `assay run` except `--config` is also a key of a `--config` YAML file, where the command line wins.',
    "What each command is for: the [README](../README.md#commands); lm-eval's flags: [lm-eval.md](lm-eval.md).",
    '',
    '| command | what it does |',
    '|---|---|',
  ];
  for (const command of commands) {
    const name = commandPath(command);
    lines.push(
      `| [\`assay ${name}\`](#assay-${name.replaceAll(' ', '-')}) | ${cell(command.description())} |`,
    );
  }
  lines.push(
    '',
    '`assay --version` prints the version; `assay <command> --help` prints the flags below.',
    '',
  );
  for (const command of commands) {
    const name = commandPath(command);
    const table = TABLES[name];
    if (!table) throw new Error(`assay ${name} has no option table in scripts/cli-doc.ts's TABLES`);
    checkTable(name, command, table);
    const description = command.description();
    lines.push(
      `## \`assay ${name}\``,
      '',
      description.endsWith('.') ? description : `${description}.`,
      '',
      '```',
    );
    lines.push(`assay ${name} ${command.usage()}`, '```', '');
    lines.push(...argumentRows(command));
    lines.push(...flagRows(table), '');
    if (name === 'run') {
      lines.push('What `assay run --help` prints after the flags:', '', '```');
      lines.push(...runHelpText(backendNames()).trim().split('\n'), '```', '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const page = renderCliDoc();
  if (process.argv.includes('--check')) {
    const committed = readFileSync(CLI_DOC, 'utf8');
    if (committed !== page) {
      process.stderr.write(`docs/cli.md is not what the option tables generate; run: ${CLI_DOC_COMMAND}\n`);
      process.exitCode = 1;
    }
  } else {
    writeFileSync(CLI_DOC, page);
    process.stdout.write(`wrote ${path.relative(process.cwd(), CLI_DOC)}\n`);
  }
}
