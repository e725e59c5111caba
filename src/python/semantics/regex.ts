/**
 * Python `re` patterns, run on the JavaScript regex engine. Hand-written for parity: no library translates
 * Python's regex dialect to JavaScript's with Python's matching semantics.
 *
 * lm-eval task YAMLs carry Python regexes (filter `regex_pattern`, exact_match `regexes_to_ignore`), and
 * scores only reproduce if they match exactly what Python's `re` matches. The pattern is parsed with
 * Python's grammar and re-emitted for a JS RegExp in `v` (unicodeSets) mode, which works on code points as
 * Python does. Python semantics that JS spells differently are rewritten rather than left to chance:
 *
 * - `.` excludes only `\n` (JS also excludes `\r`, U+2028, U+2029); `(?s)` makes it match everything.
 * - `$` also matches before a final `\n`; `(?m)` `^`/`$` only treat `\n` as a line break.
 * - `\d` is Unicode category Nd, `\w` is letters, numbers and `_`, `\s` is `str.isspace()`, and `\b`/`\B`
 *   use that `\w`; `(?a)` turns them back to ASCII.
 * - `\Z` → end of input, `\A` → start of input, `(?P<name>…)` → `(?<name>…)`, `(?P=name)` → `\k<name>`,
 *   `{,n}` → `{0,n}`, a `{` that is not a quantifier is a literal.
 * - findall/sub iterate as Python ≥ 3.7 does: after an empty match, the next match may start at the same
 *   position if it is not empty (`re.findall('|a', 'a') == ['', 'a', '']`; JS `matchAll` gives `['', '']`).
 *
 * Not supported (AssayError `bad_regex` naming the pattern): conditionals `(?(1)…)`, atomic groups,
 * possessive quantifiers, `\N{…}`, `(?L)`, and a scoped `(?i:…)` that changes case sensitivity.
 * Known remaining difference: a backreference to a group that did not take part in the match matches the
 * empty string in JS but fails in Python.
 */
import { AssayError } from '../../errors.js';
import { PYTHON_WHITESPACE } from './string.js';

export interface CompiledPythonRegex {
  /** The Python source pattern. */
  readonly pattern: string;
  /** The Python flags in effect for the whole pattern, as letters (`aimsx`). */
  readonly flags: string;
  /** The translated pattern, as JS source for `new RegExp(source, 'gv' + (i ? 'i' : ''))`. */
  readonly source: string;
  readonly regex: RegExp;
  readonly groupCount: number;
  readonly groupNames: ReadonlyMap<string, number>;
}

/** A findall item: the whole match (no groups), the group (one group), or every group (several). */
export type FindallItem = string | string[];

const CACHE_LIMIT = 512;
const cache = new Map<string, CompiledPythonRegex>();

/**
 * Compiles a Python regex. `flags` are Python flag letters (`i` for re.I, `s`, `m`, `x`, `a`), the same as
 * inline `(?imsxa)` at the start of the pattern. Compiled patterns are cached, as Python's `re` does.
 */
export function compilePythonRegex(pattern: string, flags = ''): CompiledPythonRegex {
  const key = `${flags}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = translate(pattern, flags);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/** `re.finditer`: every match, in Python's order, including Python's empty-match rules. */
export function* pythonFindIter(
  pattern: string | CompiledPythonRegex,
  text: string,
  flags = '',
): Generator<RegExpExecArray> {
  const compiled = typeof pattern === 'string' ? compilePythonRegex(pattern, flags) : pattern;
  const regex = new RegExp(compiled.regex.source, compiled.regex.flags);
  let position = 0;
  let mustAdvance = false;
  while (position <= text.length) {
    let match: RegExpExecArray | null = null;
    if (mustAdvance) {
      // Python retries at the same position, rejecting only an empty match there.
      match = nonEmptyMatchAt(compiled, text, position);
      if (!match) {
        position = nextCodePoint(text, position);
        if (position > text.length) break;
      }
    }
    if (!match) {
      regex.lastIndex = position;
      match = regex.exec(text);
    }
    if (!match) break;
    yield match;
    const end = match.index + match[0].length;
    mustAdvance = match[0].length === 0;
    position = end;
  }
}

/** `re.findall`: whole matches, or the group, or a list of all groups per match (unmatched → ''). */
export function pythonFindAll(
  pattern: string | CompiledPythonRegex,
  text: string,
  flags = '',
): FindallItem[] {
  const compiled = typeof pattern === 'string' ? compilePythonRegex(pattern, flags) : pattern;
  const items: FindallItem[] = [];
  for (const match of pythonFindIter(compiled, text)) {
    if (compiled.groupCount === 0) items.push(match[0]);
    else if (compiled.groupCount === 1) items.push(match[1] ?? '');
    else items.push(match.slice(1, compiled.groupCount + 1).map((group) => group ?? ''));
  }
  return items;
}

/** `re.search`: the first match or undefined. */
export function pythonSearch(
  pattern: string | CompiledPythonRegex,
  text: string,
  flags = '',
): RegExpExecArray | undefined {
  for (const match of pythonFindIter(pattern, text, flags)) return match;
  return undefined;
}

/**
 * `re.sub(pattern, replacement, text, count)`. A string replacement is a Python template (`\1`, `\g<name>`,
 * `\n`, …), not a JS one (`$1`); a function receives the match.
 */
export function pythonSub(
  pattern: string | CompiledPythonRegex,
  replacement: string | ((match: RegExpExecArray) => string),
  text: string,
  options: { count?: number; flags?: string } = {},
): string {
  const compiled = typeof pattern === 'string' ? compilePythonRegex(pattern, options.flags ?? '') : pattern;
  const expand = typeof replacement === 'string' ? parseTemplate(replacement, compiled) : replacement;
  const count = options.count ?? 0;
  let output = '';
  let last = 0;
  let replaced = 0;
  for (const match of pythonFindIter(compiled, text)) {
    output += text.slice(last, match.index) + expand(match);
    last = match.index + match[0].length;
    replaced++;
    if (count > 0 && replaced >= count) break;
  }
  return output + text.slice(last);
}

/** `re.escape` (Python ≥ 3.7): escapes the characters Python escapes, so the result is a Python pattern. */
export function pythonEscape(text: string): string {
  return text.replace(/[()[\]{}?*+\-|^$\\.&~# \t\n\r\v\f]/g, (character) => `\\${character}`);
}

function nextCodePoint(text: string, position: number): number {
  const code = text.charCodeAt(position);
  if (code >= 0xd800 && code <= 0xdbff && position + 1 < text.length) {
    const low = text.charCodeAt(position + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return position + 2;
  }
  return position + 1;
}

function nonEmptyMatchAt(
  compiled: CompiledPythonRegex,
  text: string,
  position: number,
): RegExpExecArray | null {
  if (position >= text.length) return null;
  let remaining = 0;
  for (let index = position; index < text.length; index = nextCodePoint(text, index)) remaining++;
  // After the pattern, fewer than `remaining` code points must be left: the match is not empty.
  const sticky = new RegExp(
    `(?:${compiled.source})(?![\\s\\S]{${remaining}})`,
    compiled.regex.flags.replace('g', 'y'),
  );
  sticky.lastIndex = position;
  return sticky.exec(text);
}

// ---------------------------------------------------------------------------------------------------------
// Translation

interface Flags {
  ascii: boolean;
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  verbose: boolean;
}

const ASCII_SPACE = '\\t\\n\\v\\f\\r\\x20';
const UNICODE_WORD = '\\p{L}\\p{N}_';
const ASCII_WORD = 'A-Za-z0-9_';
const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/'.split(''));

class Translator {
  private position = 0;
  private groupCount = 0;
  private readonly groupNames = new Map<string, number>();
  private readonly openGroups = new Set<number>();
  private flags: Flags;
  private readonly globalIgnoreCase: boolean;

  constructor(
    private readonly pattern: string,
    flagLetters: string,
  ) {
    this.flags = { ascii: false, ignoreCase: false, multiline: false, dotAll: false, verbose: false };
    this.applyFlagLetters(flagLetters, this.flags, true);
    this.parseGlobalFlags();
    this.globalIgnoreCase = this.flags.ignoreCase;
  }

  run(): CompiledPythonRegex {
    const source = this.parseAlternation();
    if (this.position < this.pattern.length) {
      // Only an unbalanced ')' stops the top-level alternation early.
      this.fail(`unbalanced parenthesis at position ${this.position}`);
    }
    const flagLetters =
      (this.flags.ascii ? 'a' : '') +
      (this.globalIgnoreCase ? 'i' : '') +
      (this.flags.multiline ? 'm' : '') +
      (this.flags.dotAll ? 's' : '') +
      (this.flags.verbose ? 'x' : '');
    let regex: RegExp;
    try {
      regex = new RegExp(source, this.globalIgnoreCase ? 'gvi' : 'gv');
    } catch (error) {
      this.fail(`cannot be run as a JavaScript regex (${(error as Error).message})`, error);
    }
    return {
      pattern: this.pattern,
      flags: flagLetters,
      source,
      regex,
      groupCount: this.groupCount,
      groupNames: this.groupNames,
    };
  }

  private fail(reason: string, cause?: unknown): never {
    throw new AssayError('bad_regex', `Python regex ${JSON.stringify(this.pattern)}: ${reason}`, {
      cause,
    });
  }

  private applyFlagLetters(letters: string, flags: Flags, enable: boolean): void {
    for (const letter of letters) {
      if (letter === 'a') flags.ascii = enable;
      else if (letter === 'i') flags.ignoreCase = enable;
      else if (letter === 'm') flags.multiline = enable;
      else if (letter === 's') flags.dotAll = enable;
      else if (letter === 'x') flags.verbose = enable;
      else if (letter === 'u') continue;
      else if (letter === 'L') this.fail('the LOCALE flag (?L) is not supported for str patterns');
      else this.fail(`unknown flag ${JSON.stringify(letter)}`);
    }
  }

  /** Python only allows global flags `(?imsx)` at the very start of the pattern (an error since 3.11). */
  private parseGlobalFlags(): void {
    for (;;) {
      const match = /^\(\?([aiLmsux]+)\)/.exec(this.pattern.slice(this.position));
      if (!match) return;
      this.applyFlagLetters(match[1], this.flags, true);
      this.position += match[0].length;
    }
  }

  private peek(offset = 0): string {
    return this.pattern[this.position + offset] ?? '';
  }

  private skipVerbose(): void {
    if (!this.flags.verbose) return;
    for (;;) {
      const character = this.peek();
      if (character === '#') {
        while (this.position < this.pattern.length && this.peek() !== '\n') this.position++;
      } else if (character !== '' && /[ \t\n\r\v\f]/.test(character)) {
        this.position++;
      } else {
        return;
      }
    }
  }

  private parseAlternation(): string {
    const branches = [this.parseSequence()];
    while (this.peek() === '|') {
      this.position++;
      branches.push(this.parseSequence());
    }
    return branches.join('|');
  }

  private parseSequence(): string {
    let output = '';
    for (;;) {
      this.skipVerbose();
      const character = this.peek();
      if (character === '' || character === '|' || character === ')') return output;
      const atom = this.parseAtom();
      if (atom === undefined) continue;
      output += atom.repeatable ? this.parseQuantifiers(atom.source) : this.rejectQuantifier(atom.source);
    }
  }

  private rejectQuantifier(source: string): string {
    this.skipVerbose();
    const character = this.peek();
    if (character === '*' || character === '+' || character === '?' || this.quantifierAhead()) {
      this.fail(`nothing to repeat at position ${this.position}`);
    }
    return source;
  }

  private quantifierAhead(): boolean {
    return (
      this.peek() === '{' &&
      /^\{\d*(?:,\d*)?\}/.test(this.pattern.slice(this.position)) &&
      this.peek(1) !== '}'
    );
  }

  private parseQuantifiers(atom: string): string {
    this.skipVerbose();
    let quantifier = '';
    const character = this.peek();
    if (character === '*' || character === '+' || character === '?') {
      quantifier = character;
      this.position++;
    } else if (this.quantifierAhead()) {
      const match = /^\{(\d*)(?:(,)(\d*))?\}/.exec(this.pattern.slice(this.position)) as RegExpExecArray;
      this.position += match[0].length;
      const minimum = match[1] === '' ? 0 : Number(match[1]);
      const maximum = match[2] === undefined ? match[1] : match[3];
      if (maximum !== '' && Number(maximum) < minimum) this.fail('min repeat greater than max repeat');
      quantifier = maximum === '' ? `{${minimum},}` : `{${minimum},${Number(maximum)}}`;
    } else {
      return atom;
    }
    if (this.peek() === '?') {
      quantifier += '?';
      this.position++;
    } else if (this.peek() === '+') {
      this.fail('possessive quantifiers are not supported');
    }
    this.skipVerbose();
    const next = this.peek();
    if (next === '*' || next === '+' || next === '?' || this.quantifierAhead()) {
      this.fail(`multiple repeat at position ${this.position}`);
    }
    return atom + quantifier;
  }

  private wordClass(): string {
    return this.flags.ascii ? ASCII_WORD : UNICODE_WORD;
  }

  private parseAtom(): { source: string; repeatable: boolean } | undefined {
    const character = this.peek();
    this.position++;
    switch (character) {
      case '.':
        return { source: this.flags.dotAll ? '[\\s\\S]' : '[^\\n]', repeatable: true };
      case '^':
        return { source: this.flags.multiline ? '(?:^|(?<=\\n))' : '^', repeatable: false };
      case '$':
        return { source: this.flags.multiline ? '(?=\\n|$)' : '(?=\\n?$)', repeatable: false };
      case '[':
        return { source: this.parseClass(), repeatable: true };
      case '(':
        return this.parseGroup();
      case '\\':
        return this.parseEscape();
      case '*':
      case '+':
      case '?':
        this.fail(`nothing to repeat at position ${this.position - 1}`);
        break;
      case '{':
        // A '{' that does not start a quantifier is a literal in Python (a syntax error in JS).
        return { source: '\\{', repeatable: true };
      default:
        return { source: literal(character.codePointAt(0) as number), repeatable: true };
    }
    return undefined;
  }

  private parseGroup(): { source: string; repeatable: boolean } | undefined {
    if (this.peek() !== '?') return this.captureGroup(undefined);
    const rest = this.pattern.slice(this.position + 1);
    if (rest.startsWith(':')) {
      this.position += 2;
      return { source: `(?:${this.parseGroupBody()})`, repeatable: true };
    }
    if (rest.startsWith('P<')) {
      const match = /^P<([^>]*)>/.exec(rest);
      if (!match) this.fail('missing > in group name');
      const name = match[1];
      if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name))
        this.fail(`bad character in group name ${JSON.stringify(name)}`);
      if (this.groupNames.has(name)) this.fail(`redefinition of group name ${JSON.stringify(name)}`);
      this.position += 1 + match[0].length;
      return this.captureGroup(name);
    }
    if (rest.startsWith('P=')) {
      const match = /^P=([^)]*)\)/.exec(rest);
      if (!match) this.fail('missing ) after group reference');
      const index = this.groupNames.get(match[1]);
      if (index === undefined) this.fail(`unknown group name ${JSON.stringify(match[1])}`);
      if (this.openGroups.has(index)) this.fail('cannot refer to an open group');
      this.position += 1 + match[0].length;
      return { source: `\\k<${match[1]}>`, repeatable: true };
    }
    for (const lookaround of ['=', '!', '<=', '<!']) {
      if (rest.startsWith(lookaround)) {
        this.position += 1 + lookaround.length;
        // Wrapped so that a quantifier on it stays valid JS (Python allows `(?=a)?`; JS u/v mode does not).
        return { source: `(?:(?${lookaround}${this.parseGroupBody()}))`, repeatable: true };
      }
    }
    if (rest.startsWith('#')) {
      const end = this.pattern.indexOf(')', this.position);
      if (end < 0) this.fail('missing ), unterminated comment');
      this.position = end + 1;
      return undefined;
    }
    if (rest.startsWith('(')) this.fail('conditional groups (?(…)…) are not supported');
    if (rest.startsWith('>')) this.fail('atomic groups (?>…) are not supported');
    const scoped = /^([aiLmsux]*)(?:-([imsx]+))?:/.exec(rest);
    if (scoped && (scoped[1] !== '' || scoped[2] !== undefined)) {
      this.position += 1 + scoped[0].length;
      const saved = { ...this.flags };
      this.applyFlagLetters(scoped[1], this.flags, true);
      if (scoped[2] !== undefined) this.applyFlagLetters(scoped[2], this.flags, false);
      if (this.flags.ignoreCase !== this.globalIgnoreCase) {
        this.fail(
          'a scoped (?i:…) / (?-i:…) group is not supported (JavaScript has no scoped case flag here)',
        );
      }
      const body = this.parseGroupBody();
      this.flags = saved;
      return { source: `(?:${body})`, repeatable: true };
    }
    if (/^[aiLmsux]+\)/.test(rest)) this.fail('global flags not at the start of the expression');
    this.fail(`unknown extension (?${rest.slice(0, 2)} at position ${this.position - 1}`);
  }

  private captureGroup(name: string | undefined): { source: string; repeatable: boolean } {
    const index = ++this.groupCount;
    if (name !== undefined) this.groupNames.set(name, index);
    this.openGroups.add(index);
    const body = this.parseGroupBody();
    this.openGroups.delete(index);
    return { source: name === undefined ? `(${body})` : `(?<${name}>${body})`, repeatable: true };
  }

  private parseGroupBody(): string {
    const body = this.parseAlternation();
    if (this.peek() !== ')') this.fail('missing ), unterminated subpattern');
    this.position++;
    return body;
  }

  private parseEscape(): { source: string; repeatable: boolean } {
    const character = this.peek();
    if (character === '') this.fail('bad escape (end of pattern)');
    this.position++;
    const word = this.wordClass();
    const boundary = `(?:(?<=[${word}])(?![${word}])|(?<![${word}])(?=[${word}]))`;
    const nonBoundary = `(?:(?<=[${word}])(?=[${word}])|(?<![${word}])(?![${word}]))`;
    switch (character) {
      case 'A':
        return { source: '^', repeatable: false };
      case 'Z':
        return { source: '$', repeatable: false };
      case 'b':
        return { source: boundary, repeatable: false };
      case 'B':
        return { source: nonBoundary, repeatable: false };
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
        return { source: this.classEscape(character, false), repeatable: true };
    }
    if (/[1-9]/.test(character)) {
      const next = this.peek();
      const third = this.peek(1);
      if (/[0-7]/.test(character) && /[0-7]/.test(next) && /[0-7]/.test(third)) {
        this.position += 2;
        return { source: literal(this.octal(character + next + third)), repeatable: true };
      }
      let digits = character;
      if (/[0-9]/.test(next)) {
        digits += next;
        this.position++;
      }
      const group = Number(digits);
      if (group > this.groupCount) this.fail(`invalid group reference ${group}`);
      if (this.openGroups.has(group)) this.fail('cannot refer to an open group');
      return { source: `(?:\\${group})`, repeatable: true };
    }
    return { source: literal(this.characterEscape(character)), repeatable: true };
  }

  private octal(digits: string): number {
    const value = Number.parseInt(digits, 8);
    if (value > 0o377) this.fail(`octal escape value \\${digits} outside of range 0-0o377`);
    return value;
  }

  /** Escapes that stand for one character (shared by classes and the top level). */
  private characterEscape(character: string): number {
    const simple: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
    if (character in simple) return simple[character];
    if (character === '0') {
      let digits = '0';
      for (let count = 0; count < 2 && /[0-7]/.test(this.peek()); count++) {
        digits += this.peek();
        this.position++;
      }
      return this.octal(digits);
    }
    const hexLengths: Record<string, number> = { x: 2, u: 4, U: 8 };
    if (character in hexLengths) {
      const length = hexLengths[character];
      const digits = this.pattern.slice(this.position, this.position + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits))
        this.fail(`incomplete escape \\${character}${digits}`);
      this.position += length;
      const value = Number.parseInt(digits, 16);
      if (value > 0x10ffff) this.fail(`bad escape \\${character}${digits}`);
      return value;
    }
    if (character === 'N') this.fail('named character escapes \\N{…} are not supported');
    if (/[A-Za-z0-9]/.test(character)) this.fail(`bad escape \\${character}`);
    return character.codePointAt(0) as number;
  }

  /** `\d \w \s` and their negations; `inClass` means the result goes inside `[...]` (v mode nests). */
  private classEscape(character: string, inClass: boolean): string {
    const ascii = this.flags.ascii;
    const positive: Record<string, string> = {
      d: ascii ? '0-9' : '\\p{Nd}',
      w: this.wordClass(),
      s: ascii ? ASCII_SPACE : PYTHON_WHITESPACE,
    };
    const lower = character.toLowerCase();
    const negated = character !== lower;
    if (lower === 'd' && !ascii) return negated ? '\\P{Nd}' : '\\p{Nd}';
    if (negated) return `[^${positive[lower]}]`;
    return inClass ? positive[lower] : `[${positive[lower]}]`;
  }

  private parseClass(): string {
    const start = this.position - 1;
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.position++;
    }
    const items: string[] = [];
    let first = true;
    for (;;) {
      const character = this.peek();
      if (character === '') this.fail(`unterminated character set at position ${start}`);
      if (character === ']' && !first) {
        this.position++;
        break;
      }
      first = false;
      const low = this.parseClassItem();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.position++;
        const high = this.parseClassItem();
        if (typeof low === 'string' || typeof high === 'string') this.fail('bad character range');
        if (high < low) this.fail('bad character range');
        items.push(`${literal(low)}-${literal(high)}`);
      } else {
        items.push(typeof low === 'string' ? low : literal(low));
      }
    }
    return `[${negate ? '^' : ''}${items.join('')}]`;
  }

  /** One class member: a code point, or a class escape as v-mode class source. */
  private parseClassItem(): number | string {
    const character = this.peek();
    this.position++;
    if (character !== '\\') return character.codePointAt(0) as number;
    const escaped = this.peek();
    if (escaped === '') this.fail('bad escape (end of pattern)');
    this.position++;
    if ('dDwWsS'.includes(escaped)) return this.classEscape(escaped, true);
    if (escaped === 'b') return 8;
    if (/[1-7]/.test(escaped)) {
      let digits = escaped;
      for (let count = 0; count < 2 && /[0-7]/.test(this.peek()); count++) {
        digits += this.peek();
        this.position++;
      }
      return this.octal(digits);
    }
    return this.characterEscape(escaped);
  }
}

/** One code point as JS v-mode source, valid both inside and outside a class. */
function literal(codePoint: number): string {
  const character = String.fromCodePoint(codePoint);
  if (/[\p{L}\p{N}_ ]/u.test(character) && codePoint < 0x10000) return character;
  if (codePoint < 0x80 && SYNTAX_CHARACTERS.has(character)) return `\\${character}`;
  return `\\u{${codePoint.toString(16)}}`;
}

function translate(pattern: string, flags: string): CompiledPythonRegex {
  return new Translator(pattern, flags).run();
}

// ---------------------------------------------------------------------------------------------------------
// Replacement templates

function parseTemplate(template: string, compiled: CompiledPythonRegex): (match: RegExpExecArray) => string {
  const parts: Array<string | number> = [];
  let text = '';
  const fail = (reason: string): never => {
    throw new AssayError(
      'bad_regex',
      `Python replacement ${JSON.stringify(template)} for regex ${JSON.stringify(compiled.pattern)}: ${reason}`,
    );
  };
  const group = (index: number) => {
    if (index > compiled.groupCount) fail(`invalid group reference ${index}`);
    if (text) parts.push(text);
    text = '';
    parts.push(index);
  };
  for (let position = 0; position < template.length; position++) {
    const character = template[position];
    if (character !== '\\') {
      text += character;
      continue;
    }
    const next = template[position + 1] ?? '';
    position++;
    if (next === 'g') {
      const match = /^<([^>]*)>/.exec(template.slice(position + 1));
      if (!match) fail('missing < or > in \\g<…>');
      const reference = (match as RegExpExecArray)[1];
      const index = /^\d+$/.test(reference) ? Number(reference) : compiled.groupNames.get(reference);
      if (index === undefined) fail(`unknown group name ${JSON.stringify(reference)}`);
      group(index as number);
      position += (match as RegExpExecArray)[0].length;
    } else if (
      next === '0' ||
      (/[1-7]/.test(next) && /^[0-7]{2}/.test(template.slice(position + 1, position + 3)))
    ) {
      const match = /^[0-7]{1,3}/.exec(template.slice(position)) as RegExpExecArray;
      const digits = next === '0' ? match[0] : template.slice(position, position + 3);
      text += String.fromCodePoint(Number.parseInt(digits, 8));
      position += digits.length - 1;
    } else if (/[1-9]/.test(next)) {
      const digits = /^\d{1,2}/.exec(template.slice(position)) as RegExpExecArray;
      group(Number(digits[0]));
      position += digits[0].length - 1;
    } else if (next === '') {
      fail('bad escape (end of pattern)');
    } else {
      const simple: Record<string, string> = {
        a: '\x07',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
        v: '\v',
        '\\': '\\',
      };
      if (next in simple) text += simple[next];
      else if (/[A-Za-z]/.test(next)) fail(`bad escape \\${next}`);
      else text += `\\${next}`;
    }
  }
  if (text) parts.push(text);
  return (match) => parts.map((part) => (typeof part === 'number' ? (match[part] ?? '') : part)).join('');
}
