/**
 * Text renderings of a RunComparison, plain text or Markdown: a line in plain words per row
 * (format-lead-line.ts), and with `verbose` the aligned table and each row's details.
 */

import type { ComparisonRow, RunComparison } from './compare-runs.js';
import { ADJUSTMENT_NAME, leadLine, leadTerms } from './format-lead-line.js';
import { formatJudgeAgreement, type JudgeAgreement } from './judge-match.js';
import { formatPValue } from './verdict.js';

export type ComparisonFormat = 'table' | 'markdown';

/** Doc ids listed per flip direction in text output (JSON lists them all). */
const LISTED_IDS = 20;

export const fixed = (value: number | null | undefined, digits = 4) =>
  value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
export const signed = (value: number) => (value > 0 ? `+${value.toFixed(4)}` : value.toFixed(4));
const limit = (value: number) => (Number.isFinite(value) ? signed(value) : value > 0 ? '+∞' : '−∞');
const interval = ([low, high]: [number, number]) => `[${limit(low)}, ${limit(high)}]`;

function intervalLabel(row: ComparisonRow): string {
  if (row.intervalMethod === 'sign-flip-permutation') return 'inverted sign-flip permutation test';
  const shift = row.intervalContinuity ?? 0;
  return shift === 0
    ? 'Tango score interval'
    : `Tango score interval, continuity shift ${shift.toFixed(2)} to match McNemar`;
}

function testLabel(row: ComparisonRow): string {
  if (row.defaultTest === 'mcnemar' && row.mcnemar)
    return `McNemar ${row.mcnemar.method === 'exact' ? 'exact' : 'χ² cc'}`;
  return `permutation ${row.permutation.method === 'exact' ? 'exact' : 'MC'}`;
}

function summaryRow(row: ComparisonRow): string[] {
  return [
    row.name,
    `${row.metric},${row.filter}`,
    String(row.n),
    fixed(row.meanA),
    fixed(row.meanB),
    signed(row.difference),
    interval(row.interval),
    fixed(row.correlation, 3),
    testLabel(row),
    formatPValue(row.pValue),
    formatPValue(row.pValueAdjusted),
    row.verdict,
  ];
}

export function renderGrid(headers: string[], body: string[][], format: ComparisonFormat): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...body.map((row) => row[column].length)),
  );
  const line = (cells: string[]) =>
    format === 'markdown'
      ? `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`
      : cells
          .map((cell, i) => cell.padEnd(widths[i]))
          .join('  ')
          .trimEnd();
  const rule =
    format === 'markdown'
      ? `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`
      : widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(headers), rule, ...body.map(line)].join('\n');
}

function ids(list: Array<number | string>): string {
  const shown = list.slice(0, LISTED_IDS).join(', ');
  return list.length > LISTED_IDS
    ? `${shown}, … (${list.length - LISTED_IDS} more; the JSON report lists all)`
    : shown || '-';
}

/** Timed-out docs, said plainly: how many, and what they counted as. */
function timedOutText(row: ComparisonRow, treatment: RunComparison['timeoutsAs']): string {
  const { a, b } = row.timedOut;
  if (a + b === 0) return '';
  const counted = treatment === 'wrong' ? 'each counted as wrong' : 'left out of every test';
  return `; timed out (over the latency cap) ${a} in A, ${b} in B, ${counted}`;
}

/** A judge metric's judge and its agreement with each run's labelled slice, read beside the difference. */
function judgeLine(judge: NonNullable<ComparisonRow['judge']>): string {
  const shown = (agreements: JudgeAgreement[] | null) =>
    agreements ? agreements.map(formatJudgeAgreement).join('; ') : formatJudgeAgreement(null);
  return `judge ${judge.model} (rubric sha256 ${judge.rubricSha256.slice(0, 12)}), the same in both runs; agreement with the labelled slice: run A ${shown(judge.agreement.a)}; run B ${shown(judge.agreement.b)}`;
}

function details(row: ComparisonRow, level: number, treatment: RunComparison['timeoutsAs']): string[] {
  const lines: string[] = [];
  const pct = Math.round(level * 100);
  lines.push(
    `${row.kind === 'group' ? 'group ' : ''}${row.name} (${row.metric}, filter ${row.filter}): n = ${row.n} pairs; unpaired ${row.unpaired.a} in A, ${row.unpaired.b} in B; unscored ${row.unscored.a} in A, ${row.unscored.b} in B${timedOutText(row, treatment)}${row.tasks ? `; pooled over ${row.tasks.join(', ')}` : ''}`,
  );
  lines.push(
    `  mean A ${fixed(row.meanA)}, mean B ${fixed(row.meanB)}, B − A ${signed(row.difference)}, paired SE ${fixed(row.standardError)} (unpaired would be ${fixed(row.unpairedStandardError)}), ${pct}% CI ${interval(row.interval)} (${intervalLabel(row)}), correlation ${fixed(row.correlation, 3)}`,
  );
  if (row.mcnemar) {
    const m = row.mcnemar;
    lines.push(
      `  McNemar: ${m.discordant} discordant (A right→B wrong ${m.n01}, A wrong→B right ${m.n10}); ${m.method === 'exact' ? 'exact binomial' : 'χ² with continuity correction'} p = ${formatPValue(m.pValue)}, exact p = ${formatPValue(m.exactPValue)}, mid-p = ${formatPValue(m.midPValue)}`,
    );
  }
  lines.push(
    row.tTest.zeroVariance
      ? '  paired t: undefined (every paired difference is the same)'
      : `  paired t: t = ${row.tTest.t.toFixed(3)}, df = ${row.tTest.degreesOfFreedom}, p = ${row.tTest.pValue === null ? 'n/a' : formatPValue(row.tTest.pValue)}`,
  );
  const wilcoxon = (['wilcox', 'pratt', 'zsplit'] as const)
    .map((method) => {
      const result = row.wilcoxon[method];
      return result
        ? `${method} p = ${formatPValue(result.pValue)} (${result.method})`
        : `${method} n/a (no nonzero differences)`;
    })
    .join('; ');
  lines.push(`  Wilcoxon signed-rank: ${wilcoxon}`);
  lines.push(
    `  sign-flip permutation: p = ${formatPValue(row.permutation.pValue)} (${row.permutation.method === 'exact' ? `exact, ${row.permutation.patterns} patterns` : `Monte Carlo, ${row.permutation.patterns} resamples`})`,
  );
  if (row.bootstrap)
    lines.push(
      `  paired bootstrap ${pct}% CI ${interval(row.bootstrap.interval)} (${row.bootstrap.iterations} resamples, seed ${row.bootstrap.seed})`,
    );
  if (row.flips) {
    lines.push(
      `  flips A right→B wrong (${row.flips.rightToWrong.count}): ${ids(row.flips.rightToWrong.docIds)}`,
    );
    lines.push(
      `  flips A wrong→B right (${row.flips.wrongToRight.count}): ${ids(row.flips.wrongToRight.docIds)}`,
    );
  }
  if (row.judge) lines.push(`  ${judgeLine(row.judge)}`);
  lines.push(`  verdict: ${row.verdict}`);
  return lines;
}

export interface RenderComparisonOptions {
  /** Every test, the flips and the correlation: the full table and each row's details. */
  verbose?: boolean;
}

/** Each row's lead line, as the JSON report carries it (`summary`). */
export function withSummaries(report: RunComparison): RunComparison & {
  tasks: Array<ComparisonRow & { summary: string }>;
  groups: Array<ComparisonRow & { summary: string }>;
} {
  const summarize = (rows: ComparisonRow[]) =>
    rows.map((row) => ({ ...row, summary: leadLine(row, { ...report, familySize: rows.length }) }));
  return { ...report, tasks: summarize(report.tasks), groups: summarize(report.groups) };
}

/**
 * A comparison in plain words first: one line per task and group row, then the terms they use. With
 * `verbose`, the full battery follows: the table of every row, each row's tests, flips and correlation.
 */
export function renderComparison(
  report: RunComparison,
  format: ComparisonFormat,
  options: RenderComparisonOptions = {},
): string {
  const out: string[] = [];
  const model = (run: RunComparison['runA']) => `${run.resultsFile}${run.model ? ` (${run.model})` : ''}`;
  out.push(`A: ${model(report.runA)}`);
  out.push(`B: ${model(report.runB)}`);
  const late = report.tasks.reduce(
    (total, row) => ({ a: total.a + row.timedOut.a, b: total.b + row.timedOut.b }),
    { a: 0, b: 0 },
  );
  if (late.a + late.b > 0)
    out.push(
      `Timed-out docs (over the latency cap): ${late.a} in A, ${late.b} in B, ${report.timeoutsAs === 'wrong' ? 'each counted as wrong' : 'left out: the tests cover the docs answered in both runs'}.`,
    );
  out.push('');
  const bullet = format === 'markdown' ? '- ' : '';
  const { tasks, groups } = withSummaries(report);
  for (const row of [...tasks, ...groups]) {
    out.push(`${bullet}${row.summary}`);
    if (row.judge) out.push(`  ${judgeLine(row.judge)}`);
  }
  for (const entry of report.skipped) out.push(`${bullet}skipped ${entry.task}: ${entry.reason}`);
  out.push('');
  // Markdown joins adjacent lines into one paragraph.
  out.push(leadTerms(report).join(format === 'markdown' ? '\n\n' : '\n'));
  if (!options.verbose) return `${out.join('\n').trimEnd()}\n`;
  out.push('');
  const label = ADJUSTMENT_NAME[report.adjustment];
  out.push(
    `The full battery. p is the test of each line above (McNemar for 0/1 scores, sign-flip permutation otherwise) and the CI inverts it; p_adj is ${label} across the ${report.tasks.length} task rows${report.groups.length ? ' (group rows adjusted separately)' : ''}; r is the Pearson correlation of the two runs' per-item scores (the higher it is, the more pairing gains over comparing averages); the other tests are shown for reference and do not decide the verdicts. alpha = ${report.alpha}.`,
  );
  out.push('');
  const headers = [
    'Task',
    'Metric',
    'n',
    'A',
    'B',
    'B − A',
    `${Math.round((1 - report.alpha) * 100)}% CI`,
    'r',
    'Test',
    'p',
    'p_adj',
    'Verdict',
  ];
  out.push(renderGrid(headers, report.tasks.map(summaryRow), format));
  if (report.groups.length) {
    out.push('');
    out.push(renderGrid(['Group', ...headers.slice(1)], report.groups.map(summaryRow), format));
  }
  out.push('');
  for (const row of [...report.tasks, ...report.groups])
    out.push(...details(row, 1 - report.alpha, report.timeoutsAs), '');
  return `${out.join('\n').trimEnd()}\n`;
}
