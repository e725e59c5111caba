/** summary.csv: one row per model × task, the cells of the summary as a spreadsheet reads them. */
import type { SuiteSummary } from '../../results/suite-summary.js';

const COLUMNS = [
  'model',
  'task',
  'task_set',
  'metric',
  'value',
  'ci_low',
  'ci_high',
  'n',
  'status',
  'errored_samples',
  'latency_p50_ms',
  'cost_usd',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function summaryCsv(summary: SuiteSummary): string {
  const rows = summary.cells.map((cell) =>
    [
      cell.model,
      cell.task,
      cell.task_set,
      cell.metric,
      cell.value,
      cell.ci?.[0],
      cell.ci?.[1],
      cell.n,
      cell.status,
      cell.errored_samples,
      cell.latency_p50_ms,
      cell.cost_usd,
    ]
      .map(field)
      .join(','),
  );
  return `${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
