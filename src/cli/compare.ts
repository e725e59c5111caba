import { AssayError } from '../errors.js';
import { type Adjustment, compareRuns } from '../results/compare/compare-runs.js';
import { checkErroredRuns } from '../results/compare/errored-runs.js';
import { type ComparisonFormat, renderComparison } from '../results/compare/format-comparison.js';
import { renderLeaderboardDiff } from '../results/compare/format-leaderboard-diff.js';
import { diffLeaderboards, resolveComparison } from '../results/compare/leaderboard-diff.js';
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
    const resolved = resolveComparison(runA, runB);
    const tasks = splitList(flags.tasks);
    if (resolved.mode === 'leaderboards') {
      // No sample logs beside both runs: what moved, from each run's leaderboard (issue 20).
      if (flags.metric !== undefined) {
        throw new AssayError(
          'bad_argument',
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
      { allowErrors: flags.allow_errors === true, tasks },
    );
    for (const warning of warnings) process.stderr.write(`assay: warning: ${warning}\n`);
    const report = compareRuns(resolved.resultsA, resolved.resultsB, {
      tasks,
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
