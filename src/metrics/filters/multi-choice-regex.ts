/**
 * lm-eval `multi_choice_regex` (MultiChoiceRegexFilter, lm_eval/filters/extraction.py). For each response:
 * 1. `regex_pattern` as in the `regex` filter (no match → next step);
 * 2. the doc's `choices` texts (after `regexes_to_ignore`, `ignore_case`, `ignore_punctuation`, applied to
 *    both the choices and the response), mapped to "(A)", "(B)", …;
 * 3. `:` followed by a bare letter A, B, … mapped to "(A)", "(B)", …;
 * and `fallback` when all three find nothing. Punctuation means every Unicode category P* character.
 */
import { AssayError } from '../../errors.js';
import {
  type CompiledPythonRegex,
  compilePythonRegex,
  pythonEscape,
  pythonFindAll,
  pythonSub,
} from '../../python/semantics/regex.js';
import { pythonStrip } from '../../python/semantics/string.js';
import type { Doc } from '../../task-config/doc.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import { DEFAULT_FALLBACK, DEFAULT_REGEX_PATTERN } from './regex.js';
import {
  badArgument,
  booleanArgument,
  type FilterDefinition,
  type FilterStep,
  integerArgument,
  iterateResponses,
  selectIndex,
  stringArgument,
} from './types.js';

const PUNCTUATION = /\p{P}/gu;

function build(config: FilterStepConfig): FilterStep {
  const regex = compilePythonRegex(stringArgument(config, 'regex_pattern', DEFAULT_REGEX_PATTERN));
  const groupSelect = integerArgument(config, 'group_select', 0);
  const fallback = stringArgument(config, 'fallback', DEFAULT_FALLBACK);
  const ignoreCase = booleanArgument(config, 'ignore_case', false);
  const ignorePunctuation = booleanArgument(config, 'ignore_punctuation', false);
  const ignores = config.regexes_to_ignore ?? [];
  if (!Array.isArray(ignores) || !ignores.every((pattern) => typeof pattern === 'string')) {
    badArgument(config, 'regexes_to_ignore', 'a list of regex strings');
  }
  const ignoreRegexes = (ignores as string[]).map((pattern) => compilePythonRegex(pattern));

  const filterIgnores = (text: string): string => {
    let output = text;
    for (const ignore of ignoreRegexes) output = pythonSub(ignore, '', output);
    if (ignoreCase) output = output.toLowerCase();
    if (ignorePunctuation) output = output.replace(PUNCTUATION, '');
    return output;
  };

  // lm-eval's find_match: "" or undefined both mean "no match" to the caller.
  const findMatch = (
    pattern: CompiledPythonRegex,
    response: string,
    convert: Map<string, string>,
  ): string | undefined => {
    const matches = pythonFindAll(pattern, response);
    if (matches.length === 0) return undefined;
    let match = selectIndex(
      matches,
      groupSelect,
      `multi_choice_regex ${JSON.stringify(pattern.pattern)} group_select`,
    );
    if (Array.isArray(match)) {
      const nonEmpty = match.find((group) => group !== '');
      if (nonEmpty === undefined) return '';
      match = nonEmpty;
    }
    match = pythonStrip(match);
    return match !== '' && convert.has(match) ? (convert.get(match) as string) : match;
  };

  return (responses: unknown, doc: Doc) => {
    const choices = doc.choices;
    if (!Array.isArray(choices) || !choices.every((choice) => typeof choice === 'string')) {
      throw new AssayError(
        'bad_data',
        'filter multi_choice_regex needs doc["choices"] to be a list of strings',
        {
          location: { field: 'filter_list' },
        },
      );
    }
    const choiceToLetter = new Map<string, string>();
    const letterToTarget = new Map<string, string>();
    const choicePatterns: string[] = [];
    const letters: string[] = [];
    choices.forEach((choice: string, index) => {
      const letter = String.fromCharCode(65 + index);
      const normalised = filterIgnores(pythonStrip(choice));
      choicePatterns.push(pythonEscape(normalised));
      choiceToLetter.set(normalised, `(${letter})`);
      letters.push(letter);
      letterToTarget.set(letter, `(${letter})`);
    });
    const choiceRegex = compilePythonRegex(choicePatterns.join('|'));
    const letterRegex = compilePythonRegex(`:[\\s]*(${letters.join('|')})`);
    const none = new Map<string, string>();

    return iterateResponses(responses, 'multi_choice_regex').map((raw) => {
      // lm-eval's find_match treats a non-string response as "".
      const response = typeof raw === 'string' ? raw : '';
      return (
        findMatch(regex, response, none) ||
        findMatch(choiceRegex, filterIgnores(response), choiceToLetter) ||
        findMatch(letterRegex, response, letterToTarget) ||
        fallback
      );
    });
  };
}

export const multiChoiceRegexFilter: FilterDefinition = {
  arguments: [
    'regex_pattern',
    'group_select',
    'fallback',
    'ignore_case',
    'ignore_punctuation',
    'regexes_to_ignore',
  ],
  build,
};
