/**
 * Seeded mutations of YAML text, for checking a reader of a YAML subset against js-yaml: each mutant is
 * the text with one to three edits of the kinds that move text in or out of YAML's grammar (an indicator
 * inserted, a character deleted, a line re-indented, duplicated, dropped or swapped, a fragment such as
 * `: `, `- `, ` #` or a document marker inserted, a blank line of spaces added).
 */
import { FastRandom } from '../../src/stats/fast-random.js';

const CHARACTERS = [
  ...' \n:-#"\'\\|>[]{},!&*?%@`.a0~+_/',
  'é',
  '\t',
  '\r',
  '\u0085',
  '\u2028',
  '\uFEFF',
  '\u0000',
  '\uD800',
];
const FRAGMENTS = [
  '\n  ',
  '\n ',
  ': ',
  ':',
  '- ',
  '-',
  '---',
  '...',
  ' #',
  '\n#x\n',
  '\n    # c\n',
  '\n\n',
  '\n      \n',
  '\n   \n',
  '\n  - x\n',
  '\n  k: v\n',
  ' |\n  a\n',
  '"',
  "''",
  '\\x4',
  '\\q',
  'yes',
  'null',
  '!function ',
  '!!null ',
  '<<: ',
  '&a ',
  '*a',
];

function pick<T>(random: FastRandom, items: readonly T[]): T {
  return items[Math.floor(random.nextDouble() * items.length)] as T;
}

function edit(text: string, random: FastRandom): string {
  const at = Math.floor(random.nextDouble() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(random.nextDouble() * lines.length);
  switch (Math.floor(random.nextDouble() * 10)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + pick(random, CHARACTERS) + text.slice(at);
    case 2:
      return text.slice(0, at) + pick(random, FRAGMENTS) + text.slice(at);
    case 3:
      lines[line] = ' '.repeat(1 + Math.floor(random.nextDouble() * 2)) + lines[line];
      return lines.join('\n');
    case 4:
      lines[line] = (lines[line] as string).replace(/^ {1,2}/, '');
      return lines.join('\n');
    case 5:
      lines.splice(line, 0, lines[line] as string);
      return lines.join('\n');
    case 6:
      lines.splice(line, 1);
      return lines.join('\n');
    case 7:
      if (line + 1 < lines.length)
        [lines[line], lines[line + 1]] = [lines[line + 1] as string, lines[line] as string];
      return lines.join('\n');
    case 8:
      // A blank line of spaces (deeper than a block scalar's text, or not).
      lines.splice(line + 1, 0, ' '.repeat(Math.floor(random.nextDouble() * 7)));
      return lines.join('\n');
    default: {
      // A value replaced: the part of a line after its first `: `.
      const current = lines[line] as string;
      const colon = current.indexOf(': ');
      if (colon < 0) return text;
      lines[line] =
        current.slice(0, colon + 2) +
        pick(random, [...FRAGMENTS, 'x', '1', 'True', '"a"', "'b'", '[a, b]', '{a: b}', '|']);
      return lines.join('\n');
    }
  }
}

/** `count` mutants of `text`, from `seed`. */
export function yamlMutants(text: string, seed: number, count: number): string[] {
  const random = new FastRandom(seed);
  const mutants: string[] = [];
  for (let i = 0; i < count; i++) {
    let mutant = text;
    const edits = 1 + Math.floor(random.nextDouble() * 3);
    for (let e = 0; e < edits; e++) mutant = edit(mutant, random);
    mutants.push(mutant);
  }
  return mutants;
}
