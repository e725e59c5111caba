/**
 * partialRunOf reads whether a run covers every doc from any results file: the causes below are each
 * written into a hand-made results file, and the reasons name them with the file's own numbers.
 */
import { describe, expect, it } from 'vitest';
import { partialRunOf } from './partial-run.js';
import { resultsFileSchema } from './schema.js';

function run(extra: Record<string, unknown>) {
  const results = resultsFileSchema.parse({
    results: { a: { 'acc,none': 0.5 }, b: { 'acc,none': 0.25 } },
    'n-samples': { a: { original: 10, effective: 10 }, b: { original: 8, effective: 8 } },
    config: { limit: null },
    ...extra,
  });
  return partialRunOf({ results, sampleFiles: new Map() });
}

describe('partialRunOf', () => {
  it('a whole run with an errors record: not partial, every task counted at 0', () => {
    expect(run({ errors: { samples: 0, by_task: {} } })).toEqual({
      partial: false,
      reasons: [],
      errors: { a: 0, b: 0 },
    });
  });

  it('a samples subset, named with its docs', () => {
    expect(
      run({ 'n-samples': { a: { original: 10, effective: 3 }, b: { original: 8, effective: 8 } } }).reasons,
    ).toEqual(['a subset of the docs (`samples`) (a: 3 of 10 docs)']);
  });

  it('one shard with its slice of docs, errors and timeouts, each named with its counts', () => {
    expect(
      run({
        'n-samples': { a: { original: 10, effective: 3 }, b: { original: 8, effective: 8 } },
        manifest: {
          shard: {
            index: 1,
            count: 4,
            tasks: ['a', 'b'],
            include_path: null,
            samples: null,
            predict_only: false,
          },
        },
        errors: { samples: 2, by_task: { b: 2 } },
        timeouts: { max_latency_s: 1, samples: 5, by_task: { a: 3, b: 2 } },
      }),
    ).toEqual({
      partial: true,
      reasons: [
        'shard 2 of 4 (a: 3 of 10 docs; merge the shards for the whole run)',
        '2 errored samples in no metric (b: 2)',
        '5 docs timed out at max_latency_s=1, in no metric (a: 3, b: 2)',
      ],
      errors: { a: 0, b: 2 },
      timeouts: { a: 3, b: 2 },
      maxLatencyS: 1,
    });
  });

  it('a results file that says partial for a reason it does not record is still partial', () => {
    expect(run({ partial: true })).toEqual({
      partial: true,
      reasons: ['the results file marks the run partial'],
    });
  });
});
