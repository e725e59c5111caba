import { describe, expect, it } from 'vitest';
import { parseJsonKeepingFloats } from './json-floats.js';
import { PythonFloat, pythonRepr } from './literal.js';

/** Python's repr of what json.loads gives for each text (values written by hand from Python's rules). */
const CASES: Array<[string, string]> = [
  ['{"a": 18.0, "b": 18, "c": 1.5}', "{'a': 18.0, 'b': 18, 'c': 1.5}"],
  ['[1e3, 1E3, 2e-3, -0.0, 0, -7]', '[1000.0, 1000.0, 0.002, -0.0, 0, -7]'],
  ['{"s": "18.0 and 1e3", "n": [2.0, {"x": 3.0}]}', "{'s': '18.0 and 1e3', 'n': [2.0, {'x': 3.0}]}"],
  ['{"q": "say \\"1.0\\" \\\\", "v": 4.0}', `{'q': 'say "1.0" \\\\', 'v': 4.0}`],
  ['{"\\u0000f": 1.0}', "{'\\x00f': 1.0}"],
  ['12', '12'],
  ['12.0', '12.0'],
];

describe('parseJsonKeepingFloats', () => {
  it.each(CASES)('%s reads as Python reads it', (text, repr) => {
    expect(pythonRepr(parseJsonKeepingFloats(text))).toBe(repr);
  });

  it('gives integral floats as PythonFloat and leaves ints as numbers', () => {
    const value = parseJsonKeepingFloats('{"a": 18.0, "b": 18}') as Record<string, unknown>;
    expect(value.a).toBeInstanceOf(PythonFloat);
    expect(value.b).toBe(18);
  });

  it('reports invalid JSON as JSON.parse does on the text as written', () => {
    expect(() => parseJsonKeepingFloats('{"a": 1.0,}')).toThrow(
      (() => {
        try {
          JSON.parse('{"a": 1.0,}');
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })(),
    );
  });
});
