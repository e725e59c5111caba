import { describe, expect, it } from 'vitest';
import { parsePythonFloat, pythonFloatRepr, pythonScalarStr } from './format.js';

// Expected strings are CPython 3.11's str(float(x)).
describe('pythonFloatRepr', () => {
  it.each([
    [-1.5, '-1.5'],
    [1, '1.0'],
    [0.00001, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [123456789012345.6, '123456789012345.6'],
    [-0, '-0.0'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('%s → %s', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });
  it('formats bools and None as Python does', () => {
    expect(pythonScalarStr(true)).toBe('True');
    expect(pythonScalarStr(null)).toBe('None');
  });
});

describe('parsePythonFloat', () => {
  // CPython 3.11: str(float('nan')) == 'nan', str(float('-inf')) == '-inf', str(1e-05) == '1e-05'.
  it.each([
    ['nan', Number.NaN],
    ['inf', Number.POSITIVE_INFINITY],
    ['-inf', Number.NEGATIVE_INFINITY],
    ['1e-05', 0.00001],
    ['-0.0', -0],
    ['1e+16', 1e16],
    ['-1.5', -1.5],
  ])('%s → %s', (text, expected) => {
    expect(parsePythonFloat(text)).toBe(expected);
  });
  it('reads back every string pythonFloatRepr writes', () => {
    for (const value of [0.30000000000000004, 123456789012345.6, 1, -2.5e-300, Number.MAX_VALUE]) {
      expect(parsePythonFloat(pythonFloatRepr(value))).toBe(value);
    }
  });
});
