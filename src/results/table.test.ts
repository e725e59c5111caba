import { describe, expect, it } from 'vitest';
import { smallRuns } from '../../test/fixtures/results/small-runs.js';
import { makeTable } from './table.js';

describe('makeTable', () => {
  // The shape lm-eval prints (lm_eval/utils.py make_table via pytablewriter), e.g. in its README:
  // |hellaswag|      1|none  |     0|acc_norm|↑  |0.8110|±  |0.0039|
  it('renders lm-eval’s markdown table', () => {
    const table = makeTable({
      results: {
        hellaswag: {
          alias: 'hellaswag',
          'acc,none': 0.57,
          'acc_stderr,none': 0.0049,
          'acc_norm,none': 0.811,
          'acc_norm_stderr,none': 0.0039,
          'acc_ci,none': [0.56, 0.58],
        },
      },
      versions: { hellaswag: 1 },
      'n-shot': { hellaswag: 0 },
      higher_is_better: { hellaswag: { acc: true, acc_norm: true } },
    });
    expect(table).toBe(
      [
        '|  Tasks  |Version|Filter|n-shot| Metric |   |Value |   |Stderr|',
        '|---------|------:|------|-----:|--------|---|-----:|---|-----:|',
        '|hellaswag|      1|none  |     0|acc     |↑  |0.5700|±  |0.0049|',
        '|         |       |none  |     0|acc_norm|↑  |0.8110|±  |0.0039|',
        '',
      ].join('\n'),
    );
  });

  it('prints N/A stderr and ↓ for lower-is-better metrics', () => {
    const table = makeTable({
      results: {
        wikitext: { alias: 'wikitext', 'word_perplexity,none': 12.5, 'word_perplexity_stderr,none': 'N/A' },
      },
      versions: { wikitext: 2 },
      'n-shot': { wikitext: 0 },
      higher_is_better: { wikitext: { word_perplexity: false } },
    });
    expect(table.split('\n')[2]).toBe(
      '|wikitext|      2|none  |     0|word_perplexity|↓  |12.5000|±  |   N/A|',
    );
  });

  it('marks a task with errored samples: its values cover only the answered docs', () => {
    const table = makeTable({
      results: {
        arc: {
          alias: 'arc',
          'acc,none': 0.6,
          'acc_stderr,none': 0.1,
          partial: true,
          errors: 5,
          answered: 195,
        },
        boolq: { alias: 'boolq', 'acc,none': 0.7, 'acc_stderr,none': 0.05 },
      },
      versions: { arc: 1, boolq: 2 },
      'n-shot': { arc: 0, boolq: 0 },
      higher_is_better: { arc: { acc: true }, boolq: { acc: true } },
    });
    expect(table).toBe(
      [
        '|                  Tasks                  |Version|Filter|n-shot|Metric|   |Value |   |Stderr|',
        '|-----------------------------------------|------:|------|-----:|------|---|-----:|---|-----:|',
        '|arc (partial: 5 errored, 195 of 200 docs)|      1|none  |     0|acc   |↑  |0.6000|±  |0.1000|',
        '|boolq                                    |      2|none  |     0|acc   |↑  |0.7000|±  |0.0500|',
        '',
      ].join('\n'),
    );
  });
});

describe('makeTable with the uncertainty columns', () => {
  const lmEvalLines = [
    '|     Tasks      |Version|Filter|n-shot|Metric|   |Value |   |Stderr|',
    '|----------------|------:|------|-----:|------|---|-----:|---|-----:|',
    '|story_cloze_mini|      1|none  |     0|acc   |↑  |1.0000|±  |0.0000|',
    '|zero_six        |      1|none  |     0|acc   |↑  |0.0000|±  |0.0000|',
    '|medqa_mini      |      1|none  |     0|acc   |↑  |0.1250|±  |0.1250|',
  ];

  it('shows each metric’s 95% interval and n beside lm-eval’s columns: 1.0000 ± 0.0000 is not certainty', () => {
    expect(makeTable(smallRuns, 'results', { uncertainty: true })).toBe(
      [
        `${lmEvalLines[0]}    95% CI    | n |`,
        `${lmEvalLines[1]}--------------|--:|`,
        `${lmEvalLines[2]}[0.839, 1.000]| 20|`,
        `${lmEvalLines[3]}[0.000, 0.390]|  6|`,
        `${lmEvalLines[4]}[0.022, 0.471]|  8|`,
        '',
      ].join('\n'),
    );
    // Without the option, lm-eval's table exactly.
    expect(makeTable(smallRuns)).toBe([...lmEvalLines, ''].join('\n'));
  });

  it('shows the interval the results file holds, not one of its own, and says a level other than 95%', () => {
    const table = makeTable(
      {
        ...smallRuns,
        results: { medqa_mini: { ...smallRuns.results.medqa_mini, 'acc_ci,none': [0.5, 0.9] } },
        stats: { medqa_mini: { 'acc,none': { n: 8, ci_level: 0.9, ci_method: 'wilson' } } },
      },
      'results',
      { uncertainty: true },
    );
    expect(table.split('\n')[2]).toBe(
      '|medqa_mini|      1|none  |     0|acc   |↑  |0.1250|±  |0.1250|[0.500, 0.900] (90%)|  8|',
    );
  });

  it('leaves the cells empty for a results file without intervals (lm-eval’s own)', () => {
    const { stats: _stats, ...lmEval } = smallRuns;
    const results = { medqa_mini: { alias: 'medqa_mini', 'acc,none': 0.125, 'acc_stderr,none': 0.125 } };
    expect(makeTable({ ...lmEval, results }, 'results', { uncertainty: true }).split('\n')[2]).toBe(
      '|medqa_mini|      1|none  |     0|acc   |↑  |0.1250|±  |0.1250|      |   |',
    );
  });
});
