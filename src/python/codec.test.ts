/**
 * The bridge and the Python semantics share one tuple mark and one integral float, so a value keeps its
 * Python type across both: a tuple the worker returns prints as Python prints a tuple, and a tuple or a
 * `1.0` parsed from a template reaches Python as a tuple and a float. Expected strings are CPython's:
 * `str(('a', 1)) == "('a', 1)"`, `str(0.0) == '0.0'`.
 */
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue, isPyTuple, PyFloat } from './codec.js';
import { PythonFloat, parsePythonLiteral, pythonStr } from './semantics/literal.js';

describe('bridge codec and Python semantics', () => {
  it('prints a tuple from the worker as a tuple', () => {
    const value = decodeValue('{"$py": "tuple", "v": ["a", 1]}');
    expect(isPyTuple(value)).toBe(true);
    expect(pythonStr(value)).toBe("('a', 1)");
  });

  it('sends a parsed tuple and an integral float as Python types', () => {
    const parsed = parsePythonLiteral("('a', 1.0)");
    expect(JSON.parse(encodeValue(parsed))).toEqual({ $py: 'tuple', v: ['a', { $py: 'float', v: 1 }] });
    expect(JSON.parse(encodeValue([new PyFloat(0)]))).toEqual([{ $py: 'float', v: 0 }]);
    expect(new PyFloat(0)).toBeInstanceOf(PythonFloat);
    expect(pythonStr(new PyFloat(0))).toBe('0.0');
  });
});
