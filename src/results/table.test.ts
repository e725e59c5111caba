import { describe, expect, it } from 'vitest';
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
