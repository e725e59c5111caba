/**
 * `assay run`'s option table is keyed by the run options' fields: a field without a row (a flag, a
 * nested table or `null`) does not compile. The `@ts-expect-error` lines below are checked by the type
 * check of the tests (`tsc -b tsconfig.test.json`, part of `npm test`): each would fail it if the line
 * under it compiled, so they hold the table to the options' type. The tests hold the built table to the
 * schema at run time.
 */
import { describe, expect, it } from 'vitest';
import { type RunOptionsInput, resolveRunOptions, runOptionsSchema } from '../evaluate/run-options.js';
import { integer, text } from './flag-values.js';
import { flagTable, type OptionFlag, type OptionFlags, parseOptionFlags } from './option-table.js';
import { RUN_FLAGS, RUN_OPTION_FLAGS, type RunCommandSettings } from './run-flags.js';

interface Example {
  count?: number;
  name: string;
  window?: { stride?: number; length?: number };
}
const count: OptionFlag<number> = { flag: 'count', help: 'a count', parse: integer(0) };
const name: OptionFlag<string> = { flag: 'name', help: 'a name', parse: text };

// A field with neither a flag nor null.
// @ts-expect-error `name` is missing
const withoutName: OptionFlags<Example> = { count, window: null };

const withoutNestedField: OptionFlags<Example> = {
  count,
  name,
  // @ts-expect-error `window.length` is missing from the nested table
  window: { fields: { stride: { flag: 'stride', help: 'a stride', parse: integer(1) } } },
};

const wrongValue: OptionFlags<Example> = {
  // @ts-expect-error a flag whose parse gives a string cannot set a number
  count: { flag: 'count', help: 'a count', parse: text },
  name,
  window: null,
};

// The run's table itself: an option added without a flag (or null) fails to compile.
// @ts-expect-error `addedOption` has no row
const withAddedOption: OptionFlags<RunOptionsInput & RunCommandSettings & { addedOption?: number }> =
  RUN_OPTION_FLAGS;

describe("assay run's option table", () => {
  it('compiles only with a row for every field (the lines above)', () => {
    const complete: OptionFlags<Example> = { count, name: null, window: null };
    expect(Object.keys(complete)).toEqual(['count', 'name', 'window']);
    expect([withoutName, withoutNestedField, wrongValue, withAddedOption]).toHaveLength(4);
  });

  it("has a row for every field of the run options' schema, nested ones included", () => {
    const rows = RUN_OPTION_FLAGS as Record<string, unknown>;
    for (const field of Object.keys(runOptionsSchema.in.shape)) expect(rows, field).toHaveProperty(field);
    // The flags that set a library field are those of the schema's fields (none of the command's own).
    const fields = new Set(
      Object.values(RUN_FLAGS).flatMap((spec) => (spec.field ? [spec.field.split('.')[0]] : [])),
    );
    const flagged = Object.keys(runOptionsSchema.in.shape).filter((field) => rows[field] !== null);
    expect([...fields].sort()).toEqual(flagged.sort());
    // Each flag sets the library field it names; errors show the flag for that field.
    expect(RUN_FLAGS.max_latency_s.field).toBe('maxLatencyS');
    expect(RUN_FLAGS.ppl_stride.field).toBe('perplexity.stride');
    expect(RUN_FLAGS.code_timeout.field).toBe('sandbox.limits.timeoutMs');
    // The command's own settings set no library field.
    expect(RUN_FLAGS.verbosity.field).toBeUndefined();
    expect(RUN_FLAGS.table.field).toBeUndefined();
  });

  it("shows the schema's defaults in help, written nowhere else", () => {
    const resolved = resolveRunOptions({ model: 'dummy', tasks: [] });
    expect(RUN_FLAGS.bootstrap_iters.defaultHelp).toBe(String(resolved.bootstrapIters));
    expect(RUN_FLAGS.batch_size.defaultHelp).toBe(String(resolved.batchSize));
    expect(RUN_FLAGS.bootstrap_iters.defaultHelp).toBe('100000');
    expect(RUN_FLAGS.batch_size.defaultHelp).toBe('1');
    expect(RUN_FLAGS.bootstrap_iters.default).toBeUndefined();
    expect(RUN_FLAGS.batch_size.default).toBeUndefined();
  });

  it('parses a nested option only when one of its flags is given', () => {
    const rows: OptionFlags<Example> = {
      count,
      name,
      window: {
        fields: {
          stride: { flag: 'stride', help: 'a stride', parse: integer(1) },
          length: { flag: 'length', help: 'a length', parse: integer(1) },
        },
      },
    };
    expect(parseOptionFlags(rows, { name: 'x' })).toEqual({ name: 'x' });
    expect(parseOptionFlags(rows, { stride: '4' }, { count: 2 })).toEqual({
      count: 2,
      window: { stride: 4, length: undefined },
    });
    expect(Object.keys(flagTable(rows, { libraryFields: ['window'] }))).toEqual([
      'count',
      'name',
      'stride',
      'length',
    ]);
    expect(flagTable(rows, { libraryFields: ['window'] }).length.field).toBe('window.length');
  });
});
