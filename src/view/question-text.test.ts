import { describe, expect, it } from 'vitest';
import { QUESTION_TEXT_MAX, questionText } from './question-text.js';

describe('questionText (what the sample list shows)', () => {
  it('shows a zero-shot prompt from its start, whitespace collapsed', () => {
    const doc = { question: 'Item 2: which colour is listed first in row 2?', label: 2 };
    expect(questionText(`Question: ${doc.question}\nAnswer:`, doc, 0)).toBe(
      'Question: Item 2: which colour is listed first in row 2? Answer:',
    );
  });

  it('skips a description and few-shot examples: the doc’s own block, from the start of its line', () => {
    // MMLU's layout: a description, five examples "Q\nA. …\nAnswer: X" joined by blank lines, then the doc.
    const examples = ['What is 1+1?', 'What is 2+2?'].map(
      (question, i) => `${question}\nA. ${i}\nB. ${i + 2}\nAnswer: B`,
    );
    const doc = { question: 'What is 3+3?', subject: 'arithmetic', choices: ['5', '6'], answer: 1 };
    const prompt = `The following are multiple choice questions about arithmetic.\n\n${examples.join('\n\n')}\n\n${doc.question}\nA. 5\nB. 6\nAnswer:`;
    expect(questionText(prompt, doc, 2)).toBe('What is 3+3? A. 5 B. 6 Answer:');
    // Zero-shot with a description: the description is the same for every doc, so it is skipped too.
    expect(questionText(`Questions about arithmetic.\n\n${doc.question}\nAnswer:`, doc, 0)).toBe(
      'What is 3+3? Answer:',
    );
  });

  it('anchors on the longest field the prompt holds, so a short field seen in the examples does not', () => {
    // "False" is this doc's label and also an example's answer; the passage is the doc's own text.
    const doc = {
      passage: 'The sky over the harbour was grey all day.',
      question: 'was it sunny',
      label: 'False',
    };
    const prompt = `Passage: Dogs bark.\nQuestion: do dogs bark?\nAnswer: True\n\nPassage: Fish fly.\nQuestion: do fish fly?\nAnswer: False\n\nPassage: ${doc.passage}\nQuestion: ${doc.question}?\nAnswer:`;
    expect(questionText(prompt, doc, 2)).toBe(`Passage: ${doc.passage} Question: ${doc.question}? Answer:`);
  });

  it('without a field as written, a few-shot prompt shows from after its last blank line', () => {
    // doc_to_text rewrote the doc (HellaSwag's preprocessing), so no field occurs verbatim.
    const doc = { ctx_a: 'A man is sitting on a roof [title]', activity_label: 'Roof' };
    const prompt = 'Roofing: A man climbs. He nails.\n\nRoofing: A man is sitting on a roof. He';
    expect(questionText(prompt, doc, 1)).toBe('Roofing: A man is sitting on a roof. He');
    // Zero-shot: the prompt from its start.
    expect(questionText('Roofing: A man is\n sitting. He', doc, 0)).toBe('Roofing: A man is sitting. He');
    // Not an object (lm-eval may log a string doc): the same rules.
    expect(questionText('Intro\n\nThe text', 'other', 1)).toBe('The text');
  });

  it('caps the text (the detail pane has the whole prompt)', () => {
    const text = questionText('word '.repeat(100), null, 0);
    expect(text).toHaveLength(QUESTION_TEXT_MAX);
    expect(text.endsWith('…')).toBe(true);
  });
});
