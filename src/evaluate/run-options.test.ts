/** The run's options schema: its defaults (lm-eval's where lm-eval has one) and what it refuses. */
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { type RunOptionsInput, resolveRunOptions, runOptionsSchema } from './run-options.js';

const minimal: RunOptionsInput = { model: 'dummy', tasks: ['arithmetic'] };

/** The AssayError resolving `options` throws. */
function refusal(options: Record<string, unknown>): AssayError {
  try {
    resolveRunOptions({ ...minimal, ...options } as RunOptionsInput);
  } catch (error) {
    expect(error).toBeInstanceOf(AssayError);
    return error as AssayError;
  }
  throw new Error(`resolved ${JSON.stringify(options)} without an error`);
}

describe('the run options schema', () => {
  it('gives every default once: lm-eval’s seeds, bootstrap iterations and batch size', () => {
    const resolved = resolveRunOptions(minimal);
    expect(resolved).toMatchObject({
      model: 'dummy',
      tasks: ['arithmetic'],
      // lm_eval/defaults.py: DEFAULT_RANDOM_SEED = 0, DEFAULT_OTHER_SEED = 1234.
      seeds: { random: 0, numpy: 1234, torch: 1234, fewshot: 1234 },
      // lm_eval/evaluator.py simple_evaluate: bootstrap_iters = 100000; the CLI's --batch_size 1.
      bootstrapIters: 100000,
      batchSize: 1,
      genKwargs: {},
      applyChatTemplate: false,
      fewshotAsMultiturn: false,
      predictOnly: false,
      logSamples: false,
      includePerExample: false,
      mcMode: 'loglikelihood',
    });
    // Every field is there, the ones left out undefined: a reader sees the whole shape.
    expect(Object.keys(resolved).sort()).toEqual(Object.keys(runOptionsSchema.in.shape).sort());
    expect(resolved.maxLatencyS).toBeUndefined();
    expect(resolved.limit).toBeUndefined();
  });

  it('derives the defaults that depend on another option', () => {
    // lm-eval ≥ 0.4.10: few-shot examples as turns under a chat template.
    expect(resolveRunOptions({ ...minimal, applyChatTemplate: true }).fewshotAsMultiturn).toBe(true);
    expect(resolveRunOptions({ ...minimal, applyChatTemplate: 'chatml' }).fewshotAsMultiturn).toBe(true);
    expect(
      resolveRunOptions({ ...minimal, applyChatTemplate: true, fewshotAsMultiturn: false })
        .fewshotAsMultiturn,
    ).toBe(false);
    // A predict-only run logs its samples unless told not to.
    expect(resolveRunOptions({ ...minimal, predictOnly: true }).logSamples).toBe(true);
    expect(resolveRunOptions({ ...minimal, predictOnly: true, logSamples: false }).logSamples).toBe(false);
    // The CPU limit follows the wall clock, rounded up to whole seconds, unless given.
    expect(resolveRunOptions({ ...minimal, sandbox: { limits: { timeoutMs: 2500 } } }).sandbox).toEqual({
      limits: { timeoutMs: 2500, cpuSeconds: 3 },
    });
    expect(
      resolveRunOptions({ ...minimal, sandbox: { limits: { timeoutMs: 2500, cpuSeconds: 1 } } }).sandbox,
    ).toEqual({ limits: { timeoutMs: 2500, cpuSeconds: 1 } });
  });

  it('keeps what it was given, checked', () => {
    const given: RunOptionsInput = {
      ...minimal,
      limit: { fraction: 0.25 },
      shard: { index: 1, count: 3 },
      seeds: { fewshot: null },
      maxLatencyS: 2.5,
      perplexity: { mode: 'strided', stride: 64 },
      expectSha256: { arithmetic: 'a'.repeat(64) },
    };
    expect(resolveRunOptions(given)).toMatchObject({
      limit: { fraction: 0.25 },
      shard: { index: 1, count: 3 },
      seeds: { random: 0, numpy: 1234, torch: 1234, fewshot: null },
      maxLatencyS: 2.5,
      perplexity: { mode: 'strided', stride: 64 },
      expectSha256: { arithmetic: 'a'.repeat(64) },
    });
  });

  it('refuses a bad value with a message naming the field, as bad_option (exit 2)', () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ maxLatencyS: 0 }, '`maxLatencyS` must be a positive number of seconds, got 0', 'maxLatencyS'],
      [
        { maxLatencyS: 'soon' },
        '`maxLatencyS` must be a positive number of seconds, got "soon"',
        'maxLatencyS',
      ],
      [{ bootstrapIters: -1 }, '`bootstrapIters` must be a non-negative integer, got -1', 'bootstrapIters'],
      [{ numFewshot: 1.5 }, '`numFewshot` must be a non-negative integer, got 1.5', 'numFewshot'],
      [
        { perplexity: { stride: 0 } },
        '`perplexity.stride` must be an integer of at least 1, got 0',
        'perplexity.stride',
      ],
      [{ model: '' }, '`model` must name a backend, got ""', 'model'],
      [{ applyChatTemplate: 3 }, '`applyChatTemplate`: Invalid input', 'applyChatTemplate'],
      [{ perplexity: { mode: 'sliding' } }, '`perplexity.mode`: Invalid option', 'perplexity.mode'],
    ];
    for (const [options, message, field] of cases) {
      const error = refusal(options);
      expect(error.message.startsWith(message), `${error.message} starts with ${message}`).toBe(true);
      expect(error.code).toBe('bad_option');
      expect(error.exitCode).toBe(2);
      expect(error.location?.field).toBe(field);
    }
  });

  it('refuses through the checks of each option’s own file, and combinations that cannot hold', () => {
    expect(refusal({ limit: 0 }).message).toMatch(/^`limit` must be a whole number of docs, at least 1/);
    expect(refusal({ limit: { fraction: 1.5 } }).message).toMatch(
      /^`limit` must be a count or \{ fraction \}/,
    );
    expect(refusal({ shard: { index: 4, count: 4 } }).message).toBe(
      '`shard.index` must be an integer between 0 and 3 (shards are numbered from 0), got 4',
    );
    expect(refusal({ mcMode: 'guess' }).message).toBe(
      '`mcMode` must be loglikelihood or generate, got "guess"',
    );
    expect(refusal({ seeds: { python: 1 } }).message).toMatch(/^`seeds` has no generator "python"/);
    expect(refusal({ samples: { arithmetic: ['a'] } }).message).toBe(
      '`samples`: task arithmetic must map to a list of integer doc ids',
    );
    expect(refusal({ limit: 5, samples: { arithmetic: [0] } }).message).toBe(
      '`limit` and `samples` cannot be used together',
    );
    expect(refusal({ fewshotAsMultiturn: true }).message).toBe(
      '`fewshotAsMultiturn` needs `applyChatTemplate`',
    );
  });
});
