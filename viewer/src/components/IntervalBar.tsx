interface Props {
  /** The interval's ends and the point, on the scale [min, max]. */
  lo: number;
  hi: number;
  point: number | null;
  min: number;
  max: number;
  title: string;
  testId?: string;
  /**
   * Draw on one element of this many pixels (the interval and the point as background layers) instead of
   * three: the 1,200 cells of a 20 × 60 task matrix.
   */
  compactWidth?: number;
}

const share = (value: number, min: number, max: number) =>
  max === min ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min))) * 100;

/**
 * An interval drawn on a small track: the bar spans [lo, hi] of [min, max], the tick is the point. Plain
 * positioned spans (no SVG): a 20 × 60 leaderboard draws 1,200 of them.
 */
export function IntervalBar({ lo, hi, point, min, max, title, testId, compactWidth }: Props) {
  const left = share(lo, min, max);
  const right = share(hi, min, max);
  if (compactWidth !== undefined) {
    const px = (percent: number) => (percent / 100) * compactWidth;
    const layers = [
      point === null
        ? null
        : `linear-gradient(#1d2939, #1d2939) no-repeat ${px(share(point, min, max)) - 1}px 0 / 2px 100%`,
      `linear-gradient(#84adff, #84adff) no-repeat ${px(left)}px 3px / ${Math.max(px(right) - px(left), 2)}px 4px`,
      '#f2f4f7',
    ].filter(Boolean);
    return (
      <span
        className="interval-bar compact"
        title={title}
        data-testid={testId}
        data-lo={lo}
        data-hi={hi}
        data-point={point ?? undefined}
        style={{ width: compactWidth, background: layers.join(', ') }}
      />
    );
  }
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
