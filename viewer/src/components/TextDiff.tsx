/** Word-level differences between two responses, marked in each; rendered as text nodes only. */
const MAX_TOKENS = 1500;

type Part = { text: string; changed: boolean };

function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/** Longest common subsequence over tokens; past MAX_TOKENS the whole text is marked changed. */
export function diffTokens(a: string, b: string): { left: Part[]; right: Part[] } {
  const x = tokens(a);
  const y = tokens(b);
  if (x.length > MAX_TOKENS || y.length > MAX_TOKENS) {
    return { left: [{ text: a, changed: a !== b }], right: [{ text: b, changed: a !== b }] };
  }
  const table: Uint16Array[] = Array.from({ length: x.length + 1 }, () => new Uint16Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const left: Part[] = [];
  const right: Part[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      left.push({ text: x[i++], changed: false });
      right.push({ text: y[j++], changed: false });
    } else if (j < y.length && (i === x.length || table[i][j + 1] >= table[i + 1][j])) {
      right.push({ text: y[j++], changed: true });
    } else {
      left.push({ text: x[i++], changed: true });
    }
  }
  return { left, right };
}

export function DiffText({ parts, side }: { parts: Part[]; side: 'left' | 'right' }) {
  return (
    <pre className="text">
      {parts.map((part, i) =>
        part.changed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts never reorder
          <mark key={i} className={side === 'left' ? 'removed' : 'added'}>
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </pre>
  );
}
