/**
 * One option table per command, as Vitest's CLI (packages/vitest/src/node/cli/cli-config.ts): each flag's
 * name, short form, value, help, default and parse function are written once, and commander's options,
 * the `--config` keys, the defaults and the help text are generated from it. Commander is given no
 * defaults, so a value it hands over was typed by the user; defaults are applied after the command line
 * and the config file are merged (CLI > --config > default).
 */
import { type Command, Option } from 'commander';

export interface FlagSpec<T = unknown> {
  /** One-letter alias (`-M`). */
  short?: string;
  /** `<value>` (required), `[value]` (optional), `<values...>` (variadic); absent for a switch. */
  value?: string;
  help: string;
  /** Applied when neither the command line nor --config sets the flag; given to `parse` as typed. */
  default?: T;
  /** The default as help shows it, when `String(default)` would not say it. */
  defaultHelp?: string;
  /** Command-line text (or a --config YAML value) to the typed value; throws AssayError naming `flag`. */
  parse: (raw: unknown, flag: string) => T;
  /**
   * The library option this flag sets (`limit`, `perplexity.stride`): library errors name the field in
   * backticks and the CLI's error reporter shows the flag instead.
   */
  field?: string;
  /** Left out of --help (kept for lm-eval's spelling of the same flag). */
  hidden?: boolean;
  /** Commander refuses the command without it (no --config can give it). */
  required?: boolean;
  /** Required, but checked by the command itself (its message gives an example); help marks it as `required`. */
  requiredInHelp?: boolean;
  /** False: not a key of --config (the flag that names the config file itself). */
  configKey?: boolean;
}

export type FlagTable = Record<string, FlagSpec<never> | FlagSpec<unknown>>;

type Parsed<S> = S extends { parse: (...args: never[]) => infer V } ? V : never;

/** The typed values of a table: flags with a default are always set. */
export type FlagValues<T extends FlagTable> = {
  [K in keyof T]: T[K] extends { default: unknown } ? Parsed<T[K]> : Parsed<T[K]> | undefined;
};

/** A flag's help line, marked when it is required, with its default when it has one. */
function helpText(spec: FlagSpec): string {
  const help = spec.required || spec.requiredInHelp ? `${spec.help} (required)` : spec.help;
  if (spec.default === undefined && spec.defaultHelp === undefined) return help;
  const shown =
    spec.defaultHelp ?? (Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default));
  return `${help} (default: ${shown})`;
}

/** Adds the table's flags to a commander command. */
export function addFlags(command: Command, table: FlagTable): Command {
  for (const [name, spec] of Object.entries(table)) {
    const flags = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    const option = new Option(flags, helpText(spec as FlagSpec));
    if (spec.hidden) option.hideHelp();
    if (spec.required) option.makeOptionMandatory();
    command.addOption(option);
  }
  return command;
}

/** `--config` keys: every flag but those marked otherwise. */
export function configKeys(table: FlagTable): string[] {
  return Object.entries(table)
    .filter(([, spec]) => spec.configKey !== false)
    .map(([name]) => name);
}

/**
 * The typed values: each flag from the command line, else from `config` (already checked against
 * configKeys), else its default; every given value goes through the flag's parse function.
 */
export function parseFlags<T extends FlagTable>(
  table: T,
  cli: Record<string, unknown>,
  config: Record<string, unknown> = {},
): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const raw = cli[name] !== undefined ? cli[name] : config[name];
    values[name] = raw === undefined || raw === null ? spec.default : spec.parse(raw as never, `--${name}`);
  }
  return values as FlagValues<T>;
}

/** field → `--flag` over every table, for the error reporter (the first table naming a field wins). */
export function fieldFlags(tables: readonly FlagTable[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const table of tables) {
    for (const [name, spec] of Object.entries(table)) {
      if (spec.field && !map.has(spec.field)) map.set(spec.field, `--${name}`);
    }
  }
  return map;
}
