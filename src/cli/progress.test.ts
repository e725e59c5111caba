import { describe, expect, it } from 'vitest';
import { progressListener } from './progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return {
    writes,
    stream: { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
  };
}

describe('progressListener', () => {
  it('draws phase, done/total, rate and ETA on a TTY', () => {
    const { writes, stream } = fakeStream(true);
    const listen = progressListener(stream);
    listen({ type: 'phase', phase: 'requests' });
    listen({ type: 'request-batch-start', requestType: 'loglikelihood', total: 10, unique: 10 });
    listen({ type: 'request-progress', requestType: 'loglikelihood', done: 10, total: 10 });
    listen({ type: 'request-batch-end', requestType: 'loglikelihood', total: 10, seconds: 0.5 });
    const text = writes.join('');
    expect(text).toContain('[requests]');
    expect(text).toMatch(/loglikelihood: 10\/10 [\d.]+ req\/s ETA 0s/);
    expect(text).toContain('loglikelihood: 10 in 0.5s');
  });
  it('is quiet when stderr is not a TTY, except for warnings', () => {
    const { writes, stream } = fakeStream(false);
    const listen = progressListener(stream);
    listen({ type: 'phase', phase: 'requests' });
    listen({ type: 'request-progress', requestType: 'generate_until', done: 1, total: 2 });
    expect(writes).toEqual([]);
    listen({ type: 'warning', message: 'partial run' });
    expect(writes).toEqual(['assay: warning: partial run\n']);
  });
});
