/**
 * processResults for multiple-choice docs, against lm-eval's ConfigurableTask.process_results rules
 * (lm_eval/api/task.py at 4e7e0d47): acc is the argmax of the choices' log-likelihoods hitting a gold,
 * acc_norm divides each by its choice's length in characters, exact_match is 1 when a gold choice is the
 * greedy continuation, likelihood is the gold's log-likelihood.
 */
import { describe, expect, test } from 'vitest';
import type { LoglikelihoodResult } from '../models/backend.js';
import type { PlannedDoc, TaskPlan } from './plan.js';
import { processResults } from './score.js';

const metrics = ['acc', 'acc_norm', 'exact_match', 'likelihood', 'acc_mutual_info'];
const plan = {
  task: { name: 'mc', config: { output_type: 'multiple_choice' } },
  metricList: metrics.map((metric) => ({ metric })),
} as unknown as TaskPlan;

const doc = (target: unknown): PlannedDoc =>
  ({
    docId: 0,
    doc: {},
    fewshotIds: [],
    target,
    choices: [' a', ' bbbb', ' cc'],
    instances: [],
  }) as PlannedDoc;

// Three conditional answers, then the three unconditional ones acc_mutual_info reads.
const results: LoglikelihoodResult[] = [
  { logprob: -3, isGreedy: false },
  { logprob: -4, isGreedy: true },
  { logprob: -2.5, isGreedy: false },
  { logprob: -1, isGreedy: false },
  { logprob: -3.5, isGreedy: false },
  { logprob: -2, isGreedy: false },
];

describe('processResults, multiple choice', () => {
  test('each metric from the choices’ answers', () => {
    // argmax(-3, -4, -2.5) = 2; per character (2, 5, 3): (-1.5, -0.8, -0.83) → 1; minus unconditional:
    // (-2, -0.5, -0.5) → 1 (first of the ties, as numpy's argmax).
    expect(processResults(plan, doc(1), results)).toEqual({
      acc: 0,
      acc_norm: 1,
      exact_match: 1,
      likelihood: -4,
      acc_mutual_info: 1,
    });
    expect(processResults(plan, doc(2), results)).toEqual({
      acc: 1,
      acc_norm: 0,
      exact_match: 0,
      likelihood: -2.5,
      acc_mutual_info: 0,
    });
  });

  test('several golds: a hit on any counts; exact_match when any gold is greedy', () => {
    expect(processResults(plan, doc([0, 1]), results)).toMatchObject({ acc: 0, acc_norm: 1, exact_match: 1 });
    expect(processResults(plan, doc([0, 2]), results)).toMatchObject({ acc: 1, acc_norm: 0, exact_match: 0 });
  });
});
