/**
 * TypeScript counterpart of lm-eval's lm_eval/tasks/winogrande/preprocess_winogrande.py (commit
 * 4e7e0d47). Winogrande is a multiple-input task: the choices are the two contexts (sentence up to the
 * blank, filled with each option) and the continuation after the blank is shared, so it is scored
 * partially, on the continuation only.
 */
import { pyStrip } from '../python-text.ts';

type Doc = Record<string, unknown>;

const ANSWER_TO_NUM: Record<string, number> = { '1': 0, '2': 1 };

export function doc_to_text(doc: Doc): number {
  const answer = ANSWER_TO_NUM[String(doc.answer)];
  // Python raises KeyError here; an undefined gold would silently score as wrong.
  if (answer === undefined)
    throw new Error(`winogrande: answer must be "1" or "2", got ${JSON.stringify(doc.answer)}`);
  return answer;
}

export function doc_to_target(doc: Doc): string {
  const sentence = doc.sentence as string;
  const index = sentence.indexOf('_') + 1;
  return pyStrip(sentence.slice(index));
}

export function doc_to_choice(doc: Doc): string[] {
  const sentence = doc.sentence as string;
  const index = sentence.indexOf('_');
  if (index < 0) throw new Error(`winogrande: sentence has no blank "_": ${JSON.stringify(sentence)}`);
  return [doc.option1, doc.option2].map((option) => sentence.slice(0, index) + String(option));
}
