/**
 * One option table per command, as Vitest's CLI (packages/vitest/src/node/cli/cli-config.ts): each flag's
 * name, short form, value, help, default and parse function are written once, and commander's options,
 * the `--config` keys, the defaults and the help text are generated from it. Commander is given no
 * defaults, so a value it hands over was typed by the user; defaults are applied after the command line
 * and the config file are merged (CLI > --config > default).
 *
 * A command whose flags set a library's options (`assay run`: evaluate/run-options.ts) writes its table
 * keyed by the options' fields (`OptionFlags`), as Vitest's `CLIOptions<Config>`: every field maps to its
 * flag, to a table of its own fields (`perplexity`, `sandbox`) or to `null` (no flag), so a field added to
 * the options without one does not compile. `flagTable` lays it out as a FlagTable; `parseOptionFlags`
 * turns the command line into those options, with the library's schema giving the defaults.
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
  commandLine: Record<string, unknown>,
  config: Record<string, unknown> = {},
): FlagValues<T> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const raw = commandLine[name] !== undefined ? commandLine[name] : config[name];
    values[name] = raw === undefined || raw === null ? spec.default : spec.parse(raw as never, `--${name}`);
  }
  return values as FlagValues<T>;
}

/** One row of an OptionFlags table: a FlagSpec named by its flag (lm-eval's spelling, `num_fewshot`). */
export type OptionFlag<T> = Omit<FlagSpec<T>, 'field'> & {
  flag: string;
  /** Help shows the default the library's schema gives the field (`defaults` of flagTable). */
  showDefault?: boolean;
};

/** An object-valued option set field by field (`perplexity.mode` by --ppl_mode, …). */
export interface NestedFlags<T> {
  fields: OptionFlags<T>;
}

type Row<V> =
  NonNullable<V> extends readonly unknown[]
    ? OptionFlag<NonNullable<V>>
    : NonNullable<V> extends Record<string, unknown>
      ? OptionFlag<NonNullable<V>> | NestedFlags<NonNullable<V>>
      : OptionFlag<NonNullable<V>>;

/**
 * A flag table keyed by an options type: every field (optional or not) has a row, a nested table or an
 * explicit `null` (no flag), so a field without one fails to compile.
 */
export type OptionFlags<Options> = { [K in keyof Options]-?: Row<Options[K]> | null };

const isNested = (row: unknown): row is NestedFlags<Record<string, unknown>> =>
  typeof row === 'object' && row !== null && 'fields' in row;

function valueAt(values: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined,
    values,
  );
}

/**
 * The FlagTable of an OptionFlags table, in its order: a flag setting one of `libraryFields` (the
 * library's errors name them) has its path in the options as `field` (`perplexity.stride`), and help
 * shows the `defaults` of the rows marked showDefault.
 */
export function flagTable<Options>(
  rows: OptionFlags<Options>,
  options: { libraryFields: readonly string[]; defaults?: unknown },
  path: string[] = [],
): FlagTable {
  const table: FlagTable = {};
  for (const [key, row] of Object.entries(rows as Record<string, unknown>)) {
    if (row === null) continue;
    if (isNested(row)) {
      Object.assign(table, flagTable(row.fields, options, [...path, key]));
      continue;
    }
    const { flag, showDefault, ...spec } = row as OptionFlag<unknown>;
    const field = [...path, key];
    const shownDefault = showDefault ? valueAt(options.defaults, field) : undefined;
    table[flag] = {
      ...spec,
      ...(options.libraryFields.includes(field[0]) ? { field: field.join('.') } : {}),
      ...(shownDefault === undefined ? {} : { defaultHelp: String(shownDefault) }),
    } as FlagSpec<unknown>;
  }
  return table;
}

/**
 * The options the command line and `config` give, keyed as the options are: each flag's value from the
 * command line, else from `config`, else its table default, through the flag's parse function. A field
 * no flag set is absent; a nested option is present when one of its flags is set (its other fields
 * undefined). The library's schema applies its own defaults after.
 */
export function parseOptionFlags<Options>(
  rows: OptionFlags<Options>,
  commandLine: Record<string, unknown>,
  config: Record<string, unknown> = {},
): Partial<Options> {
  const values: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(rows as Record<string, unknown>)) {
    if (row === null) continue;
    if (isNested(row)) {
      const nested = parseOptionFlags(row.fields, commandLine, config) as Record<string, unknown>;
      const set = Object.values(nested).some((value) => value !== undefined);
      if (!set) continue;
      values[key] = Object.fromEntries(
        Object.entries(row.fields).flatMap(([name, field]) => (field === null ? [] : [[name, nested[name]]])),
      );
      continue;
    }
    const spec = row as OptionFlag<unknown>;
    const raw = commandLine[spec.flag] !== undefined ? commandLine[spec.flag] : config[spec.flag];
    const value =
      raw === undefined || raw === null ? spec.default : spec.parse(raw as never, `--${spec.flag}`);
    if (value !== undefined) values[key] = value;
  }
  return values as Partial<Options>;
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
