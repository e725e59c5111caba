/**
 * sacreBLEU's default `13a` tokenizer (the mteval-v13a.pl rules): drop `<skipped>`, join hyphenated line
 * breaks, unescape four XML entities, split punctuation and symbols, split `.`/`,` unless between digits,
 * split `-` after a digit, then collapse whitespace. The regexes are sacreBLEU's, run with Python semantics.
 */
import { compilePythonRegex, pythonSub } from '../python/semantics/regex.js';
import { pythonSplit } from '../python/semantics/string.js';

const RULES = [
  [compilePythonRegex('([\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/])'), ' \\1 '],
  [compilePythonRegex('([^0-9])([\\.,])'), '\\1 \\2 '],
  [compilePythonRegex('([\\.,])([^0-9])'), ' \\1 \\2'],
  [compilePythonRegex('([0-9])(-)'), '\\1 \\2 '],
] as const;

export function tokenize13a(text: string): string {
  let line = text.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  if (line.includes('&')) {
    line = line
      .replaceAll('&quot;', '"')
      .replaceAll('&amp;', '&')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>');
  }
  line = ` ${line} `;
  for (const [pattern, replacement] of RULES) line = pythonSub(pattern, replacement, line);
  return pythonSplit(line).join(' ');
}
