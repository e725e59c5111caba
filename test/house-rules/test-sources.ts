/**
 * The test files the house-rule checks read (isolation.ts, component-skips.ts): every `*.test.ts` vitest
 * runs (src/ and test/, as vitest.config.ts includes them) with the helper files under test/ each one
 * imports, directly or through another helper. Their code is read with comments, regular expressions,
 * the text of template literals and quoted strings that are more than a word blanked (a program a test
 * writes to a file, or a sample of code a test reads, is not the test's own code), keeping every line
 * where it was; a quoted word, path or signal name stays.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface SourceFile {
  /** Relative to the repository, with `/`. */
  file: string;
  code: string;
}

export interface TestSource extends SourceFile {
  /** The helper files under test/ it imports, directly or through each other. */
  helpers: SourceFile[];
}

const isTest = (name: string) => name.endsWith('.test.ts');

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (isTest(entry.name)) out.push(full);
  }
  return out;
}

/** Is a `/` at this point of code the start of a regular expression (not a division)? */
function regexCanStart(code: string, at: number): boolean {
  let index = at - 1;
  while (index >= 0 && /\s/.test(code[index])) index--;
  if (index < 0) return true;
  if ('(,=:[!&|?{};+-*%<>~^'.includes(code[index])) return true;
  const word = /[A-Za-z_$]+$/.exec(code.slice(Math.max(0, index - 10), index + 1))?.[0];
  return word === 'return' || word === 'typeof' || word === 'case' || word === 'in' || word === 'of';
}

const spaces = (text: string) => text.replace(/[^\n]+/g, (run) => ' '.repeat(run.length));
/** In code: the next character that may change what is being read (braces only inside `${…}`). */
const CODE = /[/'"`]/g;
const CODE_IN_TEMPLATE = /[/'"`{}]/g;
/** In a template literal's text: its end, or the start of an expression. */
const TEMPLATE_TEXT = /\\[\s\S]|`|\$\{/g;
const STRING_END = { "'": /\\[\s\S]|'|\n/g, '"': /\\[\s\S]|"|\n/g } as const;
/** A quoted string kept as it is: a name, a path, a signal; anything else (code, a message) is blanked. */
const WORD = /^[\w./@:-]*$/;
const REGEX_END = /\\[\s\S]|\[(?:\\[\s\S]|[^\]\\])*\]|\/|\n/g;

/** Moves a global regex to `from` and returns its next match's end (the end of the code when none). */
function endOf(pattern: RegExp, code: string, from: number): number {
  pattern.lastIndex = from;
  let match = pattern.exec(code);
  // Escapes and classes are consumed whole; the end is the first other match.
  while (match && match[0].length > 1 && match[0][0] !== '$') match = pattern.exec(code);
  return match ? match.index + match[0].length : code.length;
}

/** The code with comments and template-literal text replaced by spaces (newlines kept). */
export function blankComments(code: string): string {
  const out: string[] = [];
  let kept = 0;
  const blank = (from: number, to: number) => {
    out.push(code.slice(kept, from), spaces(code.slice(from, to)));
    kept = to;
  };
  /** Open template literals; each holds how many `{` deep its current `${…}` is (-1: in its text). */
  const templates: number[] = [];
  let index = 0;
  while (index < code.length) {
    if (templates.length > 0 && templates[templates.length - 1] === -1) {
      TEMPLATE_TEXT.lastIndex = index;
      let match = TEMPLATE_TEXT.exec(code);
      while (match && match[0][0] === '\\') match = TEMPLATE_TEXT.exec(code);
      const end = match ? match.index : code.length;
      blank(index, end);
      if (!match || match[0] === '`') templates.pop();
      else templates[templates.length - 1] = 0;
      index = end + (match ? match[0].length : 0);
      continue;
    }
    const pattern = templates.length > 0 ? CODE_IN_TEMPLATE : CODE;
    pattern.lastIndex = index;
    const found = pattern.exec(code);
    if (!found) break;
    const at = found.index;
    const char = found[0];
    if (char === '/' && code[at + 1] === '/') {
      const end = code.indexOf('\n', at);
      blank(at, end < 0 ? code.length : end);
      index = end < 0 ? code.length : end;
    } else if (char === '/' && code[at + 1] === '*') {
      const end = code.indexOf('*/', at + 2);
      index = end < 0 ? code.length : end + 2;
      blank(at, index);
    } else if (char === "'" || char === '"') {
      index = endOf(STRING_END[char], code, at + 1);
      if (!WORD.test(code.slice(at + 1, index - 1))) blank(at + 1, index - 1);
    } else if (char === '`') {
      templates.push(-1);
      index = at + 1;
    } else if (char === '/') {
      if (regexCanStart(code, at)) {
        index = endOf(REGEX_END, code, at + 1);
        blank(at + 1, index - 1);
      } else index = at + 1;
    } else {
      if (templates.length > 0) {
        const depth = templates[templates.length - 1];
        if (char === '{') templates[templates.length - 1] = depth + 1;
        else templates[templates.length - 1] = depth === 0 ? -1 : depth - 1;
      }
      index = at + 1;
    }
  }
  out.push(code.slice(kept));
  return out.join('');
}

/** The 1-based line of an offset. */
export function lineOf(code: string, offset: number): number {
  let line = 1;
  for (let index = code.indexOf('\n'); index >= 0 && index < offset; index = code.indexOf('\n', index + 1))
    line++;
  return line;
}

const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** Every test file with its helpers, read from the repository at `root`. */
export function readTestSources(root: string): TestSource[] {
  const cache = new Map<string, SourceFile>();
  const read = (full: string): SourceFile => {
    let source = cache.get(full);
    if (!source) {
      source = {
        file: path.relative(root, full).split(path.sep).join('/'),
        code: blankComments(readFileSync(full, 'utf8')),
      };
      cache.set(full, source);
    }
    return source;
  };
  const testFolder = path.join(root, 'test') + path.sep;
  const helpersOf = (full: string, seen: Set<string>): void => {
    for (const match of read(full).code.matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(full), match[1]).replace(/\.js$/, '.ts');
      if (!target.startsWith(testFolder) || !target.endsWith('.ts') || isTest(target) || seen.has(target))
        continue;
      // An import quoted in a string (a test's own fixture text) may name no file.
      if (!existsSync(target)) continue;
      seen.add(target);
      helpersOf(target, seen);
    }
  };
  const files = [...walk(path.join(root, 'src'), []), ...walk(path.join(root, 'test'), [])].sort();
  return files.map((full) => {
    const seen = new Set<string>();
    helpersOf(full, seen);
    return { ...read(full), helpers: [...seen].sort().map(read) };
  });
}
