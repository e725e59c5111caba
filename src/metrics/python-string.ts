/**
 * Python `str` behaviour that metrics and filters depend on. JS `trim()`/`split(/\s+/)` use a different
 * whitespace set (JS includes U+FEFF; Python includes U+001C–U+001F and U+0085), which changes tokens.
 */

/** The characters for which Python's `str.isspace()` is true. */
const PYTHON_WHITESPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PYTHON_WHITESPACE}]+`);
const TRAILING = new RegExp(`[${PYTHON_WHITESPACE}]+$`);
const RUNS = new RegExp(`[${PYTHON_WHITESPACE}]+`);

/** Python's `string.punctuation`. */
export const PYTHON_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** `s.strip()` */
export function pythonStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** `s.lstrip()` */
export function pythonLstrip(text: string): string {
  return text.replace(LEADING, '');
}

/** `s.rstrip()` */
export function pythonRstrip(text: string): string {
  return text.replace(TRAILING, '');
}

/** `s.split()` with no separator: runs of whitespace split, and no empty strings. */
export function pythonSplit(text: string): string[] {
  const stripped = pythonStrip(text);
  return stripped === '' ? [] : stripped.split(RUNS);
}

/** `s.translate(str.maketrans('', '', characters))`: removes every character in `characters`. */
export function removeCharacters(text: string, characters: string): string {
  let output = '';
  for (const character of text) if (!characters.includes(character)) output += character;
  return output;
}
