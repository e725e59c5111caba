/**
 * Unit checks of context assembly rules; the full prompts are compared with lm-eval in parity.test.ts.
 * maybeDelimit's expected values were computed with lm_eval/api/utils.py (4e7e0d47).
 */
import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../models/backend.js';
import type { TaskConfig } from '../task-config/task-config.js';
import {
  buildContext,
  buildPrompt,
  createFewshotCache,
  maybeDelimit,
  multipleChoiceContinuations,
} from './context.js';

describe('maybeDelimit (lm-eval api/utils.py)', () => {
  test.each([
    [undefined, 'x', '\n\n', 'x'],
    ['sys', '', ' ', 'sys'],
    ['sys', 'desc', '\n\n', 'sys\n\ndesc'],
    ['sys\n', 'desc', '\n\n', 'sys\ndesc'],
    ['sys', '\u3000desc', '\n\n', 'sys\u3000desc'],
    ['Answer:', 'B', ' ', 'Answer: B'],
  ])('maybe_delimit(%j, %j, %j) = %j', (prefix, suffix, delimiter, expected) => {
    expect(maybeDelimit(prefix, suffix, delimiter)).toBe(expected);
  });
});

const config = {
  task: 'toy',
  doc_to_text: 'Q: {{q}}',
  doc_to_target: '{{a}}',
  doc_to_choice: ['yes', 'no'],
  target_delimiter: ' ',
  fewshot_delimiter: '\n\n',
  output_type: 'multiple_choice',
  repeats: 1,
} as TaskConfig;
const doc = { q: 'Is it?', a: 0 };
const shots = [{ q: 'One?', a: 1 }];
const location = { task: 'toy', docId: 0 };

describe('buildContext', () => {
  test('plain text: description runs straight into the first example', () => {
    const built = buildContext({
      config: { ...config, description: 'Intro. ' },
      doc,
      location,
      fewshotDocs: shots,
    });
    expect(built).toEqual({
      context: 'Intro. Q: One? no\n\nQ: Is it?',
      messages: [
        { role: 'system', content: 'Intro. ' },
        { role: 'user', content: 'Q: One? no\n\nQ: Is it?' },
      ],
      targetDelimiter: ' ',
    });
  });

  test('a chat template receives the turns and the multiple-choice delimiter becomes empty', () => {
    const seen: Array<{ messages: ChatMessage[]; addGenerationPrompt: boolean }> = [];
    const render = (messages: ChatMessage[], addGenerationPrompt: boolean) => {
      seen.push({ messages, addGenerationPrompt });
      return 'rendered';
    };
    const built = buildContext({
      config,
      doc,
      location,
      fewshotDocs: shots,
      systemInstruction: 'Be terse.',
      chat: { render, fewshotAsMultiturn: true },
    });
    expect(built.context).toBe('rendered');
    expect(built.targetDelimiter).toBe('');
    expect(seen).toEqual([
      {
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Q: One?' },
          { role: 'assistant', content: 'no' },
          { role: 'user', content: 'Q: Is it?' },
        ],
        addGenerationPrompt: true,
      },
    ]);
  });

  test('gen_prefix without trailing space keeps the target delimiter under a chat template', () => {
    const render = (messages: ChatMessage[], addGenerationPrompt: boolean) =>
      `${JSON.stringify(messages)}|${addGenerationPrompt}`;
    const built = buildContext({
      config: { ...config, gen_prefix: 'Answer:' },
      doc,
      location,
      chat: { render, fewshotAsMultiturn: false },
    });
    expect(built.targetDelimiter).toBe(' ');
    expect(built.context).toBe(
      '[{"role":"user","content":"Q: Is it?"},{"role":"assistant","content":"Answer:"}]|false',
    );
    expect(multipleChoiceContinuations(config, ['yes', 'no'], built.targetDelimiter)).toEqual([
      ' yes',
      ' no',
    ]);
  });

  test('an int target without choices is refused for few-shot answers, as lm-eval asserts', () => {
    const noChoices = {
      ...config,
      doc_to_choice: undefined,
      doc_to_target: 'a',
      output_type: 'generate_until',
    } as TaskConfig;
    expect(() => buildContext({ config: noChoices, doc, location, fewshotDocs: shots })).toThrow(
      /answer is not a string/,
    );
  });
});

describe('the few-shot cache', () => {
  test('each shot renders once across docs, and every context equals the uncached one', () => {
    let calls = 0;
    const counted = {
      ...config,
      doc_to_text: {
        kind: 'function',
        ref: 'utils.doc_to_text',
        file: 'fixture:utils.ts',
        fn: (item: { q: string }) => {
          calls += 1;
          return `Q: ${item.q}`;
        },
      },
    } as unknown as TaskConfig;
    const pool = [
      { q: 'One?', a: 1 },
      { q: 'Two?', a: 0 },
    ];
    const docs = [
      { q: 'Is it?', a: 0 },
      { q: 'Or not?', a: 1 },
      { q: 'Really?', a: 0 },
    ];
    const fewshotCache = createFewshotCache();
    const cached = docs.map((item, docId) =>
      buildContext({
        config: counted,
        doc: item,
        location: { task: 'toy', docId },
        fewshotDocs: pool,
        fewshotCache,
      }),
    );
    // Two shots rendered once each, plus each doc's own text.
    expect(calls).toBe(pool.length + docs.length);
    const uncached = docs.map((item, docId) =>
      buildContext({ config: counted, doc: item, location: { task: 'toy', docId }, fewshotDocs: pool }),
    );
    expect(calls).toBe(pool.length + docs.length + docs.length * (pool.length + 1));
    expect(cached).toEqual(uncached);
    expect(cached[2].context).toBe('Q: One? no\n\nQ: Two? yes\n\nQ: Really?');
  });
});

describe('buildPrompt: what a request reads of the prompt', () => {
  const render = (messages: ChatMessage[], addGenerationPrompt: boolean) =>
    `${JSON.stringify(messages)}|${addGenerationPrompt}`;
  const cases = [
    { name: 'plain text', chat: undefined },
    { name: 'a chat template, one flattened turn', chat: { render, fewshotAsMultiturn: false } },
    { name: 'a chat template, turn by turn', chat: { render, fewshotAsMultiturn: true } },
  ];
  test.each(cases)('$name: the context and delimiter buildContext gives', ({ chat }) => {
    const input = {
      config: { ...config, description: 'Intro. ', gen_prefix: 'Answer:' },
      doc,
      location,
      fewshotDocs: shots,
      systemInstruction: 'Be terse.',
      chat,
    };
    const { messages: _messages, ...whole } = buildContext(input);
    expect(buildPrompt(input)).toEqual(whole);
  });

  test('a doc_to_text the caller rendered is used as is, not rendered again', () => {
    let calls = 0;
    const counted = {
      ...config,
      doc_to_text: {
        kind: 'function',
        ref: 'utils.doc_to_text',
        file: 'fixture:utils.ts',
        fn: (item: { q: string }) => {
          calls += 1;
          return `Q: ${item.q}`;
        },
      },
    } as unknown as TaskConfig;
    const built = buildPrompt({ config: counted, doc, location, fewshotDocs: shots, text: 'Q: Is it?' });
    // The one shot's text only: the doc's own came from the caller.
    expect(calls).toBe(1);
    expect(built).toEqual({ context: 'Q: One? no\n\nQ: Is it?', targetDelimiter: ' ' });
    // A multiple-input text (an index) still needs textOverride, as when buildPrompt renders it.
    expect(() => buildPrompt({ config: counted, doc, location, text: 1 })).toThrow(/needs textOverride/);
  });

  test('docs that share their shots share the opening text; a description that reads the doc still varies', () => {
    const pool = [
      { q: 'One?', a: 1 },
      { q: 'Two?', a: 0 },
    ];
    const docs = [
      { q: 'Is it?', a: 0, topic: 'cats' },
      { q: 'Or not?', a: 1, topic: 'cats' },
      { q: 'Really?', a: 0, topic: 'dogs' },
    ];
    for (const description of ['About {{topic}}.\n\n', 'Fixed.\n\n']) {
      const withDescription = { ...config, description };
      const fewshotCache = createFewshotCache();
      // One shots array for every doc, as first_n draws; then a copy of it, which must give the same text.
      const shared = docs.map((item, docId) =>
        buildPrompt({
          config: withDescription,
          doc: item,
          location: { task: 'toy', docId },
          fewshotDocs: docId === 2 ? [...pool] : pool,
          fewshotCache,
        }),
      );
      const alone = docs.map((item, docId) =>
        buildContext({
          config: withDescription,
          doc: item,
          location: { task: 'toy', docId },
          fewshotDocs: pool,
        }),
      );
      expect(shared.map((built) => built.context)).toEqual(alone.map((built) => built.context));
    }
    const fewshotCache = createFewshotCache();
    const contexts = docs.map(
      (item, docId) =>
        buildPrompt({
          config: { ...config, description: 'About {{topic}}.\n\n' },
          doc: item,
          location: { task: 'toy', docId },
          fewshotDocs: pool,
          fewshotCache,
        }).context,
    );
    // lm-eval's formula: description + Σ(text + " " + answer + "\n\n") + text.
    expect(contexts).toEqual([
      'About cats.\n\nQ: One? no\n\nQ: Two? yes\n\nQ: Is it?',
      'About cats.\n\nQ: One? no\n\nQ: Two? yes\n\nQ: Or not?',
      'About dogs.\n\nQ: One? no\n\nQ: Two? yes\n\nQ: Really?',
    ]);
  });
});
