/**
 * The methods of Python's `str`, `list` and `dict` that lm-eval templates call on doc values
 * (`choices.label.index(answerKey)`, `question.strip()`, `text.split(' ')`, `d.items()`…), with Python's
 * semantics, not JavaScript's: `strip()` uses `str.isspace()`, `split()` with no separator collapses
 * whitespace runs, `index()` raises when the item is missing; and `str.format` / `%` formatting. Errors
 * are PythonError with Python's messages. Jinja2's attribute lookup over them is prompts/jinja-attributes.ts.
 * Hand-written for Python parity: prompts must match lm-eval's byte for byte, and no JS library
 * implements Python's str/list/dict methods.
 */
import { PythonError } from './errors.js';
import { pythonRepr, pythonStr } from './literal.js';
import { characters, pythonSplit, pythonStrip } from './string.js';
import {
  asTuple,
  dictEntries,
  dictGet,
  dictKeys,
  isDict,
  isFloat,
  numeric,
  pythonEquals,
  pythonIterate,
  typeName,
} from './values.js';

/** `str(value)` for `{}` and `%s`: the caller's, so that a template's own values print its way. */
export type StrFunction = (value: unknown) => string;

/** A method of str, list or dict: called with its object (`self`), the call's arguments and `str()`. */
export type Method = (
  self: never,
  args: unknown[],
  kwargs: Map<string, unknown>,
  str: StrFunction,
) => unknown;

function argument(args: unknown[], kwargs: Map<string, unknown>, index: number, name: string): unknown {
  return args.length > index ? args[index] : kwargs.get(name);
}

function requireString(value: unknown, method: string): string {
  if (typeof value !== 'string')
    throw new PythonError('TypeError', `${method}() argument must be str, not ${typeName(value)}`);
  return value;
}

function optionalInt(value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  const number = numeric(value);
  if (number === undefined || isFloat(value))
    throw new PythonError('TypeError', `'${typeName(value)}' object cannot be interpreted as an integer`);
  return number;
}

function stringFind(self: string, args: unknown[], kwargs: Map<string, unknown>, method: string): number {
  const needle = requireString(argument(args, kwargs, 0, 'sub'), method);
  const chars = characters(self);
  const clamp = (index: number) =>
    Math.min(Math.max(index < 0 ? index + chars.length : index, 0), chars.length);
  const start = clamp(optionalInt(args[1], 0));
  const end = clamp(optionalInt(args[2], chars.length));
  const haystack = chars.slice(start, end).join('');
  const found = haystack.indexOf(needle);
  if (found < 0) return -1;
  return start + characters(haystack.slice(0, found)).length;
}

function prefixTest(
  self: string,
  args: unknown[],
  test: (text: string, affix: string) => boolean,
  method: string,
): boolean {
  const affix = args[0];
  if (typeof affix === 'string') return test(self, affix);
  if (Array.isArray(affix)) return affix.some((item) => test(self, requireString(item, method)));
  throw new PythonError(
    'TypeError',
    `${method} first arg must be str or a tuple of str, not ${typeName(affix)}`,
  );
}

function titleCase(text: string): string {
  // Python's str.title(): a cased letter is upper-cased after an uncased character, lower-cased otherwise.
  let out = '';
  let previousCased = false;
  for (const char of text) {
    const cased = char.toLowerCase() !== char.toUpperCase();
    out += cased ? (previousCased ? char.toLowerCase() : char.toUpperCase()) : char;
    previousCased = cased;
  }
  return out;
}

/** `str.format` for positional/keyword fields, with `!r`/`!s` and no format spec. */
export function strFormat(
  template: string,
  args: unknown[],
  kwargs: Map<string, unknown>,
  str: StrFunction = pythonStr,
): string {
  let auto = 0;
  return template.replace(
    /\{\{|\}\}|\{([^{}!:]*)(?:!([rsa]))?(?::([^{}]*))?\}/g,
    (match, field, conversion, spec) => {
      if (match === '{{') return '{';
      if (match === '}}') return '}';
      if (spec) throw new PythonError('ValueError', `format spec '${spec}' is not supported in str.format`);
      let value: unknown;
      if (field === '') value = args[auto++];
      else if (/^\d+$/.test(field)) value = args[Number(field)];
      else value = kwargs.get(field);
      if (value === undefined)
        throw new PythonError('IndexError', `Replacement index ${field || auto - 1} out of range`);
      return conversion === 'r' || conversion === 'a' ? pythonRepr(value) : str(value);
    },
  );
}

/** `"fmt" % args`: Python's printf-style formatting for %s %r %d %i %f %%. */
export function percentFormat(template: string, values: unknown, str: StrFunction = pythonStr): string {
  const list = Array.isArray(values) && typeName(values) === 'tuple' ? [...values] : [values];
  let position = 0;
  const result = template.replace(
    /%(?:\(([^)]*)\))?([-+ #0]*)(\d+)?(?:\.(\d+))?([sdirfeg%])/g,
    (_m, key, flags, width, precision, kind) => {
      if (kind === '%') return '%';
      let value: unknown;
      if (key !== undefined) {
        if (!isDict(values)) throw new PythonError('TypeError', 'format requires a mapping');
        value = dictGet(values, key).value;
      } else {
        if (position >= list.length)
          throw new PythonError('TypeError', 'not enough arguments for format string');
        value = list[position++];
      }
      let text: string;
      const number = numeric(value);
      if (kind === 's') text = str(value);
      else if (kind === 'r') text = pythonRepr(value);
      else if (number === undefined)
        throw new PythonError(
          'TypeError',
          `%${kind} format: a real number is required, not ${typeName(value)}`,
        );
      else if (kind === 'd' || kind === 'i') text = String(Math.trunc(number));
      else if (kind === 'f') text = number.toFixed(precision === undefined ? 6 : Number(precision));
      else if (kind === 'e')
        text = number
          .toExponential(precision === undefined ? 6 : Number(precision))
          .replace(/e([+-])(\d)$/, 'e$10$2');
      else text = pythonStr(value);
      if (width !== undefined) {
        text = (flags as string).includes('-')
          ? text.padEnd(Number(width))
          : text.padStart(Number(width), (flags as string).includes('0') && kind !== 's' ? '0' : ' ');
      }
      return text;
    },
  );
  if (!isDict(values) && position < list.length) {
    throw new PythonError('TypeError', 'not all arguments converted during string formatting');
  }
  return result;
}

const STRING_METHODS: Record<
  string,
  (self: string, args: unknown[], kwargs: Map<string, unknown>, str: StrFunction) => unknown
> = {
  strip: (self, args, kwargs) =>
    pythonStrip(self, argument(args, kwargs, 0, 'chars') as string | null, 'both'),
  lstrip: (self, args, kwargs) =>
    pythonStrip(self, argument(args, kwargs, 0, 'chars') as string | null, 'left'),
  rstrip: (self, args, kwargs) =>
    pythonStrip(self, argument(args, kwargs, 0, 'chars') as string | null, 'right'),
  split: (self, args, kwargs) =>
    pythonSplit(
      self,
      argument(args, kwargs, 0, 'sep') as string | null,
      optionalInt(argument(args, kwargs, 1, 'maxsplit'), -1),
    ),
  rsplit: (self, args, kwargs) => {
    const separator = argument(args, kwargs, 0, 'sep') as string | null | undefined;
    const maxsplit = optionalInt(argument(args, kwargs, 1, 'maxsplit'), -1);
    if (maxsplit < 0) return pythonSplit(self, separator, -1);
    // rsplit is split on the reversed string with the pieces reversed back.
    const reverse = (text: string) => characters(text).reverse().join('');
    return pythonSplit(reverse(self), separator == null ? separator : reverse(separator), maxsplit)
      .map(reverse)
      .reverse();
  },
  splitlines: (self, args) => {
    const keepends = args[0] === true;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: Python's line boundaries include \x1c-\x1e.
    const parts = self.split(/(\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029])/);
    const lines: string[] = [];
    for (let i = 0; i < parts.length; i += 2) {
      const ending = parts[i + 1] ?? '';
      if (parts[i] === '' && ending === '' && i === parts.length - 1) break;
      lines.push(keepends ? parts[i] + ending : parts[i]);
    }
    return lines;
  },
  replace: (self, args, kwargs) => {
    const old = requireString(args[0], 'replace');
    const replacement = requireString(args[1], 'replace');
    const count = optionalInt(argument(args, kwargs, 2, 'count'), -1);
    if (count < 0) {
      // Python inserts the replacement between every character for an empty `old`; so does split('').
      return old === ''
        ? characters(self).reduce((out, char) => out + char + replacement, replacement)
        : self.split(old).join(replacement);
    }
    let out = self;
    let from = 0;
    for (let done = 0; done < count; done++) {
      const at = out.indexOf(old, from);
      if (at < 0) break;
      out = out.slice(0, at) + replacement + out.slice(at + old.length);
      from = at + replacement.length + (old === '' ? 1 : 0);
    }
    return out;
  },
  upper: (self) => self.toUpperCase(),
  lower: (self) => self.toLowerCase(),
  casefold: (self) => self.toLowerCase(),
  swapcase: (self) =>
    characters(self)
      .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
      .join(''),
  title: (self) => titleCase(self),
  capitalize: (self) => {
    const chars = characters(self);
    return chars.length ? chars[0].toUpperCase() + chars.slice(1).join('').toLowerCase() : '';
  },
  startswith: (self, args) => prefixTest(self, args, (text, affix) => text.startsWith(affix), 'startswith'),
  endswith: (self, args) => prefixTest(self, args, (text, affix) => text.endsWith(affix), 'endswith'),
  join: (self, args) =>
    pythonIterate(args[0])
      .map((item) => {
        if (typeof item !== 'string')
          throw new PythonError('TypeError', `sequence item: expected str instance, ${typeName(item)} found`);
        return item;
      })
      .join(self),
  find: (self, args, kwargs) => stringFind(self, args, kwargs, 'find'),
  index: (self, args, kwargs) => {
    const found = stringFind(self, args, kwargs, 'index');
    if (found < 0) throw new PythonError('ValueError', 'substring not found');
    return found;
  },
  count: (self, args) => {
    const needle = requireString(args[0], 'count');
    return needle === '' ? characters(self).length + 1 : self.split(needle).length - 1;
  },
  isdigit: (self) => self.length > 0 && /^[\p{Nd}\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]+$/u.test(self),
  isdecimal: (self) => self.length > 0 && /^\p{Nd}+$/u.test(self),
  isnumeric: (self) => self.length > 0 && /^[\p{Nd}\p{Nl}\p{No}]+$/u.test(self),
  isalpha: (self) => self.length > 0 && /^\p{L}+$/u.test(self),
  isalnum: (self) => self.length > 0 && /^[\p{L}\p{Nd}\p{Nl}\p{No}]+$/u.test(self),
  isspace: (self) => self.length > 0 && pythonStrip(self) === '',
  isupper: (self) => /\p{Lu}/u.test(self) && self === self.toUpperCase(),
  islower: (self) => /\p{Ll}/u.test(self) && self === self.toLowerCase(),
  zfill: (self, args) => {
    const width = optionalInt(args[0], 0);
    const sign = self.startsWith('-') || self.startsWith('+') ? self[0] : '';
    const body = sign ? self.slice(1) : self;
    return sign + body.padStart(width - sign.length, '0');
  },
  format: (self, args, kwargs, str) => strFormat(self, args, kwargs, str),
};

function sequenceIndex(self: unknown[], args: unknown[]): number {
  const start = optionalInt(args[1], 0);
  const end = optionalInt(args[2], self.length);
  const clamp = (index: number) =>
    Math.min(Math.max(index < 0 ? index + self.length : index, 0), self.length);
  for (let i = clamp(start); i < clamp(end); i++) if (pythonEquals(self[i], args[0])) return i;
  throw new PythonError('ValueError', `${pythonRepr(args[0])} is not in ${typeName(self)}`);
}

const LIST_METHODS: Record<
  string,
  (self: unknown[], args: unknown[], kwargs: Map<string, unknown>) => unknown
> = {
  index: (self, args) => sequenceIndex(self, args),
  count: (self, args) => self.filter((item) => pythonEquals(item, args[0])).length,
  copy: (self) => [...self],
};

const DICT_METHODS: Record<
  string,
  (self: Record<string, unknown> | Map<unknown, unknown>, args: unknown[]) => unknown
> = {
  keys: (self) => dictKeys(self),
  values: (self) => dictEntries(self).map(([, value]) => value),
  items: (self) => dictEntries(self).map(([key, value]) => asTuple([key, value])),
  get: (self, args) => {
    const found = dictGet(self, args[0]);
    return found.found ? found.value : (args[1] ?? null);
  },
  copy: (self) => (self instanceof Map ? new Map(self) : { ...self }),
};

// Every attribute name Python's types have: Jinja2's getattr finds these before a dict key of the same name.
const OTHER_STR_ATTRIBUTES = new Set([
  'center',
  'encode',
  'expandtabs',
  'format_map',
  'isascii',
  'isidentifier',
  'isprintable',
  'istitle',
  'ljust',
  'maketrans',
  'partition',
  'removeprefix',
  'removesuffix',
  'rfind',
  'rindex',
  'rjust',
  'rpartition',
  'translate',
]);
const OTHER_LIST_ATTRIBUTES = new Set([
  'append',
  'clear',
  'extend',
  'insert',
  'pop',
  'remove',
  'reverse',
  'sort',
]);
const OTHER_DICT_ATTRIBUTES = new Set(['clear', 'fromkeys', 'pop', 'popitem', 'setdefault', 'update']);

/** A real attribute of `str`, `list` or `dict` that assay does not implement. */
export interface UnsupportedMethod {
  unsupported: 'str' | 'list' | 'dict';
}
const UNSUPPORTED_STR: UnsupportedMethod = Object.freeze({ unsupported: 'str' });
const UNSUPPORTED_LIST: UnsupportedMethod = Object.freeze({ unsupported: 'list' });
const UNSUPPORTED_DICT: UnsupportedMethod = Object.freeze({ unsupported: 'dict' });

/**
 * Python's `getattr(type(value), name)` for the methods of str, list and dict: the method, unbound (call it
 * as `method(value, args, kwargs, str)`); `unsupported` with its type for a real attribute that assay does
 * not implement; undefined when the type has none. Nothing is allocated per lookup: templates look methods
 * up once per attribute access, tens of thousands of times per task.
 */
export function pythonMethod(value: unknown, name: string): Method | UnsupportedMethod | undefined {
  if (typeof value === 'string') {
    if (Object.hasOwn(STRING_METHODS, name)) return STRING_METHODS[name] as Method;
    if (OTHER_STR_ATTRIBUTES.has(name)) return UNSUPPORTED_STR;
  } else if (Array.isArray(value)) {
    if (Object.hasOwn(LIST_METHODS, name) && (name !== 'copy' || typeName(value) === 'list')) {
      return LIST_METHODS[name] as Method;
    }
    if (typeName(value) === 'list' && OTHER_LIST_ATTRIBUTES.has(name)) return UNSUPPORTED_LIST;
  } else if (isDict(value)) {
    if (Object.hasOwn(DICT_METHODS, name)) return DICT_METHODS[name] as Method;
    if (OTHER_DICT_ATTRIBUTES.has(name)) return UNSUPPORTED_DICT;
  }
  return undefined;
}
