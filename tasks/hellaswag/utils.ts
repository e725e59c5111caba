/**
 * TypeScript counterpart of lm-eval's lm_eval/tasks/hellaswag/utils.py (commit 4e7e0d47): the same
 * preprocessing, so prompts and choices match lm-eval's byte for byte.
 */
import { pyCapitalize, pyStrip } from '../python-text.ts';

type Doc = Record<string, unknown>;

export function preprocess(text: string): string {
  let out = pyStrip(text);
  // Brackets are artifacts of the WikiHow part of HellaSwag. Python's `.` does not match \n only.
  out = out.replaceAll(' [title]', '. ');
  out = out.replace(/\[[^\n]*?\]/g, '');
  return out.replaceAll('  ', ' ');
}

/** `dataset.map(_process_doc)`: the original columns stay; query, choices and gold are added. */
export function process_docs(docs: Doc[]): Doc[] {
  return docs.map((doc) => {
    const context = `${doc.ctx_a as string} ${pyCapitalize(doc.ctx_b as string)}`;
    return {
      ...doc,
      query: preprocess(`${doc.activity_label as string}: ${context}`),
      choices: (doc.endings as string[]).map(preprocess),
      gold: Number.parseInt(String(doc.label), 10),
    };
  });
}
