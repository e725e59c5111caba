/** The flags of what a command prints on the console, shared by the commands that print it. */
import { choice, switchFlag } from './flag-values.js';
import type { FlagTable } from './option-table.js';

export const TABLE_STYLES = ['assay', 'lm-eval'] as const;
export type TableStyle = (typeof TABLE_STYLES)[number];

/** `run` and `merge`: which results table stdout gets. */
export const TABLE_FLAGS = {
  table: {
    value: '<style>',
    help: "assay: lm-eval's columns, then each metric's 95% interval and n, and a note on intervals wider than ±10 points | lm-eval: lm-eval's table exactly",
    parse: choice(TABLE_STYLES),
    default: 'assay' as TableStyle,
  },
} satisfies FlagTable;

/** Every command that draws progress: `--quiet` turns it off. */
export const QUIET_FLAGS = {
  quiet: {
    help: 'no progress and no information lines on stderr (warnings and errors still print)',
    parse: switchFlag,
  },
} satisfies FlagTable;
