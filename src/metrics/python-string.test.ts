import { describe, expect, it } from 'vitest';
import { pythonLstrip, pythonRstrip, pythonSplit, pythonStrip, removeCharacters } from './python-string.js';

describe('Python str helpers', () => {
  // Expected values: CPython 3.11 on this machine, as quoted above each assertion.
  it('split on Python whitespace, which differs from JS \\s', () => {
    // '\x1ca\u00a0b\ufeffc\x85'.split() == ['a', 'b\ufeffc']
    expect(pythonSplit('\x1ca\u00a0b\ufeffc\x85')).toEqual(['a', 'b\ufeffc']);
    expect(pythonSplit('   ')).toEqual([]);
  });

  it('strip, lstrip and rstrip the same set', () => {
    // '\x1f x \u3000'.strip() == 'x'; '\ufeffx'.strip() == '\ufeffx'
    expect(pythonStrip('\x1f x \u3000')).toBe('x');
    expect(pythonStrip('\ufeffx')).toBe('\ufeffx');
    expect(pythonLstrip('  x  ')).toBe('x  ');
    expect(pythonRstrip('  x  ')).toBe('  x');
  });

  it('removes characters as str.translate does', () => {
    expect(removeCharacters('a,b.c!', ',.!')).toBe('abc');
  });
});
