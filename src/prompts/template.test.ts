/**
 * renderTemplate against Jinja2 itself: each expected string below is what lm-eval's `utils.apply_template`
 * (lm_eval/utils.py at 4e7e0d47: Environment(undefined=StrictUndefined, keep_trailing_newline=True) plus
 * `regex_replace`) returned for the template and doc, run with Jinja2 3.1.6 on Python 3.11.
 */
import { describe, expect, test } from 'vitest';
import { AssayError } from '../errors.js';
import { PythonFloat } from '../python/semantics/literal.js';
import { checkTemplate, renderTemplate } from './template.js';

const location = { task: 'fixture_task', docId: 3, field: 'doc_to_text' };

const DOC: Record<string, unknown> = {
  question: '　 Which gas do plants absorb?﻿ \n',
  text: 'the quick  brown fox\njumps over the dog',
  answer: 'Natalia sold 48/2 = 24 clips.\n#### 72',
  answerKey: 'C',
  choices: {
    text: ["a cat's eye", 'It\'s "hot"', 'back\\slash', 'new\nline', 'zero\u0000width​', 'café ☕'],
    label: ['A', 'B', 'C', 'D', 'E', 'F'],
  },
  nums: [
    3,
    1.5,
    -2,
    10,
    1,
    0.1,
    1e-5,
    // A Python float with an integral value: JSON would lose that, so the data layer wraps it.
    new PythonFloat(1e16),
    123456789.125,
  ],
  ints: [3, 1, 2, 3, 1],
  none: null,
  flag: true,
  off: false,
  half: 0.5,
  nested: {
    a: [
      1,
      {
        b: null,
      },
    ],
    "it's": true,
    'k"q': 'v',
  },
  emoji: '😀ab',
  label: '2',
  idx: 7,
  empty: '',
  words: ['alpha', 'beta', 'gamma'],
  title_me: "they're bill's friends-from the (uk) [x] <y>",
  'key with space': 'spaced',
};

const JINJA2_CASES: Array<{ name: string; template: string; expected: string }> = [
  {
    name: 'list of str renders as Python repr',
    template: '{{choices.text}}',
    expected:
      "[\"a cat's eye\", 'It\\'s \"hot\"', 'back\\\\slash', 'new\\nline', 'zero\\x00width\\u200b', 'café ☕']",
  },
  {
    name: 'list.index',
    template: '{{choices.label.index(answerKey)}}',
    expected: '2',
  },
  {
    name: 'lambada context',
    template: "{{text.split(' ')[:-1]|join(' ')}}",
    expected: 'the quick  brown fox\njumps over the',
  },
  {
    name: 'lambada target',
    template: "{{' '+text.split(' ')[-1]}}",
    expected: ' dog',
  },
  {
    name: 'str.strip uses Python whitespace (U+3000 yes, U+FEFF no)',
    template: '[{{question.strip()}}]',
    expected: '[Which gas do plants absorb?﻿]',
  },
  {
    name: 'lstrip/rstrip with chars',
    template: "{{ answer.lstrip('Nat') }}|{{ 'xxhixx'.rstrip('x') }}",
    expected: 'lia sold 48/2 = 24 clips.\n#### 72|xxhi',
  },
  {
    name: 'gsm8k answer split',
    template: "{{answer.split('####')[-1].strip()}}",
    expected: '72',
  },
  {
    name: 'scalars',
    template: '{{none}} {{flag}} {{off}} {{half}} {{idx}} {{empty}}.',
    expected: 'None True False 0.5 7 .',
  },
  {
    name: 'numbers in a list',
    template: '{{nums}}',
    expected: '[3, 1.5, -2, 10, 1, 0.1, 1e-05, 1e+16, 123456789.125]',
  },
  {
    name: 'nested dict',
    template: '{{nested}}',
    expected: "{'a': [1, {'b': None}], \"it's\": True, 'k\"q': 'v'}",
  },
  {
    name: 'dict methods',
    template:
      '{{nested.keys()|list}} {{nested.items()|list}} {{nested.values()|list}} {{nested.get("zz", "dflt")}}',
    expected:
      "['a', \"it's\", 'k\"q'] [('a', [1, {'b': None}]), (\"it's\", True), ('k\"q', 'v')] [[1, {'b': None}], True, 'v'] dflt",
  },
  {
    name: 'for loop with loop vars and trailing newline',
    template: '{% for c in choices.label %}{{ loop.index }}{{ "," if not loop.last }}{% endfor %}\n',
    expected: '1,2,3,4,5,6\n',
  },
  {
    name: 'keep_trailing_newline',
    template: 'Q: {{answerKey}}\n\n',
    expected: 'Q: C\n\n',
  },
  {
    name: 'regex_replace',
    template:
      "{{ text|regex_replace('\\\\s+', ' ') }}|{{ 'ab12cd'|regex_replace('([a-z]+)(\\\\d+)', '\\\\2-\\\\1') }}|{{ 'aaa'|regex_replace('a', 'b', 2) }}",
    expected: 'the quick brown fox jumps over the dog|12-abcd|bba',
  },
  {
    name: 'percent and str.format',
    template:
      "{{ '%s) %s'|format(answerKey, idx) }} {{ '{}: {}'.format(answerKey, words) }} {{ '%d%%' % idx }}",
    expected: "C) 7 C: ['alpha', 'beta', 'gamma'] 7%",
  },
  {
    name: 'string filters',
    template:
      "{{ answerKey|lower }} {{ 'mIxEd'|upper }} {{ title_me|title }} {{ 'hello world'.capitalize() }} {{ title_me.title() }}",
    expected:
      "c MIXED They're Bill's Friends-From The (Uk) [X] <Y> Hello world They'Re Bill'S Friends-From The (Uk) [X] <Y>",
  },
  {
    name: 'replace, trim, wordcount, center',
    template:
      "[{{ '  a b  '|trim }}] {{ 'banana'|replace('a', 'o') }} {{ 'banana'.replace('a', 'o', 2) }} {{ text|wordcount }} [{{ 'ab'|center(7) }}]",
    expected: '[a b] bonono bonona 8 [   ab  ]',
  },
  {
    name: 'tests and conditionals',
    template:
      '{% if none is not none %}x{% else %}y{% endif %}{{ missing if missing is defined }}|{{ flag and idx }}|{{ off or "fallback" }}',
    expected: 'y|7|fallback',
  },
  {
    name: 'string, length, join of numbers',
    template:
      '{{ words|string }} {{ words|length }} {{ text|length }} {{ emoji|length }} {{ nums|join(", ") }}',
    expected: "['alpha', 'beta', 'gamma'] 3 39 3 3, 1.5, -2, 10, 1, 0.1, 1e-05, 1e+16, 123456789.125",
  },
  {
    name: 'int and float filters',
    template:
      "{{ label|int + 1 }} {{ '3.7'|int }} {{ 'x'|int }} {{ '2.5'|float }} {{ idx|float }} {{ half|int }}",
    expected: '3 3 0 2.5 7.0 0',
  },
  {
    name: 'arithmetic',
    template:
      '{{ -7 // 2 }} {{ 7 / 2 }} {{ 6 / 3 }} {{ 2 ** 10 }} {{ -7 % 3 }} {{ 1.5 * 2 }} {{ idx - 0.5 }} {{ "ab" * 2 }}',
    expected: '-4 3.5 2.0 1024 2 3.0 6.5 abab',
  },
  {
    name: 'concatenation with ~',
    template: "{{ 'a' ~ 1 ~ none ~ flag ~ [1] }}",
    expected: 'a1NoneTrue[1]',
  },
  {
    name: 'slicing and negative indices',
    template:
      '{{ text[::-1] }}|{{ words[1:] }}|{{ words[-1] }}|{{ emoji[1] }}|{{ emoji[::-1] }}|{{ text[-3:] }}',
    expected: "god eht revo spmuj\nxof nworb  kciuq eht|['beta', 'gamma']|gamma|a|ba😀|dog",
  },
  {
    name: 'split without separator and maxsplit',
    template:
      "{{ text.split() }} {{ text.split(None, 1) }} {{ text.split(' ', 2) }} {{ 'a,b,,c'.rsplit(',', 1) }}",
    expected:
      "['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'dog'] ['the', 'quick  brown fox\\njumps over the dog'] ['the', 'quick', ' brown fox\\njumps over the dog'] ['a,b,', 'c']",
  },
  {
    name: 'item access',
    template: "{{ choices['label'][0] }} {{ nested['it\\'s'] }} {{ words[0][1:] }}",
    expected: 'A True lpha',
  },
  {
    name: 'whitespace control',
    template: '{%- if flag -%}\n  yes  \n{%- endif -%}\n|{{ "x" -}}   \n  y',
    expected: 'yes|xy',
  },
  {
    name: 'set and membership',
    template:
      "{% set n = idx * 2 %}{{ n }} {{ 'ck' in 'quick' }} {{ 3 in ints }} {{ 'zz' not in words }} {{ 'a' in nested }}",
    expected: '14 True True True True',
  },
  {
    name: 'default',
    template: "{{ missing|default('dflt') }} {{ empty|default('e', true) }} {{ none|default('kept') }}",
    expected: 'dflt e None',
  },
  {
    name: 'list filters',
    template:
      '{{ ints|sort }} {{ ints|unique|list }} {{ ints|first }} {{ ints|last }} {{ ints|max }} {{ ints|min }} {{ ints|sum }} {{ ints|reverse|list }} {{ words|map("upper")|list }} {{ ints|select("odd")|list }}',
    expected: "[1, 1, 2, 3, 3] [3, 1, 2] 3 1 3 1 10 [1, 3, 2, 1, 3] ['ALPHA', 'BETA', 'GAMMA'] [3, 1, 3, 1]",
  },
  {
    name: 'str predicates',
    template:
      "{{ label.isdigit() }} {{ 'ab'.isalpha() }} {{ answerKey.startswith(('A', 'C')) }} {{ text.endswith('dog') }} {{ text.find('fox') }} {{ text.count('o') }} {{ '7'.zfill(3) }}",
    expected: 'True True True True 17 4 007',
  },
  {
    name: 'join method and list methods',
    template: "{{ ', '.join(words) }} {{ ints.count(3) }} {{ ints.index(2) }}",
    expected: 'alpha, beta, gamma 2 2',
  },
  {
    name: 'ternary',
    template: "{{ 'yes' if idx > 5 else 'no' }} {{ 'yes' if none else 'no' }}",
    expected: 'yes no',
  },
  {
    name: 'dotted key with space via item',
    template: '{{ words|join }}',
    expected: 'alphabetagamma',
  },
  {
    name: 'crlf in template',
    template: 'a\r\nb{{ idx }}\r\n',
    expected: 'a\nb7\n',
  },
];

describe('renderTemplate matches Jinja2 as lm-eval configures it', () => {
  for (const { name, template, expected } of JINJA2_CASES) {
    test(name, () => {
      expect(renderTemplate(template, DOC, location)).toBe(expected);
    });
  }
});

describe('Python values', () => {
  test('an integral float wrapped in PythonFloat prints as a float', () => {
    // JSON cannot tell 2.0 from 2; the data layer can wrap floats it knows about.
    expect(renderTemplate('{{ x }} {{ [x] }} {{ x + 1 }}', { x: new PythonFloat(2) }, location)).toBe(
      '2.0 [2.0] 3.0',
    );
  });

  test('bigger-than-2^53 integers print every digit', () => {
    expect(renderTemplate('{{ n }}', { n: 2 ** 60 }, location)).toBe('1152921504606846976');
  });
});

describe('errors name the field, the task and the doc', () => {
  function failure(template: string, doc: Record<string, unknown>): AssayError {
    try {
      renderTemplate(template, doc, location);
    } catch (error) {
      return error as AssayError;
    }
    throw new Error('expected a template error');
  }

  test('a missing top-level field', () => {
    const error = failure('Question: {{ question }}', { answer: 'x' });
    expect(error).toBeInstanceOf(AssayError);
    expect(error.code).toBe('template_error');
    expect(error.location).toEqual({ task: 'fixture_task', docId: 3, field: 'doc_to_text' });
    expect(error.message).toBe(
      "template field question is missing: 'question' is undefined (in doc_to_text of task fixture_task, doc 3)",
    );
  });

  test('a missing nested attribute and an index out of range', () => {
    expect(failure('{{ choices.text }}', { choices: { label: [] } }).message).toContain(
      "'dict object' has no attribute 'text'",
    );
    expect(failure('{{ xs[5] }}', { xs: [1] }).message).toContain('list object has no element 5');
  });

  test('StrictUndefined also refuses truthiness and iteration', () => {
    expect(failure('{% if maybe %}x{% endif %}', {}).message).toContain("'maybe' is undefined");
    expect(failure('{% for x in items %}{{ x }}{% endfor %}', {}).message).toContain("'items' is undefined");
  });

  test('Python type errors and unknown filters', () => {
    expect(failure("{{ 'a' + 1 }}", {}).message).toContain(
      "unsupported operand type(s) for +: 'str' and 'int'",
    );
    expect(failure('{{ x|nope }}', { x: 1 }).message).toContain("No filter named 'nope'");
    expect(failure('{{ xs.index(9) }}', { xs: [1] }).message).toContain('9 is not in list');
  });

  test('a syntax error is reported without a doc, and again on every render', () => {
    expect(() => checkTemplate('{{ x ', { task: 't', field: 'doc_to_text' })).toThrow(AssayError);
    expect(failure('{{ x ', { x: 1 }).message).toMatch(
      /^invalid Jinja template: .* in doc_to_text of task fixture_task$/,
    );
  });
});

test('compiled templates are cached: a source seen before renders without being compiled again', () => {
  // A task renders the same few templates for every doc (14k docs x 6 templates for MMLU): each source
  // must be tokenized and parsed once. The baseline, measured in the same run, is the same renders with
  // each source made new by a distinct Jinja comment (same output, compiled every time). Compiling costs
  // several times a render (4-15x here, depending on JIT warm-up), so without the cache both loops cost
  // the same; a ratio does not depend on how busy the machine is, as a bound in milliseconds would.
  const templates = [
    '{{question.strip()}}\nA. {{choices[0]}}\nB. {{choices[1]}}\nC. {{choices[2]}}\nD. {{choices[3]}}\nAnswer:',
    '{{choices}}',
    '{{answer}}',
    'The following are multiple choice questions (with answers) about {{subject}}.\n\n',
    "{{question.split(' ')|length}}",
    '{% for c in choices %}{{ loop.index }}. {{ c }}\n{% endfor %}',
  ];
  const docs = Array.from({ length: 1_000 }, (_, i) => ({
    question: `  Question number ${i} about anatomy? `,
    choices: ['alpha', "beta's", 'gamma', 'delta'],
    answer: i % 4,
    subject: 'anatomy',
  }));
  const renderAll = (suffix: (doc: number) => string) => {
    const start = performance.now();
    const out: string[] = [];
    docs.forEach((doc, i) => {
      for (const template of templates) out.push(renderTemplate(template + suffix(i), doc, location));
    });
    return { ms: performance.now() - start, out };
  };
  // Warm both paths up first (JIT), then measure.
  renderAll(() => '');
  renderAll((i) => `{# warm ${i} #}`);
  const cached = renderAll(() => '');
  const fresh = renderAll((i) => `{# ${i} #}`);
  expect(fresh.out).toEqual(cached.out);
  expect(cached.out[0]).toBe(
    "Question number 0 about anatomy?\nA. alpha\nB. beta's\nC. gamma\nD. delta\nAnswer:",
  );
  expect(cached.ms * 2).toBeLessThan(fresh.ms);
});

describe('templates that read nothing of the doc (a description)', () => {
  // Expected values: jinja2 3.1.6 with lm-eval's Environment (newlines normalized, trailing one kept).
  test.each([
    [
      'The following are multiple choice questions (with answers).\n\n',
      'The following are multiple choice questions (with answers).\n\n',
    ],
    ['a\r\nb{# note #}c\r\n', 'a\nbc\n'],
    ["{{ 'fixed' }} text", 'fixed text'],
    ['', ''],
  ])('%j renders %j for any doc', (template, expected) => {
    expect(renderTemplate(template, DOC, location)).toBe(expected);
    expect(renderTemplate(template, {}, location)).toBe(expected);
  });

  test('a template that reads a field is not taken for a constant', () => {
    expect(renderTemplate('About {{subject}}.', { subject: 'anatomy' }, location)).toBe('About anatomy.');
    expect(renderTemplate('About {{subject}}.', { subject: 'law' }, location)).toBe('About law.');
    expect(() => renderTemplate('About {{subject}}.', {}, location)).toThrow(/subject is missing/);
  });
});

describe('names with non-ASCII letters (galician_bench parafrases_gl)', () => {
  const at = { task: 't', docId: 0, field: 'doc_to_target' };
  // Expected values: jinja2 3.1.6, Environment(undefined=StrictUndefined, keep_trailing_newline=True).
  test('reads doc fields, attributes and loop variables named with any Python identifier', () => {
    expect(renderTemplate('{{0 if Avaliación == 0 else 1}}', { Avaliación: 0 }, at)).toBe('0');
    expect(renderTemplate('{{0 if Avaliación == 0 else 1}}', { Avaliación: 2 }, at)).toBe('1');
    expect(
      renderTemplate('é {{ "é" ~ naïve }} {# ü #} ü {{ doc.größe }}', { naïve: 'x', doc: { größe: 3 } }, at),
    ).toBe('é éx  ü 3');
    expect(renderTemplate('{% for ñ in [1,2] %}{{ñ}}{% endfor %}', {}, at)).toBe('12');
  });

  test('still rejects characters that are not identifier characters', () => {
    expect(() => renderTemplate('{{ a → b }}', { a: 1 }, at)).toThrow(/invalid Jinja template/);
  });
});
