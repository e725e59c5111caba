import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../events.js';
import { progressListener } from './progress.js';

function fakeStream(isTTY: boolean, columns = 100) {
  const writes: string[] = [];
  return {
    writes,
    text: () => writes.join(''),
    stream: { isTTY, columns, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
  };
}

/** A clock the test moves by hand (milliseconds). */
function clock() {
  let ms = 0;
  return { now: () => ms, at: (value: number) => (ms = value) };
}

const ESC = '\x1b';

describe('progressListener on a terminal', () => {
  it('draws the status, the batch with done/total, rate and ETA, warnings above, and leaves the final line', () => {
    const { text, stream } = fakeStream(true);
    const time = clock();
    const listen = progressListener(stream, undefined, { now: time.now });
    listen({ type: 'phase', phase: 'loading', detail: 'model dummy' });
    listen({ type: 'phase', phase: 'requests' });
    listen({
      type: 'request-batch-start',
      requestType: 'loglikelihood',
      total: 224,
      unique: 112,
      tasks: ['arc_easy'],
    });
    time.at(2000);
    listen({ type: 'request-progress', requestType: 'loglikelihood', done: 56, total: 112 });
    listen.tick();
    const running = text();
    // 56 of 112 in 2 s: 28 req/s, 56 left take 2 s; 99 usable columns give the bar its 30.
    expect(running).toContain(
      `loglikelihood (arc_easy):  50%|${'█'.repeat(15)}${' '.repeat(15)}| 56/112 [00:02<00:02, 28.00 req/s]`,
    );
    expect(running).toContain('assay: running requests [00:02]');
    expect(running).toContain(ESC);
    listen({ type: 'warning', message: 'a doc was odd' });
    expect(text()).toContain('assay: warning: a doc was odd\n');
    time.at(4000);
    listen({ type: 'request-batch-end', requestType: 'loglikelihood', total: 112, seconds: 4 });
    listen({ type: 'run-end', seconds: 4 });
    const final = `loglikelihood (arc_easy): 100%|${'█'.repeat(30)}| 112/112 [00:04, 28.00 req/s]\n`;
    expect(text()).toContain(final);
    // The finished bar is not drawn again, and the run's end clears what is drawn (ESC [0J, clear below).
    const after = text().slice(text().lastIndexOf(final) + final.length);
    expect(after).not.toContain('112/112');
    expect(text().endsWith(`${ESC}[0J`)).toBe(true);
  });

  it('an operation shorter than a second leaves no line; a longer one leaves its last', () => {
    const { text, stream } = fakeStream(true);
    const time = clock();
    const listen = progressListener(stream, undefined, { now: time.now });
    listen({
      type: 'operation-start',
      id: 'a',
      label: 'download org/a x.parquet',
      unit: 'bytes',
      total: 1000,
    });
    time.at(500);
    listen({ type: 'operation-end', id: 'a', done: 1000, seconds: 0.5 });
    listen({
      type: 'operation-start',
      id: 'b',
      label: 'humaneval: programs run',
      unit: 'programs',
      total: 164,
    });
    time.at(2500);
    listen({ type: 'operation-progress', id: 'b', done: 164 });
    listen({ type: 'operation-end', id: 'b', done: 164, seconds: 2 });
    listen.stop();
    expect(text()).not.toContain('download org/a x.parquet: 100%');
    expect(text()).toContain(
      `humaneval: programs run: 100%|${'█'.repeat(30)}| 164/164 [00:02, 82.00 prog/s]\n`,
    );
  });

  it('--quiet / --verbosity WARNING: nothing drawn, warnings still print', () => {
    const { writes, stream } = fakeStream(true);
    const listen = progressListener(stream, { progress: false, warnings: true });
    listen({ type: 'phase', phase: 'requests' });
    listen({ type: 'request-batch-start', requestType: 'generate_until', total: 2, unique: 2 });
    listen({ type: 'request-progress', requestType: 'generate_until', done: 1, total: 2 });
    listen({ type: 'request-batch-end', requestType: 'generate_until', total: 2, seconds: 1 });
    listen({ type: 'warning', message: 'partial run' });
    listen.stop();
    expect(writes).toEqual(['assay: warning: partial run\n']);
  });
});

describe('progressListener on a pipe or log', () => {
  it('prints plain lines: nothing in the first 10 s, then each tenth at most every 10 s, at least every 30 s', () => {
    const { writes, text, stream } = fakeStream(false);
    const time = clock();
    const listen = progressListener(stream, undefined, { now: time.now, checkEveryMs: 3_600_000 });
    const progress = (at: number, done: number) => {
      time.at(at);
      listen({ type: 'operation-progress', id: 'dl', done });
    };
    listen({
      type: 'operation-start',
      id: 'dl',
      label: 'download org/data test.parquet',
      unit: 'bytes',
      total: 4_000_000,
    });
    progress(5_000, 1_000_000); // 25%, but within the first 10 s
    expect(writes).toEqual([]);
    progress(12_000, 1_500_000); // 37%: a new tenth after 10 s
    progress(15_000, 2_500_000); // 62%: a new tenth, but 3 s after the last line
    progress(23_000, 2_600_000); // 65%: 11 s after the last line, past the tenth it showed
    time.at(53_000);
    listen.tick(); // no event for 30 s: the heartbeat line
    time.at(60_000);
    listen({ type: 'operation-end', id: 'dl', done: 4_000_000, seconds: 60 });
    expect(writes).toEqual([
      // 1.5 MB in 12 s: 125 kB/s; 2.5 MB left take 20 s.
      'assay: download org/data test.parquet: 1.5 MB/4.0 MB (37%) [00:12<00:20, 125 kB/s]\n',
      'assay: download org/data test.parquet: 2.6 MB/4.0 MB (65%) [00:23<00:12, 113 kB/s]\n',
      'assay: download org/data test.parquet: 2.6 MB/4.0 MB (65%) [00:53<00:28, 49.1 kB/s]\n',
      'assay: download org/data test.parquet: 4.0 MB/4.0 MB (100%) [01:00, 66.7 kB/s]\n',
    ]);
    expect(text()).not.toContain(ESC);
  });

  it('a request batch always gets its closing line; other short work and phases without detail print nothing', () => {
    const { writes, stream } = fakeStream(false);
    const time = clock();
    const listen = progressListener(stream, undefined, { now: time.now, checkEveryMs: 3_600_000 });
    const events: RunEvent[] = [
      { type: 'run-start', tasks: ['arc_easy', 'hellaswag'] },
      { type: 'phase', phase: 'building' },
      {
        type: 'operation-start',
        id: 'p',
        label: 'arc_easy: process_docs (utils.process_docs) over 10 docs of test',
        unit: 'docs',
      },
      { type: 'operation-end', id: 'p', done: 0, seconds: 0.2 },
      { type: 'phase', phase: 'requests' },
      {
        type: 'request-batch-start',
        requestType: 'loglikelihood',
        total: 80,
        unique: 80,
        tasks: ['arc_easy', 'hellaswag'],
      },
      { type: 'request-progress', requestType: 'loglikelihood', done: 40, total: 80 },
    ];
    for (const event of events) listen(event);
    time.at(2_000);
    listen({ type: 'request-batch-end', requestType: 'loglikelihood', total: 80, seconds: 2 });
    listen({ type: 'run-end', seconds: 2 });
    expect(writes).toEqual([
      'assay: loglikelihood (arc_easy, hellaswag): 80/80 (100%) [00:02, 40.00 req/s]\n',
    ]);
  });

  it('a phase that says what it waits for prints after 10 s, then every 30 s', () => {
    const { writes, stream } = fakeStream(false);
    const time = clock();
    const listen = progressListener(stream, undefined, { now: time.now, checkEveryMs: 3_600_000 });
    const waiting = (seconds: number) => {
      time.at(seconds * 1000);
      listen({
        type: 'phase',
        phase: 'loading',
        detail: `starting vllm m on http://127.0.0.1:1: ${seconds} s of at most 600 s`,
      });
    };
    for (const seconds of [1, 5, 9, 11, 20, 40, 41, 42]) waiting(seconds);
    listen({ type: 'phase', phase: 'requests' });
    time.at(90_000);
    listen.tick();
    expect(writes).toEqual([
      'assay: loading: starting vllm m on http://127.0.0.1:1: 11 s of at most 600 s\n',
      'assay: loading: starting vllm m on http://127.0.0.1:1: 41 s of at most 600 s\n',
    ]);
  });

  it('ignores events it does not know, so other listeners’ events can share the stream', () => {
    const { writes, stream } = fakeStream(false);
    const listen = progressListener(stream);
    listen({ type: 'some-future-event', note: 'x' } as unknown as RunEvent);
    listen.line('assay: 3 generations were cut inside their thinking');
    listen.stop();
    expect(writes).toEqual(['assay: 3 generations were cut inside their thinking\n']);
  });
});
