/**
 * docToText / docToTarget / docToChoice against lm-eval's ConfigurableTask (lm_eval/api/task.py at
 * 4e7e0d47): each `result` is what the real method returned for the config and doc, run by the same
 * harness as test/fixtures/prompts/parity.ts.
 */
import { describe, expect, test } from 'vitest';
import { AssayError } from '../errors.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import type { TaskConfig } from '../task-config/task-config.js';
import { docToChoice, docToTarget, docToText } from './doc-to.js';

const DOC: Doc = {
  question: 'Why?',
  label: 2,
  answer: '7',
  golds: "['x', 'y']",
  text: 'A [bracket',
  opts: ['p', 'q'],
  choices: ['c1', 'c2', 'c3'],
  nested: { t: ['m', "n'o"] },
};

const LM_EVAL_RESULTS: Array<{
  name: string;
  config: Record<string, unknown>;
  method: string;
  result: unknown;
}> = [
  {
    name: 'column name returns the column',
    config: {
      doc_to_target: 'label',
    },
    method: 'doc_to_target',
    result: 2,
  },
  {
    name: 'digits stay a string without choices',
    config: {
      doc_to_target: '{{answer}}',
    },
    method: 'doc_to_target',
    result: '7',
  },
  {
    name: 'digits become an int with choices',
    config: {
      doc_to_target: '{{answer}}',
      doc_to_choice: 'choices',
    },
    method: 'doc_to_target',
    result: 7,
  },
  {
    name: 'a rendered list literal is parsed',
    config: {
      doc_to_target: '{{golds}}',
    },
    method: 'doc_to_target',
    result: ['x', 'y'],
  },
  {
    name: 'something that only looks like a list stays a string',
    config: {
      doc_to_target: '[{{text}}]',
    },
    method: 'doc_to_target',
    result: '[A [bracket]',
  },
  {
    name: 'a constant target',
    config: {
      doc_to_target: 1,
    },
    method: 'doc_to_target',
    result: 1,
  },
  {
    name: 'a list target',
    config: {
      doc_to_target: ['a', 'b'],
    },
    method: 'doc_to_target',
    result: ['a', 'b'],
  },
  {
    name: 'doc_to_text template',
    config: {
      doc_to_text: 'Q: {{question}}\n',
      doc_to_target: 'label',
    },
    method: 'doc_to_text',
    result: 'Q: Why?\n',
  },
  {
    name: 'doc_to_text digits with choices (multiple input)',
    config: {
      doc_to_text: '{{label}}',
      doc_to_target: 'label',
      doc_to_choice: 'choices',
    },
    method: 'doc_to_text',
    result: 2,
  },
  {
    name: 'choice column',
    config: {
      doc_to_target: 'label',
      doc_to_choice: 'opts',
    },
    method: 'doc_to_choice',
    result: ['p', 'q'],
  },
  {
    name: 'choice list',
    config: {
      doc_to_target: 'label',
      doc_to_choice: ['yes', 'no'],
    },
    method: 'doc_to_choice',
    result: ['yes', 'no'],
  },
  {
    name: 'choice dict gives its values',
    config: {
      doc_to_target: 'label',
      doc_to_choice: {
        '0': 'zero',
        '1': 'one',
      },
    },
    method: 'doc_to_choice',
    result: ['zero', 'one'],
  },
  {
    name: 'choice template is literal_eval-ed',
    config: {
      doc_to_target: 'label',
      doc_to_choice: '{{nested.t}}',
    },
    method: 'doc_to_choice',
    result: ['m', "n'o"],
  },
  {
    name: 'choice template building a list',
    config: {
      doc_to_target: 'label',
      doc_to_choice: "{{[question, answer + ' apples']}}",
    },
    method: 'doc_to_choice',
    result: ['Why?', '7 apples'],
  },
];

const location = { task: 'd', docId: 0 };
const METHODS = { doc_to_text: docToText, doc_to_target: docToTarget, doc_to_choice: docToChoice };

function config(fields: Record<string, unknown>): TaskConfig {
  return {
    task: 'd',
    doc_to_text: 'question',
    target_delimiter: ' ',
    fewshot_delimiter: '\n\n',
    output_type: 'generate_until',
    repeats: 1,
    ...fields,
  } as TaskConfig;
}

describe('doc_to_* as lm-eval computes them', () => {
  for (const { name, config: fields, method, result } of LM_EVAL_RESULTS) {
    test(name, () => {
      const fn = METHODS[method as keyof typeof METHODS];
      expect(fn(config(fields), DOC, location)).toEqual(result);
    });
  }
});

describe('functions, overrides and errors', () => {
  const ref = (fn: (doc: Doc) => unknown): FunctionRef<(doc: Doc) => unknown> => ({
    kind: 'function',
    ref: 'utils.fn',
    file: '/tasks/utils.ts',
    fn,
  });

  test('a FunctionRef is called with the doc', () => {
    expect(
      docToTarget(config({ doc_to_target: ref((doc) => `${doc.label as number}!`) }), DOC, location),
    ).toBe('2!');
    expect(docToChoice(config({ doc_to_choice: ref(() => ['a', 1, null]) }), DOC, location)).toEqual([
      'a',
      '1',
      'None',
    ]);
  });

  test('a literal choice list is str()-ed once per config list and read, never written, by every doc', () => {
    const literal = config({ doc_to_choice: ['A', 2, true, null] as unknown as string[] });
    const first = docToChoice(literal, DOC, location);
    const second = docToChoice(literal, { ...DOC, question: 'Other?' }, { ...location, docId: 1 });
    // f"{choice}" in lm-eval: Python's str of each item.
    expect(first).toEqual(['A', '2', 'True', 'None']);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // A different list with the same items is its own.
    const other = config({ doc_to_choice: ['A', 2, true, null] as unknown as string[] });
    expect(docToChoice(other, DOC, location)).toEqual(first);
    expect(docToChoice(other, DOC, location)).not.toBe(first);
  });

  test('the field option overrides the config (few-shot doc_to_text)', () => {
    expect(docToText(config({}), DOC, location, { field: 'A: {{answer}}' })).toBe('A: 7');
  });

  test('errors are AssayErrors naming the task, doc and field', () => {
    const failing = ref(() => {
      throw new Error('boom');
    });
    expect(() => docToTarget(config({ doc_to_target: failing }), DOC, location)).toThrow(
      'doc_to_target function utils.fn failed on doc 0 of task d: boom',
    );
    let error: unknown;
    try {
      docToChoice(config({ doc_to_choice: '{{question}}' }), DOC, location);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AssayError);
    expect((error as AssayError).location).toEqual({ task: 'd', docId: 0, field: 'doc_to_choice' });
    expect(() => docToTarget(config({ doc_to_target: undefined }), DOC, location)).toThrow(
      'task d has no doc_to_target',
    );
  });

  test('digits Python calls isdigit() but literal_eval rejects fail as lm-eval does', () => {
    expect(() =>
      docToTarget(config({ doc_to_target: '00{{answer}}', doc_to_choice: 'choices' }), DOC, location),
    ).toThrow(/not a Python literal/);
  });
});
