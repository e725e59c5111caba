import { compareRuns } from '../results/compare/compare-runs.js';
import { checkErroredRuns } from '../results/compare/errored-runs.js';
import { type ComparisonFormat, renderComparison } from '../results/compare/format-comparison.js';
import { COMPARE_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { parseFlags } from './option-table.js';

export async function compareCommand(
  runA: string,
  runB: string,
  raw: Record<string, unknown>,
): Promise<number> {
  try {
    const { format, adjust, alpha, seed, tasks, metric, allow_errors } = parseFlags(COMPARE_FLAGS, raw);
    const warnings = checkErroredRuns(
      [
        { role: 'first', location: runA },
        { role: 'second', location: runB },
      ],
      { allowErrors: allow_errors === true, tasks },
    );
    for (const warning of warnings) process.stderr.write(`assay: warning: ${withFlagNames(warning)}\n`);
    const report = compareRuns(runA, runB, {
      tasks,
      metric,
      adjustment: adjust,
      alpha,
      seed,
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
