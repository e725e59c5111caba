import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkTopKeys, INDEX_KEYS } from '../../test/support/yaml-keys-check.js';
import { yamlMutants } from '../../test/support/yaml-mutations.js';
import { isYamlFile, listRoot } from './root-walk.js';
import { readTopKeys } from './yaml-keys.js';
import { parseYamlText } from './yaml-loader.js';

const read = (text: string) => readTopKeys(text, INDEX_KEYS);

/** What js-yaml (as the loader reads files) says of a text: its value, or its error's first line. */
function jsYaml(text: string): unknown {
  try {
    return parseYamlText(text, 'case.yaml');
  } catch (error) {
    return `error: ${(error as Error).message.split('\n')[0]}`;
  }
}

// Texts in the shapes lm-eval's task files are written in, one construct or more each.
const CORPUS = [
  'task: arc_easy\ndataset_path: allenai/ai2_arc\noutput_type: multiple_choice\ndoc_to_choice: "{{choices.text}}"\n',
  // Quoted keys, as generated files write them, and an include.
  '"dataset_name": "web_of_lies"\n"description": "Evaluate.\\n\\n"\n"include": "_template_yaml"\n"task": "bbh_web_of_lies"\n',
  // A template: no task, a block sequence at the key's own indentation, compact mappings, a tag.
  'dataset_path: gsm8k\nmetric_list:\n- metric: exact_match\n  aggregation: mean\n  higher_is_better: true\n  ignore_case: true\nprocess_results: !function utils.process_results\n',
  // Nested mappings and sequences, flow collections, comments at several depths.
  'group: mmlu_stem # the group\ntask:\n  - mmlu_stem_tasks\n  - mmlu_physics\naggregate_metric_list:\n  # weighted\n  - metric: acc\n    weight_by_size: True\ngeneration_kwargs:\n  until: ["</s>", "Q:", "\\n\\n"]\n  do_sample: false\nmetadata: {version: 1.0}\n',
  // Multi-line quoted scalars (one continuation less indented, which PyYAML and js-yaml read), block scalars.
  'task: kmmlu_tax\ndoc_to_text: \'{{question}}\n\n  A. {{A}}\n\n  Answer:\'\ndescription: "first line\n second line"\ndoc_to_target: |\n  {{answer}}\n\n  done\nfilter: >-\n  folded\n  text\ntag:\n- kmmlu\n- kmmlu_hard\n',
  // Multi-line plain scalars, a scalar on the line after its key, `!!null` as generated files write it.
  'task: turkish_bio\nfewshot_config:\n  samples:\n  - input: I have a blackberry, a clarinet and a plum,\n      and a flute. How many fruits?\n    target: \'3\'\ndescription:\n  "Soru: a long prompt\\\n  \\ continued"\ntraining_split: !!null "null"\n',
  // A group whose members are mappings, with their own members and typed settings (mmlu's `_mmlu.yaml`).
  'group: mmlu_continuation\ngroup_alias: mmlu (continuation)\ntask:\n  - group: stem\n    task:\n      - mmlu_stem_continuation\n    aggregate_metric_list:\n      - metric: acc\n        weight_by_size: True\n  - group: "social sciences"\n    task: [mmlu_social_sciences_continuation]\n    num_fewshot: 5\n    fewshot_split:\n    version: 2.0\naggregate_metric_list:\n  - metric: acc\nmetadata:\n  version: 2\n',
  // Keys deeper than the top may be any plain scalar (regex filters in bbh).
  'task: bbh_lies\nfilter_list:\n  - name: map\n    filter:\n      - function: !function utils.MapRegexFilter\n        regex_pattern_to_value:\n          \\b(no|does not tell the truth)\\b: "no"\n          \\b(yes|tells the truth)\\b: "yes"\n',
];

describe('readTopKeys', () => {
  it('answers for every text of the corpus, with the values js-yaml gives the kept keys', () => {
    for (const text of CORPUS) expect(checkTopKeys(text), text).toBe('agrees');
    expect(read(CORPUS[1] as string)).toEqual({ include: '_template_yaml', task: 'bbh_web_of_lies' });
    expect(read(CORPUS[3] as string)).toEqual({
      group: 'mmlu_stem',
      task: ['mmlu_stem_tasks', 'mmlu_physics'],
    });
    expect(read(CORPUS[4] as string)).toEqual({ task: 'kmmlu_tax', tag: ['kmmlu', 'kmmlu_hard'] });
    expect(read(CORPUS[2] as string)).toEqual({});
    expect(read(CORPUS[6] as string)).toEqual({
      group: 'mmlu_continuation',
      task: [
        {
          group: 'stem',
          task: ['mmlu_stem_continuation'],
          aggregate_metric_list: [{ metric: 'acc', weight_by_size: true }],
        },
        {
          group: 'social sciences',
          task: ['mmlu_social_sciences_continuation'],
          num_fewshot: 5,
          fewshot_split: null,
          version: 2,
        },
      ],
    });
  });

  it("answers for assay's own task folder as js-yaml reads it", () => {
    const files = listRoot({ dir: path.resolve(import.meta.dirname, '../../tasks') }).filter(isYamlFile);
    expect(files.length).toBeGreaterThan(50);
    const answered = files.filter((file) => {
      const result = checkTopKeys(readFileSync(file, 'utf8'));
      expect(['agrees', 'refused'], file).toContain(result);
      return result === 'agrees';
    });
    expect(answered.length).toBeGreaterThan(files.length * 0.9);
  });

  it('answers for a comment deeper than the quoted scalar before it, which js-yaml reads as a comment', () => {
    const text = 'task: "t"\n   # a note\nx: 1\n';
    expect(checkTopKeys(text)).toBe('agrees');
    expect(read(text)).toEqual({ task: 't' });
  });

  // Each case is a rule of the subset: the reader must not answer, and js-yaml shows why (it refuses the
  // text, or types the kept value as no string), or the case is outside what the reader vouches for.
  const refusedByJsYaml: Array<[string, string]> = [
    ['a leading blank line deeper than a block scalar', 'task: t\nx: |\n      \n  text\n'],
    ['a merge key with a scalar', 'task: t\nx:\n  <<: 1\n'],
    ['an unknown escape', 'task: t\nx: "a\\qb"\n'],
    ['a short hexadecimal escape', 'task: t\nx: "\\x4"\n'],
    ['a document marker inside a quoted scalar', 'task: t\nx: "a\n---\n  b"\n'],
    ['a quoted scalar never closed', 'task: t\nx: "abc\n'],
    ['a NUL character', 'task: t\nx: a\u0000b\n'],
    ['a sequence entry where a key should be', 'task: t\nx: 1\n- y\n'],
    ['a plain scalar holding ": "', 'task: t\nx: a: b\n'],
    ['text after a closing quote', 'task: t\nx: "a" b\n'],
    ['a key indented between two levels', 'task: t\nx:\n    a: 1\n  b: 2\n'],
    ['`!function`, then an anchor with no name on the next line', 'task: t\nx: !function \n  & y\n'],
  ];
  for (const [name, text] of refusedByJsYaml) {
    it(`does not answer for ${name} (js-yaml refuses it)`, () => {
      expect(read(text)).toBeUndefined();
      expect(String(jsYaml(text))).toMatch(/^error: /);
    });
  }

  it('does not answer after an empty sequence entry, where js-yaml 4 reads a less indented entry into the inner sequence', () => {
    // YAML ends the inner sequence at `- b`; js-yaml keeps it going, and its quoted scalar then swallows
    // the `task:` line, so the file defines no task.
    for (const text of ['a:\n-\n  -\n- b\n  - "\ntask: x"\n', 'a:\n- k:\n  -\n- b\n  - "\ntask: x"\n']) {
      expect(read(text)).toBeUndefined();
      expect(jsYaml(text)).not.toHaveProperty('task');
    }
    expect(read('task: a\nb:\n-\n  - # c\n- c\n  - "\ntask: z"\n')).toBeUndefined();
    expect(jsYaml('task: a\nb:\n-\n  - # c\n- c\n  - "\ntask: z"\n')).toMatchObject({ task: 'a' });
  });

  it('reads a quoted scalar of millions of escapes without throwing (the matching engine runs out of stack)', () => {
    const huge = `task: t\nx: "${'a\\n'.repeat(6_000_000)}"\n`;
    expect(() => read(huge)).not.toThrow();
    expect([undefined, 't']).toContain(read(huge)?.task);
  });

  it('does not answer for collections nested deeper than js-yaml reads, nor exhausts its own stack', () => {
    const flows = (n: number) => `task: t\na: ${'['.repeat(n)}${']'.repeat(n)}\n`;
    expect(checkTopKeys(flows(30))).toBe('agrees');
    expect(read(flows(100))).toBeUndefined();
    expect(String(jsYaml(flows(100)))).toMatch(/^error: /);
    expect(read(flows(8000))).toBeUndefined();
    const mappings = `task: t\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`;
    expect(read(mappings)).toBeUndefined();
  });

  // PyYAML's types (pyyaml-schema.ts), which js-yaml gives these scalars as the loader reads files.
  const typed: Array<[string, Record<string, unknown>]> = [
    ['task: yes\n', { task: true }],
    ['task: 1\n', { task: 1 }],
    ['tag: null\n', { tag: null }],
    ['task: 1:30\n', { task: 90 }],
    ['output_type: .inf\n', { output_type: Number.POSITIVE_INFINITY }],
    ['task: 010\n', { task: 8 }],
    ['task: 1e5\n', { task: '1e5' }],
    [
      'group: g\ntask:\n- task: t\n  num_fewshot: 0x10\n  weight: -1.5\n  shuffle: off\n',
      { group: 'g', task: [{ task: 't', num_fewshot: 16, weight: -1.5, shuffle: false }] },
    ],
  ];
  for (const [text, expected] of typed) {
    it(`answers for ${JSON.stringify(text)} with the type js-yaml gives`, () => {
      expect(checkTopKeys(text)).toBe('agrees');
      expect(read(text)).toEqual(expected);
    });
  }
  it('refuses to keep a key that reads as no string (js-yaml would type it before making it a string)', () => {
    expect(() => readTopKeys('True: 1\n', new Set(['True']))).toThrow(/reads as no string/);
    expect(() => readTopKeys('ON: 1\n', new Set(['true']))).toThrow(/reads as no string/);
    expect(jsYaml('True: 1\n')).toEqual({ true: 1 });
  });

  it('reads the kept keys afresh when the same set changed since the last text', () => {
    const keys = new Set(['task']);
    expect(readTopKeys('group: g\ntask: [a]\n', keys)).toEqual({ task: ['a'] });
    keys.add('group');
    expect(readTopKeys('group: g\ntask: [a]\n', keys)).toEqual({ group: 'g', task: ['a'] });
  });

  it('does not answer for a typed item of a flow collection (its items are strings)', () => {
    expect(read('tag: [on, off]\n')).toBeUndefined();
    expect(jsYaml('tag: [on, off]\n')).toEqual({ tag: [true, false] });
  });

  const outside: Array<[string, string]> = [
    ['an anchor and an alias', 'task: t\na: &x 1\nb: *x\n'],
    ['a tab', 'task: t\nx:\ta\n'],
    ['a carriage return', 'task: t\r\nx: a\r\n'],
    ['a byte order mark', '\uFEFFtask: t\n'],
    ['`!function` with its scalar on the next line', 'task: t\nx: !function \n  utils.f\n'],
    ['another tag', 'task: !!str t\n'],
    ['a kept mapping with a key that reads as no string', 'group: g\ntask:\n  - 1: a\n'],
    ['a kept mapping with the key `__proto__`', 'group: g\ntask:\n  - __proto__: a\n'],
    ['a tag inside a kept value', 'group: g\ntask:\n  - aggregation: !function utils.f\n'],
    ['a block scalar inside a kept value', 'group: g\ntask:\n  - description: |\n      text\n'],
    ['a flow mapping inside a kept value', 'group: g\ntask:\n  - metadata: {version: 1}\n'],
    ['a comment deeper than the plain scalar before it', 'task: t\nx: a\n    # note\n'],
    ['a document start', '---\ntask: t\n'],
    ['an indented top level', '  task: t\n'],
    ['no mapping at all', '# only a comment\n'],
    ['a multi-line flow collection', 'task: t\nx: [a,\n  b]\n'],
    ['an explicit block indentation', 'task: t\nx: |2\n  a\n'],
  ];
  for (const [name, text] of outside) {
    it(`does not answer for ${name} (outside the subset)`, () => {
      expect(read(text)).toBeUndefined();
    });
  }

  it('agrees with js-yaml whenever it answers, over seeded mutations of the corpus', () => {
    let answered = 0;
    const disagreements: string[] = [];
    for (const [index, text] of CORPUS.entries()) {
      for (const mutant of yamlMutants(text, 1000 + index, 600)) {
        const result = checkTopKeys(mutant);
        if (result === 'agrees') answered++;
        else if (result !== 'refused') disagreements.push(`${result}: ${JSON.stringify(mutant)}`);
      }
    }
    expect(disagreements).toEqual([]);
    // Not vacuous: a good share of the mutants are still in the subset and answered.
    expect(answered).toBeGreaterThan(CORPUS.length * 600 * 0.3);
  });
});

describe('readTopKeys with spans', () => {
  const spansOf = (text: string) => {
    const spans = new Map<string, string>();
    return readTopKeys(text, new Set(['include']), spans) === undefined ? undefined : spans;
  };

  it('gives each top-level value as written, a later duplicate over an earlier one in its place', () => {
    const text =
      '"task": t # named\ninclude: _t\nlist:\n  - a\n\n  # kept\n  - b\n# between\ntask: u\nlast: "x"';
    expect([...(spansOf(text) ?? [])]).toEqual([
      ['task', 'u\n'],
      ['include', '_t\n'],
      ['list', '\n  - a\n\n  # kept\n  - b\n# between\n'],
      ['last', '"x"'],
    ]);
  });

  it('does not answer for a top-level key js-yaml would not take as written', () => {
    expect(spansOf('on: 1\n')).toBeUndefined();
    expect(spansOf('Null: 1\n')).toBeUndefined();
    expect(spansOf('__proto__: 1\n')).toBeUndefined();
    // Without spans, an unkept key is only checked: js-yaml's key `true` is no concern of the index.
    expect(readTopKeys('on: 1\ntask: t\n', INDEX_KEYS)).toEqual({ task: 't' });
  });

  // What config-compare.ts relies on: every key js-yaml reads, in its order, and each span alone, after a
  // key, is that key's whole value (so two values written alike are alike).
  it('spans every key with its whole value, over the corpus and seeded mutations of it', () => {
    let answered = 0;
    const disagreements: string[] = [];
    for (const [index, text] of CORPUS.entries()) {
      for (const mutant of [text, ...yamlMutants(text, 5000 + index, 300)]) {
        const spans = spansOf(mutant);
        if (!spans) continue;
        answered++;
        const whole = jsYaml(mutant) as Record<string, unknown>;
        if (JSON.stringify([...spans.keys()]) !== JSON.stringify(Object.keys(whole))) {
          disagreements.push(`keys: ${JSON.stringify(mutant)}`);
          continue;
        }
        for (const [key, span] of spans) {
          const alone = jsYaml(`value: ${span}`) as Record<string, unknown>;
          if (!isDeepStrictEqual(alone, { value: whole[key] }))
            disagreements.push(`${key}: ${JSON.stringify(mutant)}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(answered).toBeGreaterThan(CORPUS.length * 300 * 0.3);
  });
});
