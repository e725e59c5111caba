import type { GenerateRequest } from '../backend.js';

/** Consecutive indices in groups of `size`, produced lazily. */
export function* batchesOf(count: number, size: number): Generator<number[]> {
  for (let start = 0; start < count; start += size) {
    const batch: number[] = [];
    for (let index = start; index < Math.min(count, start + size); index++) batch.push(index);
    yield batch;
  }
}

function generationKey(request: GenerateRequest): string {
  return JSON.stringify([
    request.until,
    request.maxGenToks,
    request.temperature,
    request.doSample,
    request.extra,
  ]);
}

/**
 * Consecutive generation requests that share their kwargs go in one HTTP request (one payload holds one
 * set of kwargs). The evaluator orders requests so that shared contexts are neighbours, and keeping that
 * order keeps the server's prefix cache warm.
 */
export function* generationBatches(requests: GenerateRequest[], size: number): Generator<number[]> {
  let batch: number[] = [];
  let key = '';
  for (let index = 0; index < requests.length; index++) {
    const own = size > 1 ? generationKey(requests[index]) : '';
    if (batch.length && (batch.length >= size || own !== key)) {
      yield batch;
      batch = [];
    }
    key = own;
    batch.push(index);
  }
  if (batch.length) yield batch;
}

/** The start of a prompt, for error messages. */
export function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
