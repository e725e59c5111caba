import { type ReactNode, useEffect, useRef, useState } from 'react';

interface Props {
  count: number;
  rowHeight: number;
  height: number;
  /** Called with the visible range so the owner can fetch those rows' page. */
  onRange?: (first: number, last: number) => void;
  renderRow: (index: number) => ReactNode;
  testId?: string;
}

const OVERSCAN = 10;

/** Only the rows in view (plus a few) are in the DOM, so 100,000 rows cost what 40 do. */
export function VirtualList({ count, rowHeight, height, onRange, renderRow, testId }: Props) {
  const [scrollTop, setScrollTop] = useState(0);
  const container = useRef<HTMLDivElement>(null);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  useEffect(() => {
    onRange?.(first, last);
  }, [first, last, onRange]);
  useEffect(() => {
    // A new query starts at the top.
    if (count === 0 && container.current) container.current.scrollTop = 0;
  }, [count]);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div
        key={i}
        className="virtual-row"
        style={{ position: 'absolute', top: i * rowHeight, height: rowHeight, left: 0, right: 0 }}
      >
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={container}
      className="virtual-list"
      data-testid={testId}
      style={{ height, overflowY: 'auto', position: 'relative' }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div style={{ height: count * rowHeight, position: 'relative' }}>{rows}</div>
    </div>
  );
}
