/** lm-eval's flag syntaxes, parsed at the edge into the library's typed options. */
import { describe, expect, it } from 'vitest';
import { limitFlag, metadataFlag, samplesFlag, seedFlag, verbosityFlag } from './run-flag-values.js';

describe('--limit (a float in lm-eval: below 1 a fraction, else a count)', () => {
  it('becomes { fraction } or a count', () => {
    expect(limitFlag('0.1', '--limit')).toEqual({ fraction: 0.1 });
    expect(limitFlag('1.0', '--limit')).toBe(1);
    expect(limitFlag('100', '--limit')).toBe(100);
    expect(limitFlag(5, '--limit')).toBe(5);
  });
  it('rejects nonsense', () => {
    for (const bad of ['lots', '-1', '0', 'NaN'])
      expect(() => limitFlag(bad, '--limit')).toThrow('--limit must be');
    expect(() => limitFlag('2.5', '--limit')).toThrow(
      '--limit must be a whole count when it is 1 or more, got "2.5"',
    );
  });
});

describe('--seed', () => {
  it('follows lm-eval: one value, three values, None', () => {
    expect(seedFlag('42', '--seed')).toEqual({ random: 42, numpy: 42, torch: 42, fewshot: 42 });
    expect(seedFlag('1,2,3', '--seed')).toEqual({ random: 1, numpy: 2, torch: 3, fewshot: 1234 });
    expect(seedFlag('None,2,3,4', '--seed')).toEqual({ random: null, numpy: 2, torch: 3, fewshot: 4 });
    expect(seedFlag(7, '--seed')).toEqual({ random: 7, numpy: 7, torch: 7, fewshot: 7 });
    expect(() => seedFlag('1,2', '--seed')).toThrow('--seed takes 1, 3 or 4');
    expect(() => seedFlag('1,x,3', '--seed')).toThrow('--seed: "x" is not an integer or None');
  });
});

describe('--samples, --metadata, --verbosity', () => {
  it('take JSON (or a YAML mapping from --config) and lm-eval’s level names in any case', () => {
    expect(samplesFlag('{"a": [0, 2]}', '--samples')).toEqual({ a: [0, 2] });
    expect(samplesFlag({ a: [1] }, '--samples')).toEqual({ a: [1] });
    expect(() => samplesFlag('{"a": ["x"]}', '--samples')).toThrow(
      '--samples: task a must map to a list of integer doc ids',
    );
    expect(() => samplesFlag('no-such-file.json', '--samples')).toThrow(
      '--samples: "no-such-file.json" is neither a JSON object nor a readable file',
    );
    expect(metadataFlag('{"max_seq_lengths": [4096]}', '--metadata')).toEqual({ max_seq_lengths: [4096] });
    expect(() => metadataFlag('[1]', '--metadata')).toThrow('--metadata must be a JSON object');
    expect(() => metadataFlag('k=v', '--metadata')).toThrow(/^--metadata must be a JSON object such as/);
    expect(verbosityFlag('debug', '--verbosity')).toBe('DEBUG');
    expect(() => verbosityFlag('loud', '--verbosity')).toThrow(
      '--verbosity must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, got "loud"',
    );
  });
});
