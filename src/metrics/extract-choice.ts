/**
 * Which option a free-text answer to a multiple-choice question picked.
 * 1. A leading option letter: the whole answer is a letter ("B", "(B)"), or it starts with "(B)", "B." ,
 *    "B)" or "B:". The letter must name one of the choices; only upper case counts, so that an answer such
 *    as "a cat" is not read as option A.
 * 2. Otherwise the choice whose normalised text (lowercase, collapsed whitespace) occurs in the normalised
 *    answer; when several do, the longest wins ("black cat" over "cat"), and a tie of different choices
 *    of that length is undecided.
 * Undefined when nothing is found.
 */
import { jsonlNormalize } from './jsonl-normalize.js';

const LONE_LETTER = /^\s*\(?([A-Z])\)?\s*$/;
const LEADING_LETTER = /^\s*(?:\(([A-Z])\)|([A-Z])[.):])/;

export function extractChoice(answer: string, choices: readonly string[]): number | undefined {
  const letter = LONE_LETTER.exec(answer)?.[1] ?? LEADING_LETTER.exec(answer)?.slice(1).find(Boolean);
  if (letter !== undefined) {
    const index = letter.charCodeAt(0) - 65;
    if (index < choices.length) return index;
  }
  const normalizedAnswer = jsonlNormalize(answer);
  let best: number | undefined;
  let bestLength = 0;
  let tied = false;
  choices.forEach((choice, index) => {
    const normalizedChoice = jsonlNormalize(choice);
    if (normalizedChoice === '' || !normalizedAnswer.includes(normalizedChoice)) return;
    if (normalizedChoice.length > bestLength) {
      best = index;
      bestLength = normalizedChoice.length;
      tied = false;
    } else if (
      normalizedChoice.length === bestLength &&
      normalizedChoice !== jsonlNormalize(choices[best as number])
    ) {
      tied = true;
    }
  });
  return tied ? undefined : best;
}
