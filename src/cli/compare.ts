import { AssayError } from '../errors.js';
import { type Adjustment, compareRuns } from '../results/compare/compare-runs.js';
import { checkErroredRuns } from '../results/compare/errored-runs.js';
import { type ComparisonFormat, renderComparison } from '../results/compare/format-comparison.js';
import { reportError } from './errors.js';
import { numberFlag, probabilityFlag, splitList } from './flag-values.js';

const FORMATS = ['table', 'json', 'markdown'];
const ADJUSTMENTS = ['holm', 'bh'];

export async function compareCommand(
  runA: string,
  runB: string,
  flags: Record<string, unknown>,
): Promise<number> {
  try {
    const format = String(flags.format ?? 'table');
    if (!FORMATS.includes(format))
      throw new AssayError('bad_argument', `--format must be one of ${FORMATS.join(', ')}, got "${format}"`);
    const adjustment = String(flags.adjust ?? 'holm');
    if (!ADJUSTMENTS.includes(adjustment))
      throw new AssayError('bad_argument', `--adjust must be holm or bh, got "${adjustment}"`);
    const warnings = checkErroredRuns(
      [
        { role: 'first', location: runA },
        { role: 'second', location: runB },
      ],
      { allowErrors: flags.allow_errors === true, tasks: splitList(flags.tasks) },
    );
    for (const warning of warnings) process.stderr.write(`assay: warning: ${warning}\n`);
    const report = compareRuns(runA, runB, {
      tasks: splitList(flags.tasks),
      metric: flags.metric === undefined ? undefined : String(flags.metric),
      adjustment: adjustment as Adjustment,
      alpha: probabilityFlag(flags.alpha, '--alpha'),
      seed: numberFlag(flags.seed, '--seed'),
    });
    process.stdout.write(
      format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : renderComparison(report, format as ComparisonFormat),
    );
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
