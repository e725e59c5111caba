/**
 * What the sample list shows of a sample: the start of the doc's own question, not the start of the
 * prompt, which with a description or few-shot examples is the same for every doc. The sample log has the
 * rendered prompt and the raw doc but not where one part of the prompt ends, so the doc's own text is
 * found by its fields: the longest string field of the doc that the prompt contains (the question or the
 * passage; short fields such as a label also occur in the examples' answers), at its last occurrence
 * (the doc comes after its examples), from the start of that line (keeping a "Question:" before it).
 * When no field occurs as written (doc_to_text rewrote it), a few-shot prompt is shown from after its
 * last blank line (lm-eval's default few-shot delimiter), any other prompt from its start.
 */

/** Characters kept: a list row shows far fewer; the detail pane has the whole prompt. */
export const QUESTION_TEXT_MAX = 200;

/** Shorter fields (labels, letters, "True") occur anywhere. */
const FIELD_MIN = 4;

const FEWSHOT_DELIMITER = '\n\n';

function docStart(prompt: string, doc: unknown): number | undefined {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  let longest = '';
  for (const value of Object.values(doc)) {
    if (typeof value !== 'string') continue;
    const text = value.trim();
    if (text.length >= FIELD_MIN && text.length > longest.length && prompt.includes(text)) longest = text;
  }
  if (!longest) return undefined;
  const at = prompt.lastIndexOf(longest);
  return prompt.lastIndexOf('\n', at - 1) + 1;
}

export function questionText(prompt: string, doc: unknown, fewshotCount: number): string {
  let start = docStart(prompt, doc);
  if (start === undefined && fewshotCount > 0) {
    const delimiter = prompt.trimEnd().lastIndexOf(FEWSHOT_DELIMITER);
    start = delimiter < 0 ? 0 : delimiter + FEWSHOT_DELIMITER.length;
  }
  const text = prompt
    .slice(start ?? 0)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > QUESTION_TEXT_MAX ? `${text.slice(0, QUESTION_TEXT_MAX - 1)}…` : text;
}
