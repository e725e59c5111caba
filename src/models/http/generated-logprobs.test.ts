import { describe, expect, it } from 'vitest';
import { fromChatLogprobs, fromCompletionLogprobs, trimToText } from './generated-logprobs.js';

describe('generated tokens’ log-probabilities', () => {
  it('reads completions’ legacy logprobs (tokens, token_logprobs) and chat’s logprobs.content', () => {
    expect(
      fromCompletionLogprobs({ tokens: [' Paris', '.'], token_logprobs: [-0.5, -0.25], top_logprobs: null }),
    ).toEqual({ tokens: [' Paris', '.'], logprobs: [-0.5, -0.25] });
    expect(
      fromChatLogprobs([
        { token: 'Paris', logprob: -0.5 },
        { token: '.', logprob: -0.25 },
      ]),
    ).toEqual({ tokens: ['Paris', '.'], logprobs: [-0.5, -0.25] });
  });

  it('keeps none rather than a partial or misaligned list', () => {
    expect(fromCompletionLogprobs(null)).toBeNull();
    expect(fromCompletionLogprobs({ tokens: [], token_logprobs: [] })).toBeNull();
    expect(fromCompletionLogprobs({ tokens: ['a', 'b'], token_logprobs: [-1, null] })).toBeNull();
    expect(fromCompletionLogprobs({ tokens: ['a', 'b'], token_logprobs: [-1] })).toBeNull();
    expect(fromChatLogprobs(null)).toBeNull();
    expect(fromChatLogprobs([])).toBeNull();
  });

  it('keeps the tokens that start before a cut answer ends', () => {
    const generated = { tokens: [' Paris', '.', '\n\n', 'Q'], logprobs: [-1, -2, -3, -4] };
    expect(trimToText(generated, ' Paris.')).toEqual({ tokens: [' Paris', '.'], logprobs: [-1, -2] });
    // A cut inside a token keeps that token: its log-probability covers the kept characters too.
    expect(trimToText(generated, ' Par')).toEqual({ tokens: [' Paris'], logprobs: [-1] });
    expect(trimToText(generated, ' Paris.\n\nQ')).toBe(generated);
    expect(trimToText(generated, '')).toEqual({ tokens: [], logprobs: [] });
    expect(trimToText(null, 'x')).toBeNull();
  });
});
