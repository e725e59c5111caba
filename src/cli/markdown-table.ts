/**
 * The markdown table `assay ls` prints: every cell padded with spaces to its column's width (in UTF-16 code
 * units, as the cells' `length`), between `|`, a dash rule under the headers, and a line break after each
 * line. Written straight into one buffer of its exact size: lm-eval's tree lists 13,000 rows (3.7 MB), and
 * a string built line by line, joined and then encoded for stdout (and for the kept listing) was copied
 * three times, most of it in code that runs once per command, before V8 optimizes it.
 */
const BAR = 124;
const DASH = 45;
const SPACE = 32;
const NEWLINE = 10;

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): Buffer {
  const columns = headers.length;
  const widths = headers.map((header) => header.length);
  // Bytes of every cell's text, beyond what the widths give: the UTF-8 bytes of non-ASCII characters.
  let size = 0;
  for (let row = 0; row < rows.length; row++) {
    const cells = rows[row];
    for (let column = 0; column < columns; column++) {
      const cell = cells[column];
      if (cell.length > widths[column]) widths[column] = cell.length;
      size += Buffer.byteLength(cell) - cell.length;
    }
  }
  for (const header of headers) size += Buffer.byteLength(header) - header.length;
  let lineBytes = columns + 2; // the bars and the line break
  for (const width of widths) lineBytes += width;
  size += lineBytes * (rows.length + 2);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  const line = (cells: readonly string[]) => {
    out[at++] = BAR;
    for (let column = 0; column < columns; column++) {
      const cell = cells[column];
      at += out.write(cell, at);
      for (let pad = widths[column] - cell.length; pad > 0; pad--) out[at++] = SPACE;
      out[at++] = BAR;
    }
    out[at++] = NEWLINE;
  };
  line(headers);
  out[at++] = BAR;
  for (let column = 0; column < columns; column++) {
    out.fill(DASH, at, at + widths[column]);
    at += widths[column];
    out[at++] = BAR;
  }
  out[at++] = NEWLINE;
  for (let row = 0; row < rows.length; row++) line(rows[row]);
  return out;
}
