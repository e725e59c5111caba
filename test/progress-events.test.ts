/**
 * The progress the library reports, as a listener receives it: the run's loading phases, a batch's tasks,
 * the sandboxed programs done of all, and a merge's tasks. (Downloads, process_docs and MLflow uploads
 * are tested beside their code: src/data/hub/dataset.test.ts, src/tasks/task-docs.test.ts,
 * src/export/mlflow.test.ts.)
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../src/events.js';
import { mergeShards } from '../src/report/merge/merge-shards.js';
import { evaluate } from '../src/run/evaluate.js';
import { probeSandbox } from '../src/sandbox/bubblewrap.js';
import { sandboxOptions } from '../src/sandbox/sandbox.js';
import { repoRoot, tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const bubblewrap = requireComponent('bubblewrap', probeSandbox(sandboxOptions()).available);
const medqa = path.join(repoRoot, 'examples', 'tasks', 'medqa', 'medqa_mini.yaml');

function recorder() {
  const events: RunEvent[] = [];
  return { events, listener: (event: RunEvent) => void events.push(event) };
}

describe('progress events', () => {
  it('a run says what it loads, then which tasks a request batch serves', async () => {
    const { events, listener } = recorder();
    await evaluate({ model: 'dummy', tasks: [medqa], listener });
    const phases = events.filter((event) => event.type === 'phase');
    expect(phases.slice(0, 2)).toEqual([
      { type: 'phase', phase: 'loading', detail: 'tasks' },
      { type: 'phase', phase: 'loading', detail: 'model dummy' },
    ]);
    expect(events.find((event) => event.type === 'request-batch-start')).toEqual({
      type: 'request-batch-start',
      requestType: 'loglikelihood',
      total: 32,
      unique: 32,
      tasks: ['medqa_mini'],
    });
  });

  it.skipIf(!bubblewrap)('sandboxed programs: done of all, as each doc’s programs finish', async () => {
    const { events, listener } = recorder();
    const example = path.join(repoRoot, 'examples', 'tasks', 'code-exec.jsonl');
    const run = await evaluate({ model: 'dummy', tasks: [example], confirmRunUnsafeCode: true, listener });
    // The programs that ran: one execution record each in the sample log.
    const ran = run.samples['code-exec'].reduce(
      (sum, line) => sum + ((line.execution as unknown[] | undefined)?.length ?? 0),
      0,
    );
    expect(ran).toBeGreaterThan(0);
    const operations = events.filter((event) => event.type.startsWith('operation-'));
    expect(operations[0]).toEqual({
      type: 'operation-start',
      id: 'programs:code-exec',
      label: 'code-exec: programs run',
      unit: 'programs',
      total: ran,
    });
    const done = operations
      .filter((event) => event.type === 'operation-progress')
      .map((event) => (event as { done: number }).done);
    // Counts rising, as each doc's programs finish, to all of them; then the end with that count.
    expect(done.length).toBeGreaterThan(1);
    expect(done.every((count, index) => index === 0 || count > done[index - 1])).toBe(true);
    expect(done.at(-1)).toBe(ran);
    expect(operations.at(-1)).toMatchObject({ type: 'operation-end', id: 'programs:code-exec', done: ran });
  });

  it('a merge reports its tasks re-aggregated, then writing', async () => {
    const out = tempDir();
    for (const index of [0, 1]) {
      await evaluate({
        model: 'dummy',
        tasks: [medqa],
        shard: { index, count: 2 },
        outputPath: path.join(out, `shard${index}`),
        logSamples: true,
      });
    }
    const { events, listener } = recorder();
    await mergeShards({
      shards: [path.join(out, 'shard0'), path.join(out, 'shard1')],
      outputPath: path.join(out, 'merged'),
      listener,
    });
    expect(events.map(({ type }) => type)).toEqual([
      'operation-start',
      'operation-progress',
      'operation-end',
      'phase',
    ]);
    expect(events[0]).toEqual({
      type: 'operation-start',
      id: 'merge',
      label: 'merge 2 shards',
      unit: 'tasks',
      total: 1,
    });
    expect(events[1]).toEqual({ type: 'operation-progress', id: 'merge', done: 1 });
    expect(events[3]).toEqual({ type: 'phase', phase: 'writing' });
  });
});
