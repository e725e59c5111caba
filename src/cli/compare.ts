import { AssayError } from '../errors.js';
import { compareRuns } from '../results/compare/compare-runs.js';
import { checkErroredRuns } from '../results/compare/errored-runs.js';
import {
  type ComparisonFormat,
  renderComparison,
  withSummaries,
} from '../results/compare/format-comparison.js';
import { renderLeaderboardDiff } from '../results/compare/format-leaderboard-diff.js';
import { diffLeaderboards, resolveComparison } from '../results/compare/leaderboard-diff.js';
import { COMPARE_FLAGS } from './command-flags.js';
import { reportError, withFlagNames } from './errors.js';
import { parseFlags } from './option-table.js';

export async function compareCommand(
  runA: string,
  runB: string,
  raw: Record<string, unknown>,
): Promise<number> {
  try {
    const { format, adjust, alpha, seed, tasks, metric, allow_errors, timeouts_as, verbose } = parseFlags(
      COMPARE_FLAGS,
      raw,
    );
    const resolved = resolveComparison(runA, runB);
    if (resolved.mode === 'leaderboards') {
      // No sample logs beside both runs: what moved, from each run's leaderboard (issue 20).
      if (metric !== undefined) {
        throw new AssayError(
          'bad_option',
          '--metric needs sample logs beside both runs; without them compare reads each task’s primary metric from the leaderboards',
        );
      }
      const diff = diffLeaderboards(resolved.a, resolved.b);
      if (tasks) diff.tasks = diff.tasks.filter((row) => tasks.includes(row.task));
      process.stdout.write(
        format === 'json'
          ? `${JSON.stringify(diff, null, 2)}\n`
          : renderLeaderboardDiff(diff, format as ComparisonFormat),
      );
      return 0;
    }
    const warnings = checkErroredRuns(
      [
        { role: 'first', location: resolved.resultsA },
        { role: 'second', location: resolved.resultsB },
      ],
      { allowErrors: allow_errors === true, timeoutsAs: timeouts_as, tasks },
    );
    for (const warning of warnings) process.stderr.write(`assay: warning: ${withFlagNames(warning)}\n`);
    const report = compareRuns(resolved.resultsA, resolved.resultsB, {
      tasks,
      metric,
      adjustment: adjust,
      alpha,
      seed,
      timeoutsAs: timeouts_as,
    });
    if (format === 'json') process.stdout.write(`${JSON.stringify(withSummaries(report), null, 2)}\n`);
    else {
      process.stdout.write(renderComparison(report, format, { verbose: verbose === true }));
      if (verbose !== true)
        process.stdout.write(
          `${format === 'markdown' ? '\n' : ''}Every test (paired t, Wilcoxon, permutation, bootstrap), the flips and the per-item correlation: --verbose; every field: --format json.\n`,
        );
    }
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
