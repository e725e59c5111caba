/**
 * lm-eval `format_span` (SPANFilter, lm_eval/filters/transformation.py), used by the masakhaner NER
 * tasks: a response listing entities ("Person: John, Mary $$ location: Kenya") becomes lm-eval's span
 * string ("per: john $ per: mary $ loc: kenya"). Step by step as lm-eval does it:
 *
 * 1. lowercase; rewrite each label before a colon to its code (`\bperson\s*:` → `PER:`, in the order of
 *    lm-eval's table, with Python's Unicode `\b` and `\s`); `$$` → `$`; strip trailing `$`.
 * 2. `\n` → `$`, strip; every `(PER|LOC|ORG|DATE):\s*([^$]+)` match gives its comma-separated entities,
 *    stripped, without `none`, as `label: entity`; joined with ` $ `.
 */
import { compilePythonRegex, pythonFindAll, pythonSub } from '../../python/semantics/regex.js';
import { pythonStrip } from '../../python/semantics/string.js';
import { mapStrings } from './lowercase.js';
import type { FilterDefinition } from './types.js';

// lm-eval's label_dict, in its order (the order matters: each rewrite sees the previous ones).
const LABELS: ReadonlyArray<[string, string]> = [
  ['person', 'PER'],
  ['location', 'LOC'],
  ['organization', 'ORG'],
  ['counties', 'LOC'],
  ['places', 'LOC'],
  ['people', 'PER'],
  ['persons', 'PER'],
  ['company', 'ORG'],
  ['country', 'LOC'],
  ['continent', 'LOC'],
  ['time', 'DATE'],
  ['date', 'DATE'],
  ['per', 'PER'],
  ['loc', 'LOC'],
  ['org', 'ORG'],
];
const LABEL_PATTERNS = LABELS.map(
  ([key, code]) => [compilePythonRegex(`\\b${key}\\s*:`), `${code}:`] as const,
);
const ENTITIES = compilePythonRegex('\\b(PER|LOC|ORG|DATE):\\s*([^$]+)');

function formatNerText(response: string): string {
  let text = response.toLowerCase();
  for (const [pattern, replacement] of LABEL_PATTERNS) text = pythonSub(pattern, replacement, text);
  text = text.split('$$').join('$');
  return text.replace(/\$+$/, '');
}

function formatNamedEntities(response: string): string {
  const text = pythonStrip(response.replaceAll('\n', '$'));
  const formatted: string[] = [];
  for (const match of pythonFindAll(ENTITIES, text)) {
    const [label, values] = match as string[];
    for (const value of values.split(',')) {
      const entity = pythonStrip(value);
      if (entity.toLowerCase() !== 'none') formatted.push(`${label.toLowerCase()}: ${entity}`);
    }
  }
  return formatted.join(' $ ');
}

export function formatSpan(response: string): string {
  return formatNamedEntities(formatNerText(response.toLowerCase()));
}

export const formatSpanFilter: FilterDefinition = {
  arguments: [],
  build: () => mapStrings('format_span', formatSpan),
};
