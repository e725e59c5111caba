import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../backend.js';
import { batchesOf, generationBatches, preview } from './request-batches.js';

function request(context: string, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { context, until: ['\n'], maxGenToks: 16, temperature: 0, doSample: false, extra: {}, ...extra };
}

describe('request batches', () => {
  it('cuts indices into consecutive groups of batch_size, the last one shorter', () => {
    expect([...batchesOf(7, 3)]).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect([...batchesOf(0, 3)]).toEqual([]);
    expect([...batchesOf(2, 1)]).toEqual([[0], [1]]);
  });

  it('keeps generation requests together only while their kwargs are the same (one payload, one set)', () => {
    const requests = [
      request('a'),
      request('b'),
      request('c', { until: ['\n', 'Q:'] }),
      request('d', { until: ['\n', 'Q:'] }),
      request('e', { temperature: 0.7, doSample: true }),
      request('f', { extra: { top_p: 0.9 } }),
      request('g', { extra: { top_p: 0.9 } }),
    ];
    expect([...generationBatches(requests, 8)]).toEqual([[0, 1], [2, 3], [4], [5, 6]]);
    expect([...generationBatches(requests, 1)]).toEqual([[0], [1], [2], [3], [4], [5], [6]]);
    // The order is kept: equal kwargs apart are not gathered (the server's prefix cache stays warm).
    expect([...generationBatches([request('a'), request('b', { maxGenToks: 4 }), request('c')], 8)]).toEqual([
      [0],
      [1],
      [2],
    ]);
  });

  it('previews a prompt by its first 60 characters, quoted', () => {
    expect(preview('short')).toBe('"short"');
    expect(preview('x'.repeat(61))).toBe(`"${'x'.repeat(60)}…"`);
    expect(preview('a\nb')).toBe('"a\\nb"');
  });
});
