import { describe, expect, it } from 'vitest';
import { markdownTable } from './markdown-table.js';

// The table as its definition states it: each cell padded to its column's widest cell (String.padEnd counts
// UTF-16 code units, as `length` does), a dash rule of each width, lines joined by line breaks.
function reference(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells: string[]) => `|${cells.map((cell, column) => cell.padEnd(widths[column])).join('|')}|`;
  return [line(headers), `|${widths.map((width) => '-'.repeat(width)).join('|')}|`, ...rows.map(line)].join(
    '\n',
  );
}

describe('markdownTable', () => {
  it('pads each cell to its column', () => {
    const table = markdownTable(
      ['Task', 'Output Type'],
      [
        ['arc_easy', 'multiple_choice'],
        ['gsm8k', 'generate_until'],
      ],
    );
    expect(table).toBe(
      '|Task    |Output Type    |\n|--------|---------------|\n|arc_easy|multiple_choice|\n|gsm8k   |generate_until |',
    );
  });

  it('pads non-ASCII cells by their length in code units', () => {
    const headers = ['Name', 'Config'];
    const rows = [
      ['café', 'tâches/é.yaml'],
      ['数学', '😀/x.yaml'],
      ['', ''],
    ];
    expect(markdownTable(headers, rows)).toBe(reference(headers, rows));
  });

  it('has only the headers and the rule without rows, widths from the headers', () => {
    expect(markdownTable(['Tag', 'Tasks'], [])).toBe('|Tag|Tasks|\n|---|-----|');
  });

  it('agrees with its definition over seeded random tables', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = ['a', 'Z', '_', '.', '-', '/', ' ', 'é', 'ß', '数', '😀', '|'];
    const cell = () =>
      Array.from(
        { length: Math.floor(random() * 12) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    for (let trial = 0; trial < 50; trial++) {
      const columns = 1 + Math.floor(random() * 4);
      const headers = Array.from({ length: columns }, cell);
      const rows = Array.from({ length: Math.floor(random() * 20) }, () =>
        Array.from({ length: columns }, cell),
      );
      expect(markdownTable(headers, rows)).toBe(reference(headers, rows));
    }
  });
});
