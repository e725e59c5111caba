/**
 * Python `str` semantics every stage shares (prompts, filters, metrics, the regex translation): what is
 * whitespace, what a character is, `strip`, `split`, `string.punctuation`. JS `trim()`/`split(/\s+/)` use a
 * different whitespace set (JS includes U+FEFF; Python includes U+001C–U+001F and U+0085), which changes
 * tokens and scores, so nothing in assay trims or splits text the JavaScript way where lm-eval uses Python.
 * Hand-written for that parity; this is the one implementation of each (strip, split, isspace).
 */
import { PythonError } from './errors.js';

/**
 * The characters for which Python's `str.isspace()` is true (Unicode White_Space plus the ASCII
 * separators \x1c-\x1f, without U+FEFF), as the source of a regex character class.
 */
export const PYTHON_WHITESPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PYTHON_WHITESPACE}]+`);
const TRAILING = new RegExp(`[${PYTHON_WHITESPACE}]+$`);
const RUN = new RegExp(`[${PYTHON_WHITESPACE}]+`);
const ONE = new RegExp(`^[${PYTHON_WHITESPACE}]$`);

/** Python's `string.punctuation`. */
export const PYTHON_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const SURROGATE = /[\uD800-\uDFFF]/;

/** Python's characters of a string: code points, not UTF-16 units. */
export function characters(text: string): string[] {
  return SURROGATE.test(text) ? Array.from(text) : text.split('');
}

/** Python's `len(text)`: code points. */
export function codePointLength(text: string): number {
  return SURROGATE.test(text) ? Array.from(text).length : text.length;
}

/**
 * Python's `text[index]` (code points, negative indexes from the end); undefined where Python raises
 * IndexError. Without astral characters a UTF-16 unit is a code point, so no character array is built.
 */
export function characterAt(text: string, index: number): string | undefined {
  if (SURROGATE.test(text)) {
    const items = Array.from(text);
    const position = index < 0 ? index + items.length : index;
    return position >= 0 && position < items.length ? items[position] : undefined;
  }
  const position = index < 0 ? index + text.length : index;
  return position >= 0 && position < text.length ? text[position] : undefined;
}

/** `char.isspace()` for one character. */
export function isSpace(char: string): boolean {
  return ONE.test(char);
}

/** `text.strip(chars)`, `lstrip` (side `left`) and `rstrip` (side `right`); no chars: whitespace. */
export function pythonStrip(
  text: string,
  chars?: string | null,
  side: 'both' | 'left' | 'right' = 'both',
): string {
  if (chars === null || chars === undefined) {
    let result = text;
    if (side !== 'right') result = result.replace(LEADING, '');
    if (side !== 'left') result = result.replace(TRAILING, '');
    return result;
  }
  const set = new Set(characters(chars));
  const items = characters(text);
  let from = 0;
  let to = items.length;
  if (side !== 'right') while (from < to && set.has(items[from])) from++;
  if (side !== 'left') while (to > from && set.has(items[to - 1])) to--;
  return items.slice(from, to).join('');
}

/**
 * `text.split(sep=None, maxsplit=-1)`: without a separator, runs of whitespace split and no empty
 * strings come out.
 */
export function pythonSplit(text: string, separator?: string | null, maxsplit = -1): string[] {
  if (separator === null || separator === undefined) {
    const result: string[] = [];
    let rest = text.replace(LEADING, '');
    while (rest.length > 0) {
      if (maxsplit >= 0 && result.length >= maxsplit) {
        result.push(rest); // Python keeps the remainder's trailing whitespace
        break;
      }
      const match = RUN.exec(rest);
      if (!match) {
        result.push(rest);
        break;
      }
      result.push(rest.slice(0, match.index));
      rest = rest.slice(match.index + match[0].length);
    }
    return result;
  }
  if (separator === '') throw new PythonError('ValueError', 'empty separator');
  const parts = text.split(separator);
  if (maxsplit >= 0 && parts.length > maxsplit + 1) {
    return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(separator)];
  }
  return parts;
}

/** `text.translate(str.maketrans('', '', characters))`: removes every character in `characters`. */
export function removeCharacters(text: string, characters: string): string {
  let output = '';
  for (const character of text) if (!characters.includes(character)) output += character;
  return output;
}
