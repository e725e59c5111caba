/**
 * Python literals in both directions. lm-eval renders doc values through Jinja2, which prints them with
 * Python's `str()`, and then parses some rendered strings back with `ast.literal_eval` (ARC's
 * `{{choices.text}}` becomes `['a', "b'c"]` and then a list again). Matching lm-eval byte for byte needs
 * both halves to be exact: `pythonRepr`/`pythonStr` for the printing and `parsePythonLiteral` for the parse.
 * Hand-written for that parity: JSON is not Python's literal syntax (quotes, `None`, tuples, `1.0`).
 *
 * Value model (shared with the template interpreter): string = str, integral number = int, other number = float,
 * `PythonFloat` = a float whose value happens to be integral (`1.0`), boolean = bool, null/undefined = None,
 * array = list (or tuple when marked with `markTuple`), plain object or Map = dict.
 */
import { pythonFloatRepr } from './format.js';

/** A Python float with an integral value. A JS number cannot tell `1` from `1.0`; this wrapper can. */
export class PythonFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  /** JSON.stringify writes the number (`18`); Python's `18.0` needs json-values.ts' pythonJsonDumps. */
  toJSON(): number {
    return this.value;
  }
}

const TUPLE = Symbol('python.tuple');

/** Marks an array as a Python tuple, so it prints as `('a', 'b')`. */
export function markTuple<T extends unknown[]>(items: T): T {
  Object.defineProperty(items, TUPLE, { value: true, enumerable: false });
  return items;
}

export function isTuple(value: unknown): boolean {
  return Array.isArray(value) && (value as unknown as Record<symbol, unknown>)[TUPLE] === true;
}

export class PythonLiteralError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'PythonLiteralError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Printing

/** Python's `repr(value)`. */
export function pythonRepr(value: unknown): string {
  if (typeof value === 'string') return reprString(value);
  return pythonStr(value, true);
}

/** Python's `str(value)`: strings print as themselves, containers print their items with `repr`. */
export function pythonStr(value: unknown, nested = false): string {
  if (typeof value === 'string') return nested ? reprString(value) : value;
  if (typeof value === 'number') return Number.isInteger(value) ? reprInt(value) : pythonFloatRepr(value);
  if (value instanceof PythonFloat) return pythonFloatRepr(value.value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) {
    const items = value.map((item) => pythonStr(item, true));
    if (isTuple(value)) return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    return `[${items.join(', ')}]`;
  }
  if (value instanceof Map) {
    const items: string[] = [];
    for (const [key, item] of value) items.push(`${pythonStr(key, true)}: ${pythonStr(item, true)}`);
    return `{${items.join(', ')}}`;
  }
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(
      ([key, item]) => `${reprString(key)}: ${pythonStr(item, true)}`,
    );
    return `{${items.join(', ')}}`;
  }
  // Functions and symbols never come from datasets; print something recognisable rather than guess.
  return String(value);
}

function reprInt(value: number): string {
  // Beyond 2^53 a JS number is still an integer; BigInt prints every digit like Python's int does.
  return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
}

// Python's str.isprintable() is false for these categories (space U+0020 excepted).
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const NEEDS_ESCAPE = /[\\'"\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr(str)`: single quotes unless the text has `'` and no `"`. */
export function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  if (!NEEDS_ESCAPE.test(text)) return quote + text + quote;
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && NON_PRINTABLE.test(char)) {
      const code = char.codePointAt(0) as number;
      if (code < 0x100) out += `\\x${code.toString(16).padStart(2, '0')}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else out += `\\U${code.toString(16).padStart(8, '0')}`;
    } else out += char;
  }
  return out + quote;
}

// ---------------------------------------------------------------------------------------------------------
// Parsing: the part of `ast.literal_eval` that datasets and templates produce.

/**
 * `ast.literal_eval(text)` for str (all prefixes without f/b, every quote form, escapes, implicit
 * concatenation), int (with `_`, 0x/0o/0b), float, True/False/None, list, tuple, dict and unary +/-.
 * Tuples come back as marked arrays, dicts as plain objects (or a Map when a key is not a str).
 * Sets, bytes and complex numbers are refused rather than approximated.
 */
export function parsePythonLiteral(text: string): unknown {
  // literal_eval strips leading spaces and tabs itself before parsing.
  const parser = new LiteralParser(text.replace(/^[ \t]+/, ''));
  const value = parser.parseExpression(0);
  parser.skipSpace(0);
  if (!parser.atEnd()) parser.fail('unexpected text after the literal');
  return value;
}

const ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

class LiteralParser {
  private position = 0;
  constructor(private readonly source: string) {}

  atEnd(): boolean {
    return this.position >= this.source.length;
  }

  fail(message: string): never {
    throw new PythonLiteralError(`${message} at offset ${this.position}`, this.position);
  }

  /** Skips whitespace and comments; newlines count only inside brackets (depth > 0). */
  skipSpace(depth: number): void {
    const source = this.source;
    while (this.position < source.length) {
      const char = source[this.position];
      if (char === ' ' || char === '\t' || char === '\f') this.position++;
      else if (char === '#') {
        while (this.position < source.length && source[this.position] !== '\n') this.position++;
      } else if (
        char === '\\' &&
        (source[this.position + 1] === '\n' || source.startsWith('\\\r\n', this.position))
      ) {
        this.position += source[this.position + 1] === '\n' ? 2 : 3;
      } else if (char === '\n' || char === '\r') {
        // A top-level newline ends the expression; only trailing blank lines are allowed there.
        if (depth > 0 || /^[\s]*$/.test(source.slice(this.position))) this.position++;
        else return;
      } else return;
    }
  }

  parseExpression(depth: number): unknown {
    this.skipSpace(depth);
    const first = this.parseUnary(depth);
    this.skipSpace(depth);
    // A bare `1, 2` at the top level is a tuple too.
    if (depth === 0 && this.source[this.position] === ',') {
      const items = [first];
      while (this.source[this.position] === ',') {
        this.position++;
        this.skipSpace(depth);
        if (this.atEnd()) break;
        items.push(this.parseUnary(depth));
        this.skipSpace(depth);
      }
      return markTuple(items);
    }
    return first;
  }

  private parseUnary(depth: number): unknown {
    this.skipSpace(depth);
    const char = this.source[this.position];
    if (char === '-' || char === '+') {
      this.position++;
      this.skipSpace(depth);
      const operand = this.parseUnary(depth);
      if (typeof operand === 'number') return char === '-' ? -operand : operand;
      if (operand instanceof PythonFloat)
        return new PythonFloat(char === '-' ? -operand.value : operand.value);
      if (typeof operand === 'boolean') return char === '-' ? -Number(operand) : Number(operand);
      this.fail('unary +/- applies only to numbers');
    }
    return this.parseAtom(depth);
  }

  private parseAtom(depth: number): unknown {
    const source = this.source;
    const char = source[this.position];
    if (char === undefined) this.fail('unexpected end of input');
    if (char === '[') return this.parseSequence(']', depth);
    if (char === '(') return this.parseParenthesised(depth);
    if (char === '{') return this.parseDict(depth);
    if (/[0-9.]/.test(char)) return this.parseNumber();
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(this.position))?.[0];
    if (word !== undefined) {
      const next = source[this.position + word.length];
      if ((next === "'" || next === '"') && /^(?:r|u|R|U)$/.test(word)) return this.parseStrings(depth);
      if (next === "'" || next === '"') this.fail(`string prefix ${word} is not supported`);
      this.position += word.length;
      if (word === 'True') return true;
      if (word === 'False') return false;
      if (word === 'None') return null;
      this.fail(`malformed node or string: name ${word}`);
    }
    if (char === "'" || char === '"') return this.parseStrings(depth);
    this.fail(`unexpected character ${JSON.stringify(char)}`);
  }

  private parseSequence(close: string, depth: number): unknown[] {
    this.position++;
    const items: unknown[] = [];
    for (;;) {
      this.skipSpace(depth + 1);
      if (this.source[this.position] === close) {
        this.position++;
        return items;
      }
      items.push(this.parseUnary(depth + 1));
      this.skipSpace(depth + 1);
      const next = this.source[this.position];
      if (next === ',') this.position++;
      else if (next !== close) this.fail(`expected , or ${close}`);
    }
  }

  private parseParenthesised(depth: number): unknown {
    this.position++;
    this.skipSpace(depth + 1);
    if (this.source[this.position] === ')') {
      this.position++;
      return markTuple([]);
    }
    const first = this.parseUnary(depth + 1);
    this.skipSpace(depth + 1);
    if (this.source[this.position] === ')') {
      this.position++;
      return first; // (x) is x, not a tuple
    }
    const items = [first];
    while (this.source[this.position] === ',') {
      this.position++;
      this.skipSpace(depth + 1);
      if (this.source[this.position] === ')') break;
      items.push(this.parseUnary(depth + 1));
      this.skipSpace(depth + 1);
    }
    if (this.source[this.position] !== ')') this.fail('expected , or )');
    this.position++;
    return markTuple(items);
  }

  private parseDict(depth: number): Record<string, unknown> | Map<unknown, unknown> {
    this.position++;
    const entries: Array<[unknown, unknown]> = [];
    for (;;) {
      this.skipSpace(depth + 1);
      if (this.source[this.position] === '}') {
        this.position++;
        break;
      }
      const key = this.parseUnary(depth + 1);
      this.skipSpace(depth + 1);
      if (this.source[this.position] !== ':') this.fail('expected : (sets are not supported)');
      this.position++;
      const value = this.parseUnary(depth + 1);
      entries.push([key, value]);
      this.skipSpace(depth + 1);
      const next = this.source[this.position];
      if (next === ',') this.position++;
      else if (next !== '}') this.fail('expected , or }');
    }
    if (entries.every(([key]) => typeof key === 'string')) {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) object[key as string] = value;
      return object;
    }
    return new Map(entries);
  }

  private parseNumber(): number | PythonFloat {
    const rest = this.source.slice(this.position);
    const radix = /^0([xXoObB])(_?[0-9a-fA-F])+/.exec(rest);
    if (radix) {
      const kind = radix[1].toLowerCase() as 'x' | 'o' | 'b';
      const digits = radix[0].slice(2).replaceAll('_', '');
      const valid = { x: /^[0-9a-fA-F]+$/, o: /^[0-7]+$/, b: /^[01]+$/ }[kind];
      if (!valid.test(digits)) this.fail('invalid digit in number');
      this.position += radix[0].length;
      return Number(BigInt(`0${radix[1].toLowerCase()}${digits}`));
    }
    const match = /^(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?/.exec(rest);
    const literal = match?.[0] ?? '';
    if (literal === '' || literal === '.' || /^\.[eE]/.test(literal)) this.fail('invalid number');
    const after = rest[literal.length];
    if (after !== undefined && /[A-Za-z0-9_]/.test(after)) {
      this.fail(after === 'j' || after === 'J' ? 'complex numbers are not supported' : 'invalid number');
    }
    this.position += literal.length;
    const clean = literal.replaceAll('_', '');
    if (/^\d+$/.test(clean)) {
      // Python refuses `007` (leading zeros on a non-zero decimal integer).
      if (clean.length > 1 && clean.startsWith('0') && /[1-9]/.test(clean)) {
        this.position -= literal.length;
        this.fail('leading zeros in decimal integer literals are not permitted');
      }
      return Number(clean);
    }
    const value = Number(clean.startsWith('.') ? `0${clean}` : clean.endsWith('.') ? `${clean}0` : clean);
    return Number.isInteger(value) ? new PythonFloat(value) : value;
  }

  /** One or more adjacent string literals, concatenated as Python does. */
  private parseStrings(depth: number): string {
    let result = this.parseString();
    for (;;) {
      const save = this.position;
      this.skipSpace(depth);
      const char = this.source[this.position];
      const prefixed = /^[rRuU]['"]/.test(this.source.slice(this.position, this.position + 2));
      if (char === "'" || char === '"' || prefixed) result += this.parseString();
      else {
        this.position = save;
        return result;
      }
    }
  }

  private parseString(): string {
    const source = this.source;
    let raw = false;
    if (/[rRuU]/.test(source[this.position])) {
      raw = source[this.position] === 'r' || source[this.position] === 'R';
      this.position++;
    }
    const quoteChar = source[this.position];
    const triple = source.startsWith(quoteChar.repeat(3), this.position);
    const quote = triple ? quoteChar.repeat(3) : quoteChar;
    this.position += quote.length;
    let out = '';
    for (;;) {
      if (this.position >= source.length) this.fail('unterminated string literal');
      if (source.startsWith(quote, this.position)) {
        this.position += quote.length;
        return out;
      }
      const char = source[this.position];
      if (!triple && (char === '\n' || char === '\r')) this.fail('unterminated string literal');
      if (char !== '\\') {
        // Python's tokenizer turns \r\n and \r into \n inside strings.
        if (char === '\r') {
          out += '\n';
          this.position += source[this.position + 1] === '\n' ? 2 : 1;
        } else {
          out += char;
          this.position++;
        }
        continue;
      }
      const next = source[this.position + 1];
      if (next === undefined) this.fail('unterminated string literal');
      if (raw) {
        // In a raw string a backslash stays, and only stops the next char from closing the string.
        out += `\\${next}`;
        this.position += 2;
        continue;
      }
      this.position += 2;
      if (next === '\n') continue;
      if (next === '\r') {
        if (source[this.position] === '\n') this.position++;
        continue;
      }
      if (next in ESCAPES) out += ESCAPES[next];
      else if (/[0-7]/.test(next)) {
        let digits = next;
        while (digits.length < 3 && /[0-7]/.test(source[this.position] ?? ''))
          digits += source[this.position++];
        out += String.fromCodePoint(Number.parseInt(digits, 8));
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const hex = source.slice(this.position, this.position + length);
        if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) this.fail(`truncated \\${next} escape`);
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) this.fail('illegal Unicode character');
        out += String.fromCodePoint(code);
        this.position += length;
      } else if (next === 'N') this.fail('\\N{...} escapes are not supported');
      else out += `\\${next}`; // Python keeps unknown escapes verbatim (with a warning)
    }
  }
}
