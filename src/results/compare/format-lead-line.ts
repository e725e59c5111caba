/**
 * The plain-words line `assay compare` leads with, one per task or group row: how far B is from A, the
 * interval and the verdict of the row's one test (McNemar's for 0/1 scores, the sign-flip permutation
 * test otherwise: the interval inverts the test the verdict comes from), and, when nothing is detected,
 * the smallest change this n would have detected. Every number is a field of the row (the JSON report
 * has them all); this only words them.
 */
import { metricScale } from '../../metrics/scale.js';
import type { Adjustment, ComparisonRow, RunComparison } from './compare-runs.js';
import { formatPValue } from './verdict.js';

export const ADJUSTMENT_NAME: Record<Adjustment, string> = { holm: 'Holm', bh: 'Benjamini-Hochberg' };

/** What the lead line needs of its report besides the row. */
export type LeadContext = Pick<RunComparison, 'alpha' | 'power' | 'adjustment' | 'timeoutsAs'> & {
  /** Rows in the row's adjustment family (task rows, or group rows). */
  familySize: number;
};

const MINUS = '\u2212';

/** Differences of 0/1 scores and of metrics on [0, 1] read as percentage points. */
export function inPoints(row: Pick<ComparisonRow, 'binary' | 'metric'>): boolean {
  return row.binary || metricScale(row.metric) === '[0, 1]';
}

/** A magnitude: points with one decimal (two below 0.1 points), other scales with three significant digits. */
function magnitude(value: number, points: boolean): string {
  if (!Number.isFinite(value)) return '∞';
  if (!points) return String(Number(value.toPrecision(3)));
  const scaled = value * 100;
  return scaled.toFixed(scaled !== 0 && scaled < 0.1 ? 2 : 1);
}

function signedValue(value: number, points: boolean): string {
  const text = magnitude(Math.abs(value), points);
  if (Number(text.replace('∞', '1')) === 0) return text;
  return `${value < 0 ? MINUS : '+'}${text}`;
}

/** "B is 0.8 points below A" / "B is 0.0123 above A" / "B scores the same as A". */
export function differenceWords(row: ComparisonRow): string {
  const points = inPoints(row);
  if (row.difference === 0) return 'B scores the same as A';
  const unit = points ? ' points' : '';
  return `B is ${magnitude(Math.abs(row.difference), points)}${unit} ${row.difference > 0 ? 'above' : 'below'} A`;
}

/** The test behind the row's interval and verdict, named. */
export function primaryTestName(row: ComparisonRow): string {
  if (row.defaultTest === 'mcnemar' && row.mcnemar)
    return row.mcnemar.method === 'exact' ? "McNemar's exact test" : "McNemar's χ² test";
  return `sign-flip permutation test${row.permutation.method === 'exact' ? '' : ' (Monte Carlo)'}`;
}

function pText(row: ComparisonRow, context: LeadContext): string {
  return context.familySize > 1
    ? `${ADJUSTMENT_NAME[context.adjustment]}-adjusted p = ${formatPValue(row.pValueAdjusted)}`
    : `p = ${formatPValue(row.pValue)}`;
}

/** What the row's pairing left out or counted specially, said where the numbers are. */
function coverage(row: ComparisonRow, context: LeadContext): string {
  const notes: string[] = [];
  if (row.unpaired.a + row.unpaired.b > 0)
    notes.push(`${row.unpaired.a} only in A and ${row.unpaired.b} only in B left out`);
  if (row.unscored.a + row.unscored.b > 0)
    notes.push(`${row.unscored.a} errored in A and ${row.unscored.b} in B left out`);
  if (row.timedOut.a + row.timedOut.b > 0)
    notes.push(
      `${row.timedOut.a} timed out in A and ${row.timedOut.b} in B, ${context.timeoutsAs === 'wrong' ? 'counted as wrong' : 'left out'}`,
    );
  return notes.length ? `; ${notes.join('; ')}` : '';
}

export function leadLine(row: ComparisonRow, context: LeadContext): string {
  const points = inPoints(row);
  const unit = points ? ' points' : '';
  const pct = Math.round((1 - context.alpha) * 100);
  const filter = row.filter === 'none' ? '' : `, filter ${row.filter}`;
  const pooled = row.tasks ? ` pooled from ${row.tasks.join(', ')}` : '';
  const subject = `${row.kind === 'group' ? 'group ' : ''}${row.name} (${row.metric}${filter}, ${row.n} paired items${pooled}${coverage(row, context)})`;
  const [low, high] = row.interval;
  const interval = `${pct}% CI ${signedValue(low, points)} to ${signedValue(high, points)}`;
  const test = `${primaryTestName(row)}, ${pText(row, context)}`;
  let verdict: string;
  if (row.outcome === 'B better') verdict = `B is better (${test})`;
  else if (row.outcome === 'B worse') verdict = `B is worse (${test})`;
  else {
    const power = `${Math.round(context.power * 100)}% of the time`;
    const mde = row.minimumDetectableEffect;
    const detectable =
      mde === null || !Number.isFinite(mde)
        ? `at n = ${row.n} no change the scores leave room for would be seen ${power}`
        : `at n = ${row.n} only changes ≥ ${magnitude(mde, points)}${unit} would be seen ${power}${row.mdeVariance === 'accuracy-rho-0.5' ? ' (no item differs, so this assumes a per-item correlation of 0.5 between the runs)' : ''}`;
    verdict = `no detectable difference (${test}); ${detectable}`;
    // The interval is not adjusted for multiplicity; the verdict is.
    if (low > 0 || high < 0)
      verdict += `; the CI excludes 0, but p = ${formatPValue(row.pValue)} does not survive ${ADJUSTMENT_NAME[context.adjustment]}'s adjustment for ${context.familySize} ${row.kind === 'group' ? 'groups' : 'tasks'}`;
  }
  return `${subject}: ${differenceWords(row)} (${interval}): ${verdict}`;
}

/** The terms the lead lines use, spelled out once under them. */
export function leadTerms(report: RunComparison): string[] {
  const pct = Math.round((1 - report.alpha) * 100);
  const power = Math.round(report.power * 100);
  const adjustment = ADJUSTMENT_NAME[report.adjustment];
  const families =
    report.groups.length > 0
      ? `the ${report.tasks.length} task rows (group rows, which reuse the tasks' items, separately)`
      : `the ${report.tasks.length} task rows`;
  const adjusted =
    report.tasks.length > 1 || report.groups.length > 1
      ? `Verdicts use p-values adjusted for testing ${families} at once (${adjustment}${report.adjustment === 'holm' ? "'s method" : ''}), so that many tasks do not raise the chance of a false alarm; the CIs are not adjusted.`
      : undefined;
  return [
    'Samples paired by doc_hash and filter: each item is scored in both runs and compared item by item (a paired comparison, more sensitive than comparing the two averages). Every difference is B − A; a point is 0.01 of a score on [0, 1].',
    `Each line's ${pct}% CI (confidence interval) and verdict come from the same test: McNemar's test for 0/1 scores, the sign-flip permutation test otherwise; the CI excludes 0 exactly when that test's p < ${report.alpha}.`,
    ...(adjusted ? [adjusted] : []),
    `"Only changes ≥ X would be seen ${power}% of the time" is the MDE (minimum detectable effect): the smallest change this many items detect with ${power}% power at alpha ${report.alpha}. "No detectable difference" is not "no difference".`,
  ];
}
