/**
 * Jinja2's builtin filters and tests with their Python behaviour, plus lm-eval's one extra filter,
 * `regex_replace` (`re.sub(pattern, repl, string, count=count)`, lm_eval/utils.py). Filters receive
 * Python values (python/semantics/literal.ts) and apply Python's `str()` where Jinja2 does.
 */

import { PythonFloat } from '../python/semantics/literal.js';
import { percentFormat } from '../python/semantics/methods.js';
import { pythonSub } from '../python/semantics/regex.js';
import { characters, pythonStrip } from '../python/semantics/string.js';
import {
  asTuple,
  dictEntries,
  isDict,
  isFloat,
  isInt,
  isNumber,
  numeric,
  pythonCompare,
  pythonEquals,
  pythonIterate,
  pythonLen,
  truthy,
  typeName,
} from '../python/semantics/values.js';
import { getItem } from './jinja-attributes.js';
import {
  Callable,
  makeFloat,
  Namespace,
  renderValue,
  strictValue,
  TemplateEvaluationError,
  Undefined,
} from './jinja-values.js';

type Filter = (value: unknown, args: unknown[], kwargs: Map<string, unknown>) => unknown;

function option(
  args: unknown[],
  kwargs: Map<string, unknown>,
  index: number,
  name: string,
  fallback: unknown,
): unknown {
  if (args.length > index) return args[index];
  return kwargs.has(name) ? kwargs.get(name) : fallback;
}

/** Jinja2's `make_attrgetter`: a dotted path whose integer parts index sequences. */
function attributeGetter(path: unknown): (item: unknown) => unknown {
  if (typeof path === 'number') return (item) => strictValue(getItem(item, path));
  const parts = String(path)
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return (item) => parts.reduce<unknown>((current, part) => strictValue(getItem(current, part)), item);
}

function sortKey(value: unknown, caseSensitive: boolean): unknown {
  return !caseSensitive && typeof value === 'string' ? value.toLowerCase() : value;
}

function jinjaTitle(text: string): string {
  // Jinja2's do_title splits on runs of `-`, whitespace and opening brackets, unlike str.title().
  return text
    .split(/([-\s({[<]+)/)
    .filter((item) => item !== '')
    .map((item) => {
      const chars = characters(item);
      return chars[0].toUpperCase() + chars.slice(1).join('').toLowerCase();
    })
    .join('');
}

function pythonRound(value: number, precision: number): number {
  if (precision === 0) {
    // Python's round() rounds half to even.
    const floor = Math.floor(value);
    const difference = value - floor;
    if (difference === 0.5) return floor % 2 === 0 ? floor : floor + 1;
    return Math.round(value);
  }
  return Number(value.toFixed(precision));
}

function htmlEscape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[char] as string,
  );
}

function mapOrFilter(values: unknown[], args: unknown[], kwargs: Map<string, unknown>): unknown[] {
  if (kwargs.has('attribute')) {
    const getter = attributeGetter(kwargs.get('attribute'));
    const hasDefault = kwargs.has('default');
    return values.map((item) => {
      try {
        return getter(item);
      } catch (error) {
        if (hasDefault && error instanceof TemplateEvaluationError) return kwargs.get('default');
        throw error;
      }
    });
  }
  const [name, ...rest] = args;
  if (typeof name !== 'string')
    throw new TemplateEvaluationError('map: a filter name or attribute= is required');
  return values.map((item) => callFilter(name, item, rest, kwargs));
}

function selectItems(values: unknown[], args: unknown[], keep: boolean, attribute?: unknown): unknown[] {
  const getter = attribute === undefined ? (item: unknown) => item : attributeGetter(attribute);
  const [testName, ...testArgs] = args;
  return values.filter((item) => {
    const subject = getter(item);
    const passed = testName === undefined ? truthy(subject) : callTest(String(testName), subject, testArgs);
    return passed === keep;
  });
}

const FILTERS: Record<string, Filter> = {
  default: (value, args, kwargs) => {
    const fallback = option(args, kwargs, 0, 'default_value', '');
    const boolean = option(args, kwargs, 1, 'boolean', false);
    if (value instanceof Undefined || (boolean === true && !truthy(value))) return fallback;
    return value;
  },
  length: (value) => pythonLen(value),
  string: (value) => renderValue(value),
  join: (value, args, kwargs) => {
    const separator = option(args, kwargs, 0, 'd', '');
    const attribute = option(args, kwargs, 1, 'attribute', null);
    let items = pythonIterate(value);
    if (attribute !== null) items = items.map(attributeGetter(attribute));
    return items.map(renderValue).join(renderValue(separator));
  },
  int: (value, args, kwargs) => {
    const fallback = option(args, kwargs, 0, 'default', 0);
    const base = Number(option(args, kwargs, 1, 'base', 10));
    if (typeof value === 'string') {
      const text = pythonStrip(value, null, 'both').replaceAll('_', '');
      const digits =
        base === 16
          ? /^[+-]?(0x)?[0-9a-f]+$/i
          : base === 8
            ? /^[+-]?(0o)?[0-7]+$/i
            : base === 2
              ? /^[+-]?(0b)?[01]+$/i
              : /^[+-]?\d+$/;
      if (digits.test(text)) return Number.parseInt(text.replace(/0[xob]/i, ''), base);
      // Jinja2 falls back to int(float(value)).
      const asFloat = Number(text);
      return text !== '' && Number.isFinite(asFloat) && /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)
        ? Math.trunc(asFloat)
        : fallback;
    }
    const number = numeric(value);
    return number === undefined ? fallback : Math.trunc(number);
  },
  float: (value, args, kwargs) => {
    const fallback = option(args, kwargs, 0, 'default', new PythonFloat(0));
    const number = typeof value === 'string' ? parsePythonFloat(value) : numeric(value);
    return number === undefined ? fallback : makeFloat(number);
  },
  trim: (value, args, kwargs) =>
    pythonStrip(renderValue(value), option(args, kwargs, 0, 'chars', null) as string | null, 'both'),
  replace: (value, args, kwargs) => {
    const text = renderValue(value);
    const old = renderValue(args[0]);
    const replacement = renderValue(args[1]);
    const count = option(args, kwargs, 2, 'count', null);
    if (count === null) return text.split(old).join(replacement);
    let out = text;
    let from = 0;
    for (let done = 0; done < Number(count); done++) {
      const at = out.indexOf(old, from);
      if (at < 0) break;
      out = out.slice(0, at) + replacement + out.slice(at + old.length);
      from = at + replacement.length;
    }
    return out;
  },
  upper: (value) => renderValue(value).toUpperCase(),
  lower: (value) => renderValue(value).toLowerCase(),
  capitalize: (value) => {
    const chars = characters(renderValue(value));
    return chars.length ? chars[0].toUpperCase() + chars.slice(1).join('').toLowerCase() : '';
  },
  title: (value) => jinjaTitle(renderValue(value)),
  first: (value) => {
    const items = pythonIterate(value);
    return items.length ? items[0] : new Undefined('first', 'No first item, sequence was empty.');
  },
  last: (value) => {
    const items = pythonIterate(value);
    return items.length
      ? items[items.length - 1]
      : new Undefined('last', 'No last item, sequence was empty.');
  },
  list: (value) => [...pythonIterate(value)],
  reverse: (value) =>
    typeof value === 'string' ? characters(value).reverse().join('') : [...pythonIterate(value)].reverse(),
  sort: (value, args, kwargs) => {
    const reverse = option(args, kwargs, 0, 'reverse', false) === true;
    const caseSensitive = option(args, kwargs, 1, 'case_sensitive', false) === true;
    const attribute = option(args, kwargs, 2, 'attribute', null);
    const getter = attribute === null ? (item: unknown) => item : attributeGetter(attribute);
    // Array.prototype.sort is stable, as Python's sorted() is.
    const sorted = [...pythonIterate(value)].sort((a, b) =>
      pythonCompare(sortKey(getter(a), caseSensitive), sortKey(getter(b), caseSensitive), '<'),
    );
    return reverse ? sorted.reverse() : sorted;
  },
  unique: (value, args, kwargs) => {
    const caseSensitive = option(args, kwargs, 0, 'case_sensitive', false) === true;
    const seen: unknown[] = [];
    const out: unknown[] = [];
    for (const item of pythonIterate(value)) {
      const key = sortKey(item, caseSensitive);
      if (!seen.some((other) => pythonEquals(other, key))) {
        seen.push(key);
        out.push(item);
      }
    }
    return out;
  },
  sum: (value, args, kwargs) => {
    const attribute = option(args, kwargs, 0, 'attribute', null);
    let total = option(args, kwargs, 1, 'start', 0);
    const items = pythonIterate(value);
    for (const item of attribute === null ? items : items.map(attributeGetter(attribute))) {
      const a = numeric(total);
      const b = numeric(item);
      if (a === undefined || b === undefined)
        throw new TemplateEvaluationError(
          `unsupported operand type(s) for +: '${typeName(total)}' and '${typeName(item)}'`,
        );
      total = isFloat(total) || isFloat(item) ? makeFloat(a + b) : a + b;
    }
    return total;
  },
  min: (value, args, kwargs) => extreme(value, args, kwargs, -1),
  max: (value, args, kwargs) => extreme(value, args, kwargs, 1),
  abs: (value) => {
    const number = numeric(value);
    if (number === undefined)
      throw new TemplateEvaluationError(`bad operand type for abs(): '${typeName(value)}'`);
    return isFloat(value) ? makeFloat(Math.abs(number)) : Math.abs(number);
  },
  round: (value, args, kwargs) => {
    const precision = Number(option(args, kwargs, 0, 'precision', 0));
    const method = option(args, kwargs, 1, 'method', 'common');
    const number = numeric(value);
    if (number === undefined)
      throw new TemplateEvaluationError(`type ${typeName(value)} doesn't define __round__ method`);
    let result: number;
    if (method === 'common') result = pythonRound(number, precision);
    else {
      const scale = 10 ** precision;
      result = (method === 'ceil' ? Math.ceil(number * scale) : Math.floor(number * scale)) / scale;
      return makeFloat(result);
    }
    return isInt(value) ? result : makeFloat(result);
  },
  wordcount: (value) => (renderValue(value).match(/\w+/gu) ?? []).length,
  center: (value, args, kwargs) => {
    const text = renderValue(value);
    const width = Number(option(args, kwargs, 0, 'width', 80));
    const padding = Math.max(0, width - characters(text).length);
    // Python's str.center puts the extra space on the left when the padding and width are both odd.
    const left = Math.floor(padding / 2) + ((padding % 2) & (width % 2));
    return ' '.repeat(left) + text + ' '.repeat(padding - left);
  },
  indent: (value, args, kwargs) => {
    const width = option(args, kwargs, 0, 'width', 4);
    const first = option(args, kwargs, 1, 'first', false) === true;
    const blank = option(args, kwargs, 2, 'blank', false) === true;
    const prefix = typeof width === 'string' ? width : ' '.repeat(Number(width));
    const text = renderValue(value);
    const lines = text.split('\n');
    const body = lines
      .map((line, index) =>
        (index === 0 && !first) || (!blank && pythonStrip(line, null, 'both') === '') ? line : prefix + line,
      )
      .join('\n');
    return body;
  },
  format: (value, args, kwargs) => {
    if (args.length && kwargs.size)
      throw new TemplateEvaluationError("can't handle positional and keyword arguments at the same time");
    return percentFormat(
      renderValue(value),
      kwargs.size ? Object.fromEntries(kwargs) : asTuple(args),
      renderValue,
    );
  },
  items: (value) => {
    if (value instanceof Undefined) return [];
    if (!isDict(value))
      throw new TemplateEvaluationError(`Can only get item pairs from a mapping, not ${typeName(value)}`);
    return dictEntries(value).map(([key, item]) => asTuple([key, item]));
  },
  map: (value, args, kwargs) => mapOrFilter(pythonIterate(value), args, kwargs),
  select: (value, args) => selectItems(pythonIterate(value), args, true),
  reject: (value, args) => selectItems(pythonIterate(value), args, false),
  selectattr: (value, args) => selectItems(pythonIterate(value), args.slice(1), true, args[0]),
  rejectattr: (value, args) => selectItems(pythonIterate(value), args.slice(1), false, args[0]),
  attr: (value, args) => strictValue(getItem(value, args[0])),
  escape: (value) => htmlEscape(renderValue(value)),
  e: (value) => htmlEscape(renderValue(value)),
  safe: (value) => value,
  regex_replace: (value, args, kwargs) => {
    if (typeof value !== 'string')
      throw new TemplateEvaluationError(`regex_replace expects a string, got ${typeName(value)}`);
    const pattern = option(args, kwargs, 0, 'pattern', undefined);
    const replacement = option(args, kwargs, 1, 'repl', undefined);
    const count = Number(option(args, kwargs, 2, 'count', 0));
    if (typeof pattern !== 'string' || typeof replacement !== 'string') {
      throw new TemplateEvaluationError(
        'regex_replace(pattern, repl, count=0) needs a string pattern and replacement',
      );
    }
    return pythonSub(pattern, replacement, value, { count });
  },
};
FILTERS.d = FILTERS.default;
FILTERS.count = FILTERS.length;

function extreme(value: unknown, args: unknown[], kwargs: Map<string, unknown>, direction: 1 | -1): unknown {
  const caseSensitive = option(args, kwargs, 0, 'case_sensitive', false) === true;
  const attribute = option(args, kwargs, 1, 'attribute', null);
  const getter = attribute === null ? (item: unknown) => item : attributeGetter(attribute);
  const items = pythonIterate(value);
  if (items.length === 0)
    return new Undefined(direction > 0 ? 'max' : 'min', 'No aggregated item, sequence was empty.');
  let best = items[0];
  for (const item of items.slice(1)) {
    const order = pythonCompare(
      sortKey(getter(item), caseSensitive),
      sortKey(getter(best), caseSensitive),
      '<',
    );
    if (order * direction > 0) best = item;
  }
  return best;
}

function parsePythonFloat(text: string): number | undefined {
  const clean = pythonStrip(text, null, 'both').replaceAll('_', '').toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(clean)) return clean.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(clean)) return Number.NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(clean)) return undefined;
  return Number(clean);
}

// Filters that must see an undefined value instead of raising on it.
const UNDEFINED_AWARE = new Set(['default', 'd', 'items']);

export function isKnownFilter(name: string): boolean {
  return Object.hasOwn(FILTERS, name);
}

export function callFilter(
  name: string,
  value: unknown,
  args: unknown[],
  kwargs: Map<string, unknown>,
): unknown {
  const filter = FILTERS[name];
  if (!filter) throw new TemplateEvaluationError(`No filter named '${name}'.`);
  return filter(UNDEFINED_AWARE.has(name) ? value : strictValue(value), args, kwargs);
}

type Test = (value: unknown, args: unknown[]) => boolean;

const TESTS: Record<string, Test> = {
  defined: (value) => !(value instanceof Undefined),
  undefined: (value) => value instanceof Undefined,
  none: (value) => value === null,
  boolean: (value) => typeof value === 'boolean',
  true: (value) => value === true,
  false: (value) => value === false,
  integer: (value) => isInt(value),
  float: (value) => isFloat(value),
  number: (value) => isNumber(value) || typeof value === 'boolean',
  string: (value) => typeof value === 'string',
  mapping: (value) => isDict(value),
  iterable: (value) => typeof value === 'string' || Array.isArray(value) || isDict(value),
  sequence: (value) => typeof value === 'string' || Array.isArray(value) || isDict(value),
  callable: (value) => value instanceof Callable,
  odd: (value) => Math.abs((numeric(value) ?? 0) % 2) === 1,
  even: (value) => (numeric(value) ?? 1) % 2 === 0,
  lower: (value) => typeof value === 'string' && value === value.toLowerCase() && /\p{Ll}/u.test(value),
  upper: (value) => typeof value === 'string' && value === value.toUpperCase() && /\p{Lu}/u.test(value),
  divisibleby: (value, args) => (numeric(value) ?? Number.NaN) % (numeric(args[0]) ?? Number.NaN) === 0,
  eq: (value, args) => pythonEquals(value, args[0]),
  ne: (value, args) => !pythonEquals(value, args[0]),
  lt: (value, args) => pythonCompare(value, args[0], '<') < 0,
  le: (value, args) => pythonCompare(value, args[0], '<=') <= 0,
  gt: (value, args) => pythonCompare(value, args[0], '>') > 0,
  ge: (value, args) => pythonCompare(value, args[0], '>=') >= 0,
  in: (value, args) => {
    const container = args[0];
    if (typeof container === 'string') return typeof value === 'string' && container.includes(value);
    return pythonIterate(container).some((item) => pythonEquals(item, value));
  },
  sameas: (value, args) => value === args[0],
  escaped: () => false,
  namespace: (value) => value instanceof Namespace,
};
TESTS.equalto = TESTS.eq;
TESTS['=='] = TESTS.eq;
TESTS['!='] = TESTS.ne;
TESTS['<'] = TESTS.lt;
TESTS['<='] = TESTS.le;
TESTS['>'] = TESTS.gt;
TESTS['>='] = TESTS.ge;
TESTS.greaterthan = TESTS.gt;
TESTS.lessthan = TESTS.lt;

const UNDEFINED_SAFE_TESTS = new Set([
  'defined',
  'undefined',
  'none',
  'boolean',
  'true',
  'false',
  'integer',
  'float',
  'number',
  'string',
  'mapping',
  'iterable',
  'sequence',
  'callable',
  'namespace',
  'sameas',
  'escaped',
]);

export function callTest(name: string, value: unknown, args: unknown[] = []): boolean {
  const test = TESTS[name];
  if (!test) throw new TemplateEvaluationError(`No test named '${name}'.`);
  return test(UNDEFINED_SAFE_TESTS.has(name) ? value : strictValue(value), args.map(strictValue));
}
