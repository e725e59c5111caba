import { describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import type { FilterStepConfig } from '../../task-config/filter-config.js';
import { buildFilterPipeline, buildFilterStep, defaultFilterPipeline, getFilter } from './registry.js';

// Expected values come from running lm-eval's own filter classes (lm_eval/filters/extraction.py,
// selection.py, transformation.py at commit 4e7e0d47) under CPython 3.11 with lm_eval.api.filter/registry
// shimmed to no-ops: e.g. `RegexFilter().apply([[...responses]], [{}])`. Each test names the call.
const step = (config: FilterStepConfig, responses: unknown, doc: Record<string, unknown> = {}) =>
  buildFilterStep(config)(responses, doc);

describe('regex filter', () => {
  it('uses lm-eval defaults: the GSM8K pattern, first match, [invalid]', () => {
    // RegexFilter()
    expect(
      step({ function: 'regex' }, ['The total is #### 1,234.', 'no answer', '#### -3.5\n#### 7']),
    ).toEqual(['1,234.', '[invalid]', '-3.5']);
  });

  it('selects from the end with a negative group_select and takes a tuple first non-empty group', () => {
    // RegexFilter(regex_pattern=r"(-?[$0-9.,]{2,})|(-?[0-9]+)", group_select=-1)
    const config = { function: 'regex', regex_pattern: '(-?[$0-9.,]{2,})|(-?[0-9]+)', group_select: -1 };
    expect(step(config, ['I think 5 apples cost $12.50 so 3', 'none here'])).toEqual(['3', '[invalid]']);
  });

  it('falls back when every group of the selected match is empty', () => {
    // RegexFilter(regex_pattern=r"(a)?(b)?c", fallback="X")
    expect(step({ function: 'regex', regex_pattern: '(a)?(b)?c', fallback: 'X' }, ['c', 'bc'])).toEqual([
      'X',
      'b',
    ]);
  });

  it('treats a non-string response as an empty string', () => {
    // RegexFilter().apply([[None, 5]], [{}])
    expect(step({ function: 'regex' }, [null, 5])).toEqual(['[invalid]', '[invalid]']);
  });

  it('reports a group_select past the matches (Python IndexError) as an AssayError', () => {
    expect(() => step({ function: 'regex', regex_pattern: '\\d', group_select: 3 }, ['1 2'])).toThrow(
      /group_select: index 3 is out of range for 2 items/,
    );
  });
});

describe('multi_choice_regex filter', () => {
  const doc = { choices: ['Paris', 'London', 'New York!'] };

  it('tries the pattern, then the choice texts, then ": <letter>"', () => {
    // MultiChoiceRegexFilter(regex_pattern=r"answer is \(([A-C])\)")
    const config = { function: 'multi_choice_regex', regex_pattern: 'answer is \\(([A-C])\\)' };
    expect(step(config, ['The answer is (B).', 'I pick london', 'Answer: C', 'nothing'], doc)).toEqual([
      'B',
      '[invalid]',
      '(C)',
      '[invalid]',
    ]);
  });

  it('applies ignore_case and ignore_punctuation to both choices and response', () => {
    // MultiChoiceRegexFilter(regex_pattern=r"answer is \(([A-C])\)", ignore_case=True, ignore_punctuation=True)
    const config = {
      function: 'multi_choice_regex',
      regex_pattern: 'answer is \\(([A-C])\\)',
      ignore_case: true,
      ignore_punctuation: true,
    };
    expect(
      step(config, ['The answer is (B).', 'I pick london', "it's new york", 'Answer: C', 'nothing'], doc),
    ).toEqual(['B', '(B)', '(C)', '(C)', '[invalid]']);
  });

  it('removes regexes_to_ignore and honours group_select on the choice fallback', () => {
    // MultiChoiceRegexFilter(regex_pattern=r"zzz", regexes_to_ignore=[r"\s+"], group_select=-1)
    const config = {
      function: 'multi_choice_regex',
      regex_pattern: 'zzz',
      regexes_to_ignore: ['\\s+'],
      group_select: -1,
    };
    expect(step(config, ['Paris or NewYork! hmm', 'ParisLondon'], doc)).toEqual(['(C)', '(B)']);
  });

  it('needs doc.choices', () => {
    expect(() => step({ function: 'multi_choice_regex' }, ['x'], {})).toThrow(/doc\["choices"\]/);
  });
});

describe('selection and transformation filters', () => {
  it('remove_whitespace strips both ends with Python whitespace (lm-eval main; lstrip before #3408)', () => {
    // WhitespaceFilter().apply([["  a b \n", "\x1cx\x85"]], [{}])
    expect(step({ function: 'remove_whitespace' }, ['  a b \n', '\x1cx\x85'])).toEqual(['a b', 'x']);
  });

  it('majority_vote keeps the most common response, ties to the first seen', () => {
    // MajorityVoteFilter().apply([["b", "a", "a", "b", "c"]], [{}]) == [["b"]]
    expect(step({ function: 'majority_vote' }, ['b', 'a', 'a', 'b', 'c'])).toEqual(['b']);
  });

  it('regex_pos reads tag pairs', () => {
    // POSFilter().apply(...)
    expect(step({ function: 'regex_pos' }, ["[('The', 'DT'), ('cat', 'NN')]", 'no tags'])).toEqual([
      ['DT', 'NN'],
      ['invalid'],
    ]);
  });

  it('map looks responses up with a default', () => {
    // MapFilter({"yes": 1, "no": 0}, default_value=-1)
    const config = { function: 'map', mapping_dict: { yes: 1, no: 0 }, default_value: -1 };
    expect(step(config, ['yes', 'no', 'maybe'])).toEqual([1, 0, -1]);
    expect(step({ function: 'map', mapping_dict: { yes: 1 } }, ['no'])).toEqual([null]);
  });

  it('lowercase, uppercase, take_first, take_first_k', () => {
    expect(step({ function: 'lowercase' }, ['AbC', 'ΑΣ'])).toEqual(['abc', 'ας']);
    expect(step({ function: 'uppercase' }, ['straße'])).toEqual(['STRASSE']);
    expect(step({ function: 'take_first' }, ['x', 'y'])).toBe('x');
    expect(step({ function: 'take_first_k', k: 2 }, ['x', 'y', 'z'])).toEqual(['x', 'y']);
    expect(() => step({ function: 'take_first_k', k: 4 }, ['x'])).toThrow(/increase the task's repeats/);
  });

  it('a step after take_first iterates the characters of the string, as Python does', () => {
    const pipeline = buildFilterPipeline({
      name: 'odd',
      filter: [{ function: 'take_first' }, { function: 'uppercase' }],
    });
    expect(pipeline.apply(['ab'], {})).toEqual(['A', 'B']);
  });

  it('custom calls filter_fn with a one-doc batch', () => {
    const filterFn = (responses: unknown[]) => responses.map((list) => (list as string[]).join('+'));
    const config = {
      function: 'custom',
      filter_fn: { kind: 'function', ref: 'utils.join', file: '/x.py', fn: filterFn },
    };
    expect(step(config, ['a', 'b'])).toBe('a+b');
  });
});

describe('pipelines', () => {
  it('runs steps in order under the filter name', () => {
    const pipeline = buildFilterPipeline({
      name: 'strict-match',
      filter: [{ function: 'regex', regex_pattern: '#### (\\-?[0-9\\.\\,]+)' }, { function: 'take_first' }],
    });
    expect(pipeline.name).toBe('strict-match');
    expect(pipeline.apply(['reasoning #### 42', '#### 7'], {})).toBe('42');
  });

  it('defaults to none/take_first', () => {
    const pipeline = defaultFilterPipeline();
    expect(pipeline.name).toBe('none');
    expect(pipeline.apply(['first', 'second'], {})).toBe('first');
  });

  it('rejects an unknown filter, listing the valid ones and a suggestion', () => {
    let caught: unknown;
    try {
      getFilter('regx');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AssayError);
    expect((caught as AssayError).code).toBe('unknown_filter');
    expect((caught as AssayError).location).toEqual({ field: 'filter_list' });
    expect((caught as AssayError).message).toMatch(/did you mean regex/);
    expect((caught as AssayError).message).toMatch(
      /valid filters: regex, regex_pos, take_first, take_first_k/,
    );
  });

  it('rejects arguments a filter does not take, and bad argument types', () => {
    expect(() => buildFilterStep({ function: 'regex', pattern: 'x' })).toThrow(/no argument "pattern"/);
    expect(() => buildFilterStep({ function: 'regex', group_select: 'last' })).toThrow(
      /group_select must be an integer/,
    );
    expect(() => buildFilterStep({ function: 'regex', regex_pattern: '(?>x)' })).toThrow(/atomic groups/);
  });
});
