/**
 * parsePythonLiteral / pythonRepr against CPython 3.11: every expected string is `repr(ast.literal_eval(text))`
 * or `repr(value)` computed by python3, so parse and print are checked together.
 */
import { describe, expect, test } from 'vitest';
import {
  isTuple,
  PythonFloat,
  PythonLiteralError,
  parsePythonLiteral,
  pythonRepr,
  pythonStr,
} from './literal.js';

const LITERALS: Array<[string, string]> = [
  ["['a', \"b'c\"]", "['a', \"b'c\"]"],
  ["('x', 'y')", "('x', 'y')"],
  ["('solo',)", "('solo',)"],
  ['()', '()'],
  ['[]', '[]'],
  ['{}', '{}'],
  ["{'a': 1, 'b': [2, 3.5]}", "{'a': 1, 'b': [2, 3.5]}"],
  ["{1: 'one', 2: 'two'}", "{1: 'one', 2: 'two'}"],
  ["'single'", "'single'"],
  ['"double"', "'double'"],
  ["'''triple\nquoted'''", "'triple\\nquoted'"],
  ['"""tri "ple" """', '\'tri "ple" \''],
  ["r'raw\\d+'", "'raw\\\\d+'"],
  ["u'unicode'", "'unicode'"],
  ["'a' 'b' \"c\"", "'abc'"],
  ["'esc\\n\\t\\\\ \\x41 \\u00e9 \\U0001F600 \\101 \\0 \\q'", "'esc\\n\\t\\\\ A é 😀 A \\x00 \\\\q'"],
  ["'line\\\ncontinued'", "'linecontinued'"],
  ['42', '42'],
  ['-7', '-7'],
  ['+3', '3'],
  ['0', '0'],
  ['00', '0'],
  ['1_000', '1000'],
  ['0x1F', '31'],
  ['0o17', '15'],
  ['0b101', '5'],
  ['3.14', '3.14'],
  ['-0.5', '-0.5'],
  ['.5', '0.5'],
  ['5.', '5.0'],
  ['1e5', '100000.0'],
  ['2.5E-3', '0.0025'],
  ['1.0', '1.0'],
  ['-0.0', '-0.0'],
  ['True', 'True'],
  ['False', 'False'],
  ['None', 'None'],
  ['[True, None, -1, 2.0]', '[True, None, -1, 2.0]'],
  ['  [1, 2]', '[1, 2]'],
  ['[1, 2,]', '[1, 2]'],
  ['[\n 1, # one\n 2\n]', '[1, 2]'],
  ['1, 2', '(1, 2)'],
  ["[[1, [2]], {'k': (3,)}]", "[[1, [2]], {'k': (3,)}]"],
  ["'It\\'s \"hot\"'", "'It\\'s \"hot\"'"],
  [
    "['tab\\there', 'nul\\x00', 'zw\\u200b', 'café ☕']",
    "['tab\\there', 'nul\\x00', 'zw\\u200b', 'café ☕']",
  ],
];

/** Python raises on these too (SyntaxError or ValueError). */
const PYTHON_REJECTS: string[] = ['007', '[1, 2', 'name', "f'x'", "'open", '1 2', '[1]\n[2]', "'\\N{DASH}'"];

/** Python parses these (bytes, a set, a complex number) but no dataset template produces them; refused, not approximated. */
const UNSUPPORTED: string[] = ["b'x'", '{1, 2}', '1j'];

const STRING_REPRS: Array<[string, string]> = [
  ['', "''"],
  ['plain', "'plain'"],
  ["it's", '"it\'s"'],
  ['say "hi"', '\'say "hi"\''],
  ['both \' and "', "'both \\' and \"'"],
  ['back\\slash', "'back\\\\slash'"],
  ['nl\ncr\rtab\t', "'nl\\ncr\\rtab\\t'"],
  ['\u0000\u0007\u001b', "'\\x00\\x07\\x1b\\x7f'"],
  [' ­', "'\\x85\\xa0\\xad'"],
  [' ​﻿', "'\\u2028\\u200b\\ufeff'"],
  ['é☕😀', "'é☕😀'"],
  ['󠀁', "'\\U000e0001'"],
  ['space end ', "'space end '"],
];

const FLOAT_REPRS: Array<[number | string, string]> = [
  [0.1, '0.1'],
  [1.5, '1.5'],
  [1e-5, '1e-05'],
  [0.0001, '0.0001'],
  [1e16, '1e+16'],
  [1000000000000000.0, '1000000000000000.0'],
  [123456789.125, '123456789.125'],
  [-2.5e-7, '-2.5e-07'],
  [1.7976931348623157e308, '1.7976931348623157e+308'],
  [5e-324, '5e-324'],
  [2.0, '2.0'],
  [-0.0, '-0.0'],
  ['inf', 'inf'],
  ['nan', 'nan'],
];

describe('parsePythonLiteral round-trips through repr as CPython does', () => {
  for (const [text, expected] of LITERALS) {
    test(JSON.stringify(text), () => {
      expect(pythonRepr(parsePythonLiteral(text))).toBe(expected);
    });
  }
});

describe('parsePythonLiteral refuses', () => {
  for (const text of [...PYTHON_REJECTS, ...UNSUPPORTED]) {
    test(JSON.stringify(text), () => {
      expect(() => parsePythonLiteral(text)).toThrow(PythonLiteralError);
    });
  }
});

describe('parsed shapes', () => {
  test('tuples are marked arrays, dicts are objects unless a key is not a str', () => {
    const tuple = parsePythonLiteral("('a', 'b')");
    expect(tuple).toEqual(['a', 'b']);
    expect(isTuple(tuple)).toBe(true);
    expect(parsePythonLiteral("{'a': [1, None]}")).toEqual({ a: [1, null] });
    expect(parsePythonLiteral("{1: 'x'}")).toEqual(new Map([[1, 'x']]));
    expect(parsePythonLiteral('2.0')).toEqual(new PythonFloat(2));
    expect(parsePythonLiteral('2.5')).toBe(2.5);
  });
});

describe('pythonRepr and pythonStr', () => {
  for (const [text, expected] of STRING_REPRS) {
    test(`repr(${JSON.stringify(text)})`, () => {
      expect(pythonRepr(text)).toBe(expected);
    });
  }

  test('float reprs', () => {
    for (const [raw, expected] of FLOAT_REPRS) {
      const value = raw === 'inf' ? Infinity : raw === 'nan' ? Number.NaN : (raw as number);
      // JSON carries 2.0 as 2; an integral Python float is a PythonFloat on the JS side.
      expect(pythonRepr(Number.isInteger(value) ? new PythonFloat(value) : value)).toBe(expected);
    }
  });

  test('str() of a str is the str itself; containers use repr for their items', () => {
    expect(pythonStr("it's")).toBe("it's");
    expect(pythonStr(["it's", null, true, 1, new PythonFloat(1)])).toBe('["it\'s", None, True, 1, 1.0]');
    expect(pythonStr({ k: { n: [] } })).toBe("{'k': {'n': []}}");
  });
});
