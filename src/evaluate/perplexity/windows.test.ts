import { describe, expect, it } from 'vitest';
import { chunkedWindows, contiguousSpans, llamaCppEstimate, stridedWindows } from './windows.js';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('stridedWindows (HF sliding windows)', () => {
  it('scores every text token once: L=4, S=2 over 10 tokens', () => {
    const text = range(10, 20);
    const laid = stridedWindows(text, 1, 4, 2);
    expect(laid.sequence).toEqual([1, ...text]);
    expect(laid.windows).toEqual([
      { tokens: [1, 10, 11, 12], scoreFrom: 1 },
      { tokens: [11, 12, 13, 14], scoreFrom: 2 },
      { tokens: [13, 14, 15, 16], scoreFrom: 2 },
      { tokens: [15, 16, 17, 18], scoreFrom: 2 },
      { tokens: [17, 18, 19], scoreFrom: 2 },
    ]);
    expect(laid.scoredPositions).toEqual(range(1, 11));
  });

  it('stride = max_length = sequence length: one window scoring every text token after the prefix', () => {
    const text = range(10, 17);
    const laid = stridedWindows(text, 1, 8, 8);
    expect(laid.windows).toEqual([{ tokens: [1, ...text], scoreFrom: 1 }]);
  });

  it("keeps HF's quirk: a last window of one token scores nothing", () => {
    const laid = stridedWindows(range(10, 20), 1, 10, 10);
    expect(laid.windows).toEqual([{ tokens: [1, ...range(10, 19)], scoreFrom: 1 }]);
    expect(laid.scoredPositions).toEqual(range(1, 10));
  });

  it('rejects a stride longer than the window', () => {
    expect(() => stridedWindows([5, 6], 1, 4, 5)).toThrow(/`perplexity.stride` must be an integer in \[1/);
  });
});

describe('chunkedWindows (llama-perplexity)', () => {
  it('cuts whole chunks of n_ctx, BOS at each chunk start, scores positions n_ctx/2+1 … n_ctx−1', () => {
    const text = range(100, 100 + 40); // 41 tokens with BOS → 5 chunks of 8, one token left over
    const laid = chunkedWindows(text, { nCtx: 8, bos: 1, addBos: true, requireTwoChunks: true });
    expect(laid.sequence.length).toBe(41);
    expect(laid.windows.length).toBe(5);
    expect(laid.windows[0]).toEqual({ tokens: [1, 100, 101, 102, 103, 104, 105, 106], scoreFrom: 5 });
    // chunk 1 starts at sequence position 8 (text token 107), which BOS replaces.
    expect(laid.windows[1]).toEqual({ tokens: [1, 108, 109, 110, 111, 112, 113, 114], scoreFrom: 5 });
    expect(laid.scoredPositions).toEqual([5, 6, 7, 13, 14, 15, 21, 22, 23, 29, 30, 31, 37, 38, 39]);
  });

  it('without add_bos the tokens are left as they are', () => {
    const laid = chunkedWindows(range(0, 16), { nCtx: 8, bos: 1, addBos: false, requireTwoChunks: true });
    expect(laid.windows.map((window) => window.tokens[0])).toEqual([0, 8]);
  });

  it("refuses fewer than 2·n_ctx tokens with llama-perplexity's message", () => {
    expect(() =>
      chunkedWindows(range(0, 14), { nCtx: 8, bos: 1, addBos: true, requireTwoChunks: true }),
    ).toThrow(
      'chunked perplexity needs at least 16 tokens with a context of 8 (as llama-perplexity); the text tokenizes to only 15 tokens',
    );
  });
});

describe('llamaCppEstimate', () => {
  it('PPL = exp(mean nll), stderr = sqrt((E[v²] − E[v]²)/(n−1))·PPL', () => {
    const nll = [1, 2, 3, 4];
    const mean = 2.5;
    const variance = (1 + 4 + 9 + 16) / 4 - mean * mean;
    expect(llamaCppEstimate(nll)).toEqual({
      ppl: Math.exp(mean),
      stderr: Math.sqrt(variance / 3) * Math.exp(mean),
    });
  });
});

it('contiguousSpans', () => {
  expect(contiguousSpans([1, 2, 3, 7, 8, 10])).toEqual([
    [1, 4],
    [7, 9],
    [10, 11],
  ]);
});
