/**
 * Python string semantics the built-in task modules need, so their output matches lm-eval's utils.py
 * byte for byte. Self-contained on purpose: task modules are loaded from source by tsx, in the package
 * and in a user's copy, and must not reach into assay's internals.
 */

/** Characters Python's str.isspace() accepts, which str.strip() removes (JS trim() misses \x1c-\x1f). */
const PY_WHITESPACE =
  '\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PY_WHITESPACE.includes(text[start])) start++;
  while (end > start && PY_WHITESPACE.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

/** Python's `\s` in a str pattern is exactly isspace(); JS's `\s` differs (adds \ufeff, lacks \x1c-\x1f). */
export const PY_SPACE_CLASS = `[${PY_WHITESPACE.replace(/[\\\]^-]/g, '\\$&')}]`;

/** str.capitalize(): first character upper-cased, the rest lower-cased. */
export function pyCapitalize(text: string): string {
  if (text.length === 0) return text;
  const first = String.fromCodePoint(text.codePointAt(0) as number);
  return first.toUpperCase() + text.slice(first.length).toLowerCase();
}
