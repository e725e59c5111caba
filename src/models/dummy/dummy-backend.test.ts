import { describe, expect, it } from 'vitest';
import { runBackendConformance } from '../../testing/backend-conformance.js';
import { cutAtStops } from '../stop-strings.js';
import { DummyBackend } from './dummy-backend.js';

runBackendConformance({
  name: 'dummy',
  create: () => new DummyBackend({ seed: 7 }),
  noRequestFails: 'the dummy model computes every answer in process',
});

describe('DummyBackend', () => {
  it('depends on its seed', async () => {
    const request = [{ context: 'a', continuation: ' b' }];
    const [a] = await new DummyBackend({ seed: 1 }).loglikelihood({ requests: request });
    const [b] = await new DummyBackend({ seed: 2 }).loglikelihood({ requests: request });
    const [a2] = await new DummyBackend({ seed: 1 }).loglikelihood({ requests: request });
    expect(a).toEqual(a2);
    expect(a.logprob).not.toBe(b.logprob);
  });

  it('renders ChatML through its chat template', () => {
    const text = new DummyBackend().applyChatTemplate(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      { addGenerationPrompt: true },
    );
    expect(text).toBe(
      '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('cuts generations at each stop string in order', () => {
    expect(cutAtStops(' 7\n\nQuestion: x', ['\n\n'])).toBe(' 7');
    expect(cutAtStops('abc STOP def', ['STOP', 'c'])).toBe('ab');
  });
});

describe('DummyBackend as a character-level model', () => {
  it('adds up: ll(c, ab) = ll(c, a) + ll(c+a, b), and rolling = ll("", text)', async () => {
    const backend = new DummyBackend({ seed: 3 });
    const [whole, first, second] = await backend.loglikelihood({
      requests: [
        { context: 'ctx', continuation: ' upon a time' },
        { context: 'ctx', continuation: ' upon' },
        { context: 'ctx upon', continuation: ' a time' },
      ],
    });
    expect(whole.logprob).toBeCloseTo(first.logprob + second.logprob, 10);
    const [rolling] = await backend.loglikelihoodRolling({ requests: [{ text: 'ctx upon a time' }] });
    const [fromEmpty] = await backend.loglikelihood({
      requests: [{ context: '', continuation: 'ctx upon a time' }],
    });
    expect(rolling).toBe(fromEmpty.logprob);
  });
});
