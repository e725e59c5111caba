import { describe, expect, it } from 'vitest';
import { isImplicitString, plainValue } from './pyyaml-schema.js';
import { parseYamlText } from './yaml-loader.js';

/** The value js-yaml (as the loader reads files) gives `text` as a plain scalar; undefined if not one. */
function jsYamlValue(text: string): { value: unknown } | undefined {
  try {
    const mapping = parseYamlText(`k: ${text}\n`, 'case.yaml') as Record<string, unknown>;
    return { value: mapping.k };
  } catch {
    return undefined;
  }
}

// Every implicit type's forms, and texts that start like them but are strings.
const FORMS = [
  '~',
  'null',
  'Null',
  'NULL',
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'NO',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  '0',
  '010',
  '09',
  '0x1F',
  '0b101',
  '+12',
  '-3',
  '1_000',
  '1:30',
  '1.5',
  '-.5',
  '.5',
  '1.0e+3',
  '1e5',
  '.inf',
  '-.Inf',
  '.NaN',
  '190:20:30.15',
  'y',
  'n',
  'nulls',
  'trueish',
  'offset',
  'tiny',
  'output',
  'yesterday',
  'n_shot',
  '0_',
  '.hidden',
  '-x',
  '+y',
];

describe('plainValue and isImplicitString', () => {
  it('type every form as js-yaml does, under every first character', () => {
    const texts = new Set(FORMS);
    for (let code = 0x21; code < 0x7f; code++) {
      for (const form of FORMS) texts.add(String.fromCharCode(code) + form.slice(1));
      texts.add(`${String.fromCharCode(code)}word`);
    }
    let compared = 0;
    for (const text of texts) {
      const expected = jsYamlValue(text);
      // Not a plain scalar (an indicator, a comment, a quote), or one js-yaml refuses.
      if (expected === undefined || text.startsWith('<<') || /^[#&*!|>'"%@`[\]{},?:]/.test(text)) continue;
      const value = plainValue(text);
      expect(value, text).toEqual(expected.value);
      expect(isImplicitString(text), text).toBe(typeof expected.value === 'string');
      compared++;
    }
    expect(compared).toBeGreaterThan(3000);
  });

  it('leave the merge key `<<` untyped', () => {
    expect(plainValue('<<')).toBeUndefined();
    expect(isImplicitString('<<')).toBe(false);
  });
});
