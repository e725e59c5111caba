/**
 * summary.md: the suite's leaderboard for a reader. Per group, models by macro average (or by mean win
 * rate when the group mixes metrics) with their intervals and rank intervals; then each task's values
 * with interval and n; then the head-to-head pairs whose Holm-adjusted p is below 0.05; then what
 * difference each task can detect at its n.
 */
import type { SuiteSummary } from '../../results/suite-summary.js';

const number = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);
const interval = (value: [number, number] | null | undefined, digits = 3) =>
  value ? `[${number(value[0], digits)}, ${number(value[1], digits)}]` : '—';
const rank = (value: { point: number; best: number; worst: number } | null) =>
  value
    ? `${value.point} (${value.best === value.worst ? `${value.best}` : `${value.best}–${value.worst}`})`
    : '—';

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

export function summaryMarkdown(summary: SuiteSummary): string {
  const lines = [
    `# Suite ${summary.suite} (version ${summary.version})`,
    '',
    `Intervals are ${summary.confidence * 100}%. A rank is shown as point (best–worst): the interval holds for every model together (simultaneous intervals from ${summary.bootstrap_iterations} joint bootstrap draws over docs, seed ${summary.seed}); a rank interval wider than one place is a tie the data cannot break. Win-rate intervals hold for every model together in the same way.`,
    '',
  ];
  lines.push(
    '## Models',
    '',
    ...table(
      ['model', 'backend', 'cells done', 'failed', 'not run', 'seconds', 'cost (USD)'],
      summary.models.map((model) => [
        model.name,
        model.model,
        String(model.cells_done),
        String(model.cells_failed),
        String(model.cells_missing),
        number(model.seconds, 1),
        number(model.cost_usd, 4),
      ]),
    ),
    '',
  );
  for (const group of summary.groups) {
    lines.push(`## Group ${group.group}`, '', `Tasks: ${group.tasks.join(', ')}.`, '');
    if (group.macro_average_reason) lines.push(`No macro average: ${group.macro_average_reason}.`, '');
    const sorted = [...group.models].sort(
      (a, b) =>
        (b.macro_average?.value ?? -Infinity) - (a.macro_average?.value ?? -Infinity) ||
        (b.mean_win_rate ?? -Infinity) - (a.mean_win_rate ?? -Infinity),
    );
    lines.push(
      ...table(
        [
          'model',
          `macro average${group.metric ? ` (${group.metric})` : ''}`,
          '95% CI',
          'mean win rate',
          'win-rate interval',
          'rank',
        ],
        sorted.map((model) => [
          model.model,
          number(model.macro_average?.value),
          interval(model.macro_average?.ci),
          number(model.mean_win_rate),
          interval(model.win_rate_interval),
          rank(model.rank),
        ]),
      ),
      '',
    );
  }
  lines.push('## Tasks', '');
  for (const task of summary.tasks) {
    const cells = summary.cells.filter((cell) => cell.task === task.task);
    lines.push(
      `### ${task.task} (${task.metric}, ${task.higher_is_better ? 'higher' : 'lower'} is better)`,
      '',
      ...table(
        ['model', 'value', '95% CI', 'n', 'status', 'rank', 'latency p50 (ms)', 'cost (USD)'],
        cells.map((cell) => {
          const ranked = task.ranks.find((entry) => entry.model === cell.model);
          return [
            cell.model,
            number(cell.value),
            interval(cell.ci),
            cell.n === null ? '—' : String(cell.n),
            cell.status === 'ok' ? 'ok' : `**${cell.status}**${cell.reason ? `: ${cell.reason}` : ''}`,
            rank(ranked?.rank ?? null),
            number(cell.latency_p50_ms, 1),
            number(cell.cost_usd, 4),
          ];
        }),
      ),
      '',
      task.minimum_detectable_difference === null
        ? `Shared docs: ${task.shared_n}.`
        : `Shared docs: ${task.shared_n}; the smallest difference between two models this n detects (α = 0.05, power 0.8): ${number(task.minimum_detectable_difference)}.`,
      '',
    );
  }
  lines.push(
    '## Head to head',
    '',
    'Pairs whose difference is significant after Holm adjustment over their matrix (B − A):',
    '',
  );
  const significant = summary.head_to_head.flatMap((matrix) =>
    matrix.pairs
      .filter((pair) => pair.p_holm < 1 - summary.confidence)
      .map((pair) => [
        `${matrix.scope} ${matrix.name}`,
        pair.a,
        pair.b,
        String(pair.n),
        number(pair.difference),
        interval(pair.ci),
        pair.p_holm.toPrecision(3),
      ]),
  );
  lines.push(
    ...(significant.length
      ? table(['matrix', 'A', 'B', 'n', 'B − A', '95% CI', 'Holm p'], significant)
      : ['None: no pair differs significantly.']),
    '',
  );
  return `${lines.join('\n').trimEnd()}\n`;
}
