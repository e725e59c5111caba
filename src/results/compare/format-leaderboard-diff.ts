/** Text renderings of a LeaderboardDiff: an aligned table or Markdown, with what was not compared. */
import { type ComparisonFormat, fixed, renderGrid, signed } from './format-comparison.js';
import type { LeaderboardDiff } from './leaderboard-diff.js';

const interval = (ci: [number, number] | null) => (ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : 'n/a');

export function renderLeaderboardDiff(diff: LeaderboardDiff, format: ComparisonFormat): string {
  const out: string[] = [];
  out.push(`A: ${diff.a.file} (${diff.a.model})`);
  out.push(`B: ${diff.b.file} (${diff.b.model})`);
  out.push(
    'Leaderboards compared (no sample logs beside both runs, so no paired tests): Δ = B − A on each task’s primary metric; its 95% interval combines the two runs’ own intervals (MOVER; Newcombe’s method for accuracies), and "exceeds" means it excludes 0.',
  );
  out.push('');
  const headers = ['Task', 'Metric', 'A', 'B', 'Δ', '95% CI of Δ', 'Exceeds', 'Change'];
  const body = diff.tasks.map((row) => [
    row.task,
    `${row.metric},${row.filter}`,
    fixed(row.old),
    fixed(row.new),
    row.delta === null ? 'n/a' : signed(row.delta),
    interval(row.deltaCi),
    row.exceeds === null ? 'n/a' : row.exceeds ? 'yes' : 'no',
    row.change,
  ]);
  out.push(renderGrid(headers, body, format));
  out.push('');
  const { overall } = diff;
  out.push(
    `overall: A ${fixed(overall.old)}, B ${fixed(overall.new)}${overall.delta === null ? '' : `, Δ ${signed(overall.delta)}`}`,
  );
  for (const row of diff.tasks) if (row.note) out.push(`${row.task}: ${row.note}`);
  if (diff.onlyInA.length) out.push(`only in A: ${diff.onlyInA.join(', ')}`);
  if (diff.onlyInB.length) out.push(`only in B: ${diff.onlyInB.join(', ')}`);
  return `${out.join('\n').trimEnd()}\n`;
}
