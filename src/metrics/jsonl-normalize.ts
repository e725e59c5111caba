/** The normalisation assay's JSONL task format applies before comparing answers: lowercase, collapse whitespace, strip. */
import { pythonSplit } from '../python/semantics/string.js';

export function jsonlNormalize(text: string): string {
  return pythonSplit(text.toLowerCase()).join(' ');
}
