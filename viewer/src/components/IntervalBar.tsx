interface Props {
  /** The interval's ends and the point, on the scale [min, max]. */
  lo: number;
  hi: number;
  point: number | null;
  min: number;
  max: number;
  title: string;
  testId?: string;
}

const share = (value: number, min: number, max: number) =>
  max === min ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min))) * 100;

/**
 * An interval drawn on a small track: the bar spans [lo, hi] of [min, max], the tick is the point. Plain
 * positioned spans (no SVG): a 20 × 60 leaderboard draws 1,200 of them.
 */
export function IntervalBar({ lo, hi, point, min, max, title, testId }: Props) {
  const left = share(lo, min, max);
  const right = share(hi, min, max);
  return (
    <span
      className="interval-bar"
      title={title}
      data-testid={testId}
      data-lo={lo}
      data-hi={hi}
      data-point={point ?? undefined}
    >
      <span className="interval-span" style={{ left: `${left}%`, width: `${Math.max(right - left, 0)}%` }} />
      {point !== null && <span className="interval-point" style={{ left: `${share(point, min, max)}%` }} />}
    </span>
  );
}
