export interface ForestRow {
  label: string;
  value: number | null;
  lo: number | null;
  hi: number | null;
}

interface Props {
  rows: ForestRow[];
  title: string;
  /** Draw a dashed line here (0 for differences). */
  reference?: number;
  testId?: string;
}

const ROW = 24;
const LABEL = 260;
const PLOT = 420;
const VALUE = 170;

function niceTicks(lo: number, hi: number): number[] {
  const span = hi - lo || 1;
  const step = 10 ** Math.floor(Math.log10(span / 4));
  const multiple = [1, 2, 5, 10].find((m) => span / (m * step) <= 6) ?? 10;
  const size = multiple * step;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / size) * size; t <= hi + 1e-12; t += size) ticks.push(Number(t.toFixed(10)));
  return ticks;
}

/** Points with 95% interval whiskers, one row each; plain SVG. Rows without an interval show the point only. */
export function ForestPlot({ rows, title, reference, testId }: Props) {
  const finite = rows
    .flatMap((row) => [row.value, row.lo, row.hi])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  if (reference !== undefined) finite.push(reference);
  let lo = finite.length ? Math.min(...finite) : 0;
  let hi = finite.length ? Math.max(...finite) : 1;
  if (reference === undefined && lo >= 0 && hi <= 1) {
    lo = 0;
    hi = 1;
  }
  if (hi === lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const x = (v: number) => LABEL + ((v - lo) / (hi - lo)) * PLOT;
  const height = rows.length * ROW + 50;
  const ticks = niceTicks(lo, hi);
  return (
    <figure className="plot" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <svg width={LABEL + PLOT + VALUE} height={height} role="img" aria-label={title}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={10} y2={height - 30} className="grid" />
            <text x={x(t)} y={height - 12} textAnchor="middle" className="tick">
              {t}
            </text>
          </g>
        ))}
        {reference !== undefined && (
          <line x1={x(reference)} x2={x(reference)} y1={6} y2={height - 30} className="reference" />
        )}
        {rows.map((row, i) => {
          const y = 20 + i * ROW;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat and rows never reorder
            <g key={`${row.label}-${i}`} className="forest-row">
              <text x={LABEL - 8} y={y + 4} textAnchor="end" className="label">
                {row.label.length > 38 ? `${row.label.slice(0, 37)}…` : row.label}
              </text>
              {row.lo !== null && row.hi !== null && (
                <line x1={x(row.lo)} x2={x(row.hi)} y1={y} y2={y} className="whisker" />
              )}
              {row.lo !== null && (
                <line x1={x(row.lo)} x2={x(row.lo)} y1={y - 5} y2={y + 5} className="whisker" />
              )}
              {row.hi !== null && (
                <line x1={x(row.hi)} x2={x(row.hi)} y1={y - 5} y2={y + 5} className="whisker" />
              )}
              {row.value !== null && (
                <rect x={x(row.value) - 4} y={y - 4} width={8} height={8} className="point" />
              )}
              <text x={LABEL + PLOT + 10} y={y + 4} className="value">
                {row.value === null ? '—' : row.value.toFixed(3)}
                {row.lo !== null && row.hi !== null ? ` [${row.lo.toFixed(3)}, ${row.hi.toFixed(3)}]` : ''}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
