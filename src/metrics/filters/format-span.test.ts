import { describe, expect, it } from 'vitest';
import { buildFilterStep } from './registry.js';

// Expected values come from running lm-eval's own SPANFilter (lm_eval/filters/transformation.py at
// commit 4e7e0d47) under CPython 3.11: `SPANFilter().apply([cases], [{}])`.
const CASES: Array<[string, string]> = [
  [
    'Person: John Smith, Mary $$ Location: Kenya, uganda $$ organization: none',
    'per: john smith $ per: mary $ loc: kenya $ loc: uganda',
  ],
  ['PER: Ali\nLOC: Nairobi\nORG: UN$$', 'per: ali $ loc: nairobi $ org: un'],
  [
    'persons: A, B $$ counties: Kiambu $$ time: Monday $$ company: Acme $$ continent: Africa',
    'per: a $ per: b $ loc: kiambu $ date: monday $ org: acme $ loc: africa',
  ],
  // A label rewritten mid-span stays uppercase: the entity pattern runs to the next `$`.
  ['The person: Bob went to location : Paris', 'per: bob went to LOC: paris'],
  ['per:   Ann ,  none , Bea $$$ loc: Lyon $$', 'per: ann $ per: bea $ loc: lyon'],
  ['no entities here', ''],
  ['date: 12 March 2020 $$ per: Zoë Ünal', 'date: 12 march 2020 $ per: zoë ünal'],
  // `\b` is a word boundary: "superperson" is no label, and in Python's Unicode sense neither is "éperson".
  ['superperson: X $$ person: Y', 'per: y'],
  ['éperson: X $$ person: Y', 'per: y'],
  ['PERSON: Éric $$ people: Ōta, Ngũgĩ', 'per: éric $ per: ōta $ per: ngũgĩ'],
  ['', ''],
  // Python's \s and str.strip() include U+00A0, U+2003 and U+3000.
  ['loc:\u00a0Lagos\u2003$$ per: Ada\u3000', 'loc: lagos $ per: ada'],
];

describe('format_span filter', () => {
  it('formats NER answers exactly as lm-eval does', () => {
    const step = buildFilterStep({ function: 'format_span' });
    expect(
      step(
        CASES.map(([input]) => input),
        {},
      ),
    ).toEqual(CASES.map(([, output]) => output));
  });

  it('takes no arguments, as lm-eval’s SPANFilter()', () => {
    expect(() => buildFilterStep({ function: 'format_span', label: 'x' })).toThrow(
      /filter format_span has no argument "label"; it takes: none/,
    );
  });
});
