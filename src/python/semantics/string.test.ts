import { describe, expect, it } from 'vitest';
import { characterAt, isSpace, pythonSplit, pythonStrip, removeCharacters } from './string.js';

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
    expect(pythonStrip('  x  ', null, 'left')).toBe('x  ');
    expect(pythonStrip('  x  ', null, 'right')).toBe('  x');
  });

  it('splits with a separator and maxsplit, strips given characters', () => {
    // 'a  b c '.split(None, 1) == ['a', 'b c ']; 'a,b,,c'.split(',', 2) == ['a', 'b', ',c']
    expect(pythonSplit('a  b c ', null, 1)).toEqual(['a', 'b c ']);
    expect(pythonSplit('a,b,,c', ',', 2)).toEqual(['a', 'b', ',c']);
    // 'a'.split('') raises ValueError: empty separator
    expect(() => pythonSplit('a', '')).toThrow(
      expect.objectContaining({ pythonType: 'ValueError', message: 'empty separator' }),
    );
    // 'xxhixyx'.strip('xy') == 'hi'
    expect(pythonStrip('xxhixyx', 'xy')).toBe('hi');
    // ['\x1c'.isspace(), '\ufeff'.isspace(), '\x85'.isspace()] == [True, False, True]
    expect(['\x1c', '\ufeff', '\x85'].map(isSpace)).toEqual([true, false, true]);
  });

  it('removes characters as str.translate does', () => {
    expect(removeCharacters('a,b.c!', ',.!')).toBe('abc');
  });
});

describe('characterAt: Python text[index]', () => {
  // CPython 3.11: 'héllo'[1] == 'é', 'abc'[-1] == 'c', 'a😀b'[1] == '😀', 'a😀b'[-1] == 'b', 'a😀b'[2] == 'b';
  // 'abc'[3] and 'abc'[-4] raise IndexError.
  it('indexes code points, from the end for negative indexes', () => {
    expect(characterAt('héllo', 1)).toBe('é');
    expect(characterAt('abc', -1)).toBe('c');
    expect(characterAt('a😀b', 1)).toBe('😀');
    expect(characterAt('a😀b', 2)).toBe('b');
    expect(characterAt('a😀b', -1)).toBe('b');
    expect(characterAt('a😀b', -3)).toBe('a');
  });
  it('is undefined where Python raises IndexError', () => {
    expect(characterAt('abc', 3)).toBeUndefined();
    expect(characterAt('abc', -4)).toBeUndefined();
    expect(characterAt('a😀b', 3)).toBeUndefined();
    expect(characterAt('', 0)).toBeUndefined();
  });
});
