import { describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { compilePythonRegex, pythonEscape, pythonFindAll, pythonSearch, pythonSub } from './regex.js';

// Expected values were produced by CPython 3.11.7 on this machine: `re.findall(pattern, text, flags)` and
// `re.sub(pattern, replacement, text)` for each row (tuples printed as lists), dumped with json.dumps.
const FINDALL: Array<[pattern: string, text: string, flags: string, expected: unknown[]]> = [
  ['#### (\\-?[0-9\\.\\,]+)', 'so #### 1,234.5 and #### -7', '', ['1,234.5', '-7']],
  [
    '(-?[$0-9.,]{2,})|(-?[0-9]+)',
    'I have 5 apples and $12.50 total 3',
    '',
    [
      ['', '5'],
      ['$12.50', ''],
      ['', '3'],
    ],
  ],
  ['(?s).*answer is (.*)', 'line1\nthe answer is 42\nend', '', ['42\nend']],
  ['.*answer is (.*)', 'line1\nthe answer is 42\nend', '', ['42']],
  ['(?i)the ANSWER is \\(?([A-D])\\)?', 'The answer is (C). the answer is b', '', ['C', 'b']],
  ['^\\s*([A-D])', '  B is right\nC', '', ['B']],
  ['(?m)^([A-D])$', 'A\nB\r\nC\n', '', ['A', 'C']],
  ['([A-D])$', 'pick A\n', '', ['A']],
  ['(?P<num>\\d+)-(?P=num)', '12-12 3-4 77-77', '', ['12', '77']],
  [
    '\\b\\w+\\b',
    'h\u00e9llo w\u00f6rld_1 \u0663\u0664 x',
    '',
    ['h\u00e9llo', 'w\u00f6rld_1', '\u0663\u0664', 'x'],
  ],
  ['\\d+', 'a\u0661\u0662b34', '', ['\u0661\u0662', '34']],
  ['(?a)\\w+', 'h\u00e9llo', '', ['h', 'llo']],
  ['|a', 'a', '', ['', 'a', '']],
  ['\\d*', 'a12b', '', ['', '12', '', '']],
  ['x*', 'abxd', '', ['', '', 'x', '', '']],
  ['a{,2}', 'aaaa', '', ['aa', 'aa', '']],
  ['a{2}|b{', 'aab{', '', ['aa', 'b{']],
  ['[]a-]+', 'x]-a]y', '', [']-a]']],
  ['[^\\W\\d]+', 'ab12cd_e', '', ['ab', 'cd_e']],
  ['\\s+', 'a\u001cb\u00a0c\ufeffd', '', ['\u001c', '\u00a0']],
  ['(?x) \\d+  # digits\\n  \\. \\d*', '3.14 and 2.', '', ['3', '14', '2']],
  ['The answer is (.*?)\\.', 'The answer is 7. The answer is eight.', '', ['7', 'eight']],
  [
    '(a)|(b)',
    'ab',
    '',
    [
      ['a', ''],
      ['', 'b'],
    ],
  ],
  [
    '(?:(a)|b)(c)?',
    'abc',
    '',
    [
      ['a', ''],
      ['', 'c'],
    ],
  ],
  ['answer:\\s*(\\w)\\Z', 'answer: Q', '', ['Q']],
  ['\\Aanswer', 'answer answer', '', ['answer']],
  ['(?<=\\$)\\d+', '$5 and $66', '', ['5', '66']],
  ['(?i)\u00e9', '\u00c9', '', ['\u00c9']],
  ['end$', 'the end\n', '', ['end']],
  ['(?s)a.b', 'a\nb a\rb', '', ['a\nb', 'a\rb']],
  ['a.b', 'a\nb a\rb a\u2028b', '', ['a\rb', 'a\u2028b']],
  ['\\x41\\u0042\\101\\0', 'AB A\u0000', '', []],
  ['a', 'AaA', 'i', ['A', 'a', 'A']],
];

const SUB: Array<[pattern: string, replacement: string, text: string, expected: string]> = [
  ['x*', '-', 'abxd', '-a-b--d-'],
  ['(\\w+) (\\w+)', '\\2 \\1', 'hello world foo bar', 'world hello bar foo'],
  ['(?P<a>\\d)', '<\\g<a>\\g<0>>', 'a1b2', 'a<11>b<22>'],
  [',', '', '1,234,567', '1234567'],
  ['(a)|b', '[\\1]', 'ab', '[a][]'],
  ['\\s', '\\n\\\\', 'a b', 'a\n\\b'],
  ['(\\d)', '\\g<1>0', '7', '70'],
];

describe('pythonFindAll', () => {
  it.each(FINDALL)('findall(%j, %j) matches CPython', (pattern, text, flags, expected) => {
    expect(pythonFindAll(pattern, text, flags)).toEqual(expected);
  });
});

describe('pythonSub', () => {
  it.each(SUB)('sub(%j, %j, %j) matches CPython', (pattern, replacement, text, expected) => {
    expect(pythonSub(pattern, replacement, text)).toBe(expected);
  });

  it('honours count and function replacements', () => {
    // re.sub(r'\d', '#', 'a1b2c3', count=2) == 'a#b#c3'
    expect(pythonSub('\\d', '#', 'a1b2c3', { count: 2 })).toBe('a#b#c3');
    expect(pythonSub('\\d', (match) => String(Number(match[0]) * 2), 'a1b2')).toBe('a2b4');
  });

  it('rejects a reference to a group the pattern does not have', () => {
    expect(() => pythonSub('(a)', '\\2', 'a')).toThrow(/invalid group reference 2/);
  });
});

describe('compilePythonRegex', () => {
  it('translates Python-only syntax', () => {
    const compiled = compilePythonRegex('(?P<word>\\w+) (?P=word)\\Z');
    expect(compiled.groupCount).toBe(1);
    expect([...compiled.groupNames]).toEqual([['word', 1]]);
    expect(compiled.source).toContain('(?<word>');
    expect(compiled.source).toContain('\\k<word>');
    expect(compiled.source.endsWith('$')).toBe(true);
  });

  it('reads inline flags at the start, and flags given as an argument', () => {
    expect(compilePythonRegex('(?si)a.b').flags).toBe('is');
    expect(compilePythonRegex('a.b', 'im').flags).toBe('im');
    expect(pythonSearch('(?i)yes', 'YES')?.[0]).toBe('YES');
  });

  it('caches compiled patterns', () => {
    expect(compilePythonRegex('cache (me)')).toBe(compilePythonRegex('cache (me)'));
    expect(compilePythonRegex('cache (me)', 'i')).not.toBe(compilePythonRegex('cache (me)'));
  });

  // Python's own messages for these patterns (re.compile on CPython 3.11) are quoted in each row.
  it.each([
    ['a(?i)b', /global flags not at the start/], // global flags not at the start of the expression
    ['(abc', /missing \), unterminated subpattern/], // missing ), unterminated subpattern
    ['abc)', /unbalanced parenthesis/], // unbalanced parenthesis at position 3
    ['*a', /nothing to repeat/], // nothing to repeat at position 0
    ['a**', /multiple repeat/], // multiple repeat at position 2
    ['\\e', /bad escape \\e/], // bad escape \e at position 0
    ['(?<n>a)', /unknown extension/], // unknown extension ?<n at position 1
    ['[b-a]', /bad character range/], // bad character range b-a at position 1
    ['\\2(a)', /invalid group reference 2/], // invalid group reference 2 at position 1
  ])('rejects %j as Python does', (pattern, message) => {
    expect(() => compilePythonRegex(pattern)).toThrow(message);
  });

  // Python accepts these; they have no JS equivalent, so they are refused with a clear message.
  it.each([
    ['(?>a)', /atomic groups/],
    ['a*+', /possessive/],
    ['\\N{DIGIT ONE}', /\\N\{…\}/],
    ['(?i:x)y', /scoped/],
    ['(a)?(?(1)b|c)', /conditional/],
  ])('refuses unsupported %j with an AssayError naming the pattern', (pattern, message) => {
    let caught: unknown;
    try {
      compilePythonRegex(pattern);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AssayError);
    expect((caught as AssayError).code).toBe('bad_regex');
    expect((caught as AssayError).message).toMatch(message);
    expect((caught as AssayError).message).toContain(JSON.stringify(pattern));
  });
});

describe('pythonEscape', () => {
  it('escapes as re.escape does, and the result matches the text literally', () => {
    // re.escape('a.b (c) $5 #1') == 'a\\.b\\ \\(c\\)\\ \\$5\\ \\#1'
    expect(pythonEscape('a.b (c) $5 #1')).toBe('a\\.b\\ \\(c\\)\\ \\$5\\ \\#1');
    expect(pythonFindAll(pythonEscape('(B) [x]?'), 'is (B) [x]? ok')).toEqual(['(B) [x]?']);
  });
});
