import { describe, expect, test } from 'vitest';
import type { TaskPlan } from './plan.js';
import type { Instance } from './requests.js';
import type { Responses } from './responses.js';
import { thinkingCounts } from './thinking-counts.js';

const generate = (task: string, id: number, repeats = 1): Instance => ({
  id,
  task,
  docId: id,
  repeats,
  index: 0,
  args: { type: 'generate_until', context: 'Q:', generation: {} as never, kwargs: undefined },
});

const plan = (task: string, instances: Instance[]) =>
  ({
    task: { name: task },
    docs: instances.map((instance) => ({ instances: [instance] })),
  }) as unknown as TaskPlan;

describe('thinkingCounts', () => {
  test('counts every generation of a task with thinking records, and those truncated while thinking', () => {
    const plans = [
      plan('reasoned', [generate('reasoned', 0, 2), generate('reasoned', 1)]),
      plan('plain', [generate('plain', 0)]),
      plan('scored', [
        { ...generate('scored', 0), args: { type: 'loglikelihood', context: 'Q:', continuation: ' a' } },
      ]),
    ];
    const responses: Responses = new Map([
      [
        'reasoned',
        {
          resps: [['a', 'b'], ['c']],
          genThinking: [[{ truncated: true }, { truncated: false }], [null]],
        },
      ],
      ['plain', { resps: [['x']] }],
      ['scored', { resps: [], loglikelihood: { logprob: Float64Array.of(-1), isGreedy: Uint8Array.of(0) } }],
    ]);
    // Three generations (two repeats and one), one truncated; the tasks without records are absent.
    expect(thinkingCounts(plans, responses)).toEqual({ reasoned: { generations: 3, truncated: 1 } });
  });
});
