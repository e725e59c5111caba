/**
 * Python's `str()` of the scalars that reach sample logs (floats, bools, None), so that stringified
 * responses read as lm-eval writes them: `-1.5`, `1.0`, `1e-05`, `True`, `None`. Hand-written for Python
 * parity: JS's `String(number)` differs (`1`, `0.00001`, `true`), and no library prints Python's repr.
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Number.POSITIVE_INFINITY) return 'inf';
  if (value === Number.NEGATIVE_INFINITY) return '-inf';
  if (Object.is(value, -0)) return '-0.0';
  const abs = Math.abs(value);
  // Python switches to exponent notation below 1e-4 and from 1e16 on; JS at 1e-7 and 1e21.
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa, exponent] = value.toExponential().split('e');
    const sign = exponent.startsWith('-') ? '-' : '+';
    const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  const text = String(value);
  return Number.isInteger(value) ? `${text}.0` : text;
}

/**
 * The inverse of `pythonFloatRepr`: a float back from what Python's `str(float)` wrote (`nan`, `inf`,
 * `-inf`, `1e-05`, `-0.0`); JS's `Number()` reads all of them but the non-finite three.
 */
export function parsePythonFloat(text: string): number {
  if (text === 'nan') return Number.NaN;
  if (text === 'inf') return Number.POSITIVE_INFINITY;
  if (text === '-inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

export function pythonScalarStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pythonFloatRepr(value);
  return String(value);
}
