import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { writeAlwaysATask } from '../../test/support/suite-fixtures.js';
import { AssayError } from '../errors.js';
import type {
  GenerateCallOptions,
  LoglikelihoodCallOptions,
  LoglikelihoodResult,
} from '../models/backend.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { registerBackend, unregisterBackend } from '../models/registry.js';
import { loadRun } from '../results/read-run.js';
import { parseSuiteCellRecord } from '../results/suite-cell-record.js';
import { runSuite } from './run-suite.js';
import type { SuiteEvent } from './suite-events.js';
import { buildSuiteSummary } from './summarize/summarize-suite.js';

/** Every backend this test creates, and the requests (generate and loglikelihood) each received. */
const created: Array<{ seed: number; sent: number }> = [];

class CountingDummy extends DummyBackend {
  constructor(private readonly record: { seed: number; sent: number }) {
    super({ seed: record.seed });
  }
  override async generate(options: GenerateCallOptions): Promise<string[]> {
    this.record.sent += options.requests.length;
    return super.generate(options);
  }
  override async loglikelihood(options: LoglikelihoodCallOptions): Promise<LoglikelihoodResult[]> {
    this.record.sent += options.requests.length;
    return super.loglikelihood(options);
  }
}

registerBackend('suite-counting', {
  create: (args) => {
    const record = { seed: Number(args.seed ?? 0), sent: 0 };
    created.push(record);
    return new CountingDummy(record);
  },
});
let brokenStarts = 0;
registerBackend('suite-broken', {
  create: () => {
    brokenStarts++;
    throw new AssayError('backend_error', 'the server did not start');
  },
});
afterAll(() => {
  unregisterBackend('suite-counting');
  unregisterBackend('suite-broken');
});

const writeTask = writeAlwaysATask;

function suite(dir: string, bootstrapIters = 100): string {
  const file = path.join(dir, 'suite.yaml');
  writeFileSync(
    file,
    `version: v1
settings: { bootstrap_iters: ${bootstrapIters}, gen_kwargs: { max_gen_toks: 3 } }
models:
  - { name: m1, model: suite-counting, model_args: { seed: 1 } }
  - { name: m2, model: suite-counting, model_args: { seed: 2 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
  - { name: beta, task: beta.jsonl }
  - { name: gamma, task: gamma.jsonl }
`,
  );
  return file;
}

describe('suite run', () => {
  const dir = tempDir('assay-suite-run-');
  writeTask(dir, 'alpha', 6);
  writeTask(dir, 'beta', 5);
  writeTask(dir, 'gamma', 4);
  const suitesDirectory = path.join(dir, 'suites');

  it("runs every cell as assay run writes it, starting each model's backend once for its task sets", async () => {
    const events: SuiteEvent[] = [];
    const result = await runSuite({
      suiteFile: suite(dir),
      suiteName: 's',
      suitesDirectory,
      listener: (event) => events.push(event),
    });
    expect(result.cells.map((cell) => [cell.model, cell.taskSet, cell.status])).toEqual([
      ['m1', 'alpha', 'done'],
      ['m1', 'beta', 'done'],
      ['m1', 'gamma', 'done'],
      ['m2', 'alpha', 'done'],
      ['m2', 'beta', 'done'],
      ['m2', 'gamma', 'done'],
    ]);
    // One backend per model for its three task sets, each sent exactly its docs.
    expect(result.backendsStarted).toEqual({ m1: 1, m2: 1 });
    expect(created).toEqual([
      { seed: 1, sent: 15 },
      { seed: 2, sent: 15 },
    ]);
    // The cell's folder is an `assay run --output_path`: the results reader finds the run and its samples.
    const run = loadRun(path.join(suitesDirectory, 's', 'm2', 'beta'));
    expect(run.results.config.model).toBe('suite-counting');
    expect(run.results.config.model_args).toEqual({ seed: 2 });
    expect(run.results['n-samples'].beta).toEqual({ original: 5, effective: 5 });
    expect([...run.sampleFiles.keys()]).toEqual(['beta']);
    const record = parseSuiteCellRecord(
      readFileSync(path.join(suitesDirectory, 's', 'm2', 'beta', 'cell.json'), 'utf8'),
    );
    expect(record).toMatchObject({
      status: 'done',
      suite_version: 'v1',
      model: 'm2',
      task_set: 'beta',
      errored_samples: 0,
    });
    expect(
      events
        .filter((event) => event.type === 'cell-end')
        .map((event) => (event as { position: number }).position),
    ).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('skips cells that finished with identical settings, and sends nothing for them', async () => {
    created.length = 0;
    const result = await runSuite({ suiteFile: suite(dir), suiteName: 's', suitesDirectory });
    expect(result.cells.every((cell) => cell.status === 'skipped')).toBe(true);
    expect(created).toEqual([]);
  });

  it('reruns a cell whose record is gone (a run killed before it finished) from the response cache', async () => {
    created.length = 0;
    rmSync(path.join(suitesDirectory, 's', 'm1', 'beta', 'cell.json'));
    const result = await runSuite({ suiteFile: suite(dir), suiteName: 's', suitesDirectory });
    expect(
      result.cells.filter((cell) => cell.status === 'done').map((cell) => `${cell.model}/${cell.taskSet}`),
    ).toEqual(['m1/beta']);
    // Its backend started, but every answer came from the model's cache: no request re-sent.
    expect(created).toEqual([{ seed: 1, sent: 0 }]);
  });

  it('reruns every cell when a setting changes, and narrows to --models-to-run / --tasks-to-run', async () => {
    created.length = 0;
    const result = await runSuite({
      suiteFile: suite(dir, 50),
      suiteName: 's',
      suitesDirectory,
      modelsToRun: ['m2'],
      tasksToRun: ['alpha', 'gamma'],
    });
    expect(result.cells.map((cell) => `${cell.model}/${cell.taskSet}:${cell.status}`)).toEqual([
      'm2/alpha:done',
      'm2/gamma:done',
    ]);
    // Same requests as before: all from the cache.
    expect(created).toEqual([{ seed: 2, sent: 0 }]);
    await expect(
      runSuite({ suiteFile: suite(dir), suiteName: 's', suitesDirectory, modelsToRun: ['m3'] }),
    ).rejects.toThrow('`modelsToRun`: the suite has no model "m3"; did you mean "m1"? (its models: m1, m2)');
  });
});

describe('a suite with a model that fails', () => {
  it('records its cells as failed, runs the others, marks them in the summary, and retries them next time', async () => {
    const dir = tempDir('assay-suite-broken-');
    writeTask(dir, 'alpha', 4);
    writeTask(dir, 'beta', 3);
    const file = path.join(dir, 'suite.yaml');
    writeFileSync(
      file,
      `version: 1
models:
  - { name: broken, model: suite-broken }
  - { name: fine, model: suite-counting, model_args: { seed: 9 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
  - { name: beta, task: beta.jsonl }
`,
    );
    const suitesDirectory = path.join(dir, 'suites');
    const events: SuiteEvent[] = [];
    const result = await runSuite({
      suiteFile: file,
      suiteName: 'b',
      suitesDirectory,
      listener: (event) => events.push(event),
    });
    expect(result.cells.map((cell) => `${cell.model}/${cell.taskSet}:${cell.status}`)).toEqual([
      'broken/alpha:failed',
      'broken/beta:failed',
      'fine/alpha:done',
      'fine/beta:done',
    ]);
    expect(result.cells[0].error).toBe('the server did not start');
    // The pool tried once per cell (a backend that failed to start is not kept).
    expect(brokenStarts).toBe(2);
    expect(events.at(-1)).toMatchObject({ type: 'suite-end', ran: 2, skipped: 0, failed: 2 });
    const summary = buildSuiteSummary({ name: 'b', suitesDirectory, bootstrapIterations: 200 });
    expect(
      summary.cells.map((cell) => [cell.model, cell.task, cell.status, cell.value === null, cell.reason]),
    ).toEqual([
      ['broken', 'alpha', 'failed', true, 'the server did not start'],
      ['fine', 'alpha', 'ok', false, null],
      ['broken', 'beta', 'failed', true, 'the server did not start'],
      ['fine', 'beta', 'ok', false, null],
    ]);
    expect(summary.models.map((model) => [model.name, model.cells_done, model.cells_failed])).toEqual([
      ['broken', 0, 2],
      ['fine', 2, 0],
    ]);
    const again = await runSuite({ suiteFile: file, suiteName: 'b', suitesDirectory });
    expect(again.cells.map((cell) => `${cell.model}/${cell.taskSet}:${cell.status}`)).toEqual([
      'broken/alpha:failed',
      'broken/beta:failed',
      'fine/alpha:skipped',
      'fine/beta:skipped',
    ]);
    expect(brokenStarts).toBe(4);
  });
});

describe('a rerun skips a cell only when its tasks are the content its run recorded', () => {
  const dir = tempDir('assay-suite-content-');
  writeTask(dir, 'alpha', 4);
  const rows = (labels: number[]) =>
    `${labels.map((label, i) => JSON.stringify({ context: `Story ${i} goes`, endings: [' on.', ' off.'], label })).join('\n')}\n`;
  writeFileSync(path.join(dir, 'cloze.jsonl'), rows([0, 1, 0]));
  const clozeYaml = (text: string) => `task: cloze
dataset_path: json
dataset_kwargs:
  data_files:
    test: cloze.jsonl
test_split: test
output_type: multiple_choice
doc_to_text: "${text}"
doc_to_choice: "{{endings}}"
doc_to_target: label
metric_list:
  - metric: acc
`;
  writeFileSync(path.join(dir, 'cloze.yaml'), clozeYaml('{{context}}'));
  const file = path.join(dir, 'suite.yaml');
  writeFileSync(
    file,
    `version: v1
settings: { bootstrap_iters: 0, gen_kwargs: { max_gen_toks: 3 } }
models:
  - { name: m1, model: suite-counting, model_args: { seed: 1 } }
  - { name: m2, model: suite-counting, model_args: { seed: 2 } }
tasks:
  - { name: alpha, task: alpha.jsonl }
  - { name: cloze, task: cloze.yaml }
`,
  );
  const suitesDirectory = path.join(dir, 'suites');
  const rerun = async () => {
    created.length = 0;
    const events: SuiteEvent[] = [];
    const result = await runSuite({
      suiteFile: file,
      suiteName: 'c',
      suitesDirectory,
      listener: (event) => events.push(event),
    });
    return {
      statuses: result.cells.map((cell) => `${cell.model}/${cell.taskSet}:${cell.status}`),
      changed: events.flatMap((event) =>
        event.type === 'cell-changed' ? [`${event.model}/${event.taskSet}: ${event.reasons.join('; ')}`] : [],
      ),
      sent: created.map((record) => record.sent),
    };
  };

  it('runs everything once, then skips everything while nothing changed (a rewrite with the same bytes included)', async () => {
    const first = await rerun();
    expect(first.statuses).toEqual(['m1/alpha:done', 'm1/cloze:done', 'm2/alpha:done', 'm2/cloze:done']);
    // 4 generations and 3 docs × 2 choices of loglikelihood per model.
    expect(first.sent).toEqual([10, 10]);
    // Same bytes, new mtime: content, not file times, decides.
    writeFileSync(path.join(dir, 'cloze.jsonl'), rows([0, 1, 0]));
    writeFileSync(path.join(dir, 'alpha.jsonl'), readFileSync(path.join(dir, 'alpha.jsonl')));
    const second = await rerun();
    expect(second).toEqual({
      statuses: ['m1/alpha:skipped', 'm1/cloze:skipped', 'm2/alpha:skipped', 'm2/cloze:skipped'],
      changed: [],
      sent: [],
    });
  });

  it('reruns the cells of a task file edited with the same settings, re-sending only the edited doc', async () => {
    const lines = readFileSync(path.join(dir, 'alpha.jsonl'), 'utf8').split('\n');
    lines[2] = lines[2].replace('alpha 2?', 'alpha two?');
    writeFileSync(path.join(dir, 'alpha.jsonl'), lines.join('\n'));
    const result = await rerun();
    expect(result.statuses).toEqual([
      'm1/alpha:done',
      'm1/cloze:skipped',
      'm2/alpha:done',
      'm2/cloze:skipped',
    ]);
    expect(result.changed).toHaveLength(2);
    expect(result.changed[0]).toMatch(
      /^m1\/alpha: task alpha: its config changed \(sha256 [0-9a-f]{12} → [0-9a-f]{12}, .*alpha\.jsonl\)$/,
    );
    // The three unchanged docs come from each model's response cache; the edited one is new.
    expect(result.sent).toEqual([1, 1]);
  });

  it("reruns a task's cells when a data file it reads changes, and when its YAML changes", async () => {
    writeFileSync(path.join(dir, 'cloze.jsonl'), rows([0, 1, 1]));
    const data = await rerun();
    expect(data.statuses).toEqual(['m1/alpha:skipped', 'm1/cloze:done', 'm2/alpha:skipped', 'm2/cloze:done']);
    expect(data.changed).toEqual([
      'm1/cloze: task cloze: data of split test: cloze.jsonl changed',
      'm2/cloze: task cloze: data of split test: cloze.jsonl changed',
    ]);
    // A changed label changes no request: every answer comes from the cache.
    expect(data.sent).toEqual([0, 0]);
    // The cell's new run read the new data: doc 2's gold is now ending 1.
    const run = loadRun(path.join(suitesDirectory, 'c', 'm1', 'cloze'));
    const samples = readFileSync(run.sampleFiles.get('cloze') as string, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { doc_id: number; target: string });
    expect(samples.map((line) => [line.doc_id, line.target])).toEqual([
      [0, '0'],
      [1, '1'],
      [2, '1'],
    ]);

    writeFileSync(path.join(dir, 'cloze.yaml'), clozeYaml('Story: {{context}}'));
    const config = await rerun();
    expect(config.statuses).toEqual([
      'm1/alpha:skipped',
      'm1/cloze:done',
      'm2/alpha:skipped',
      'm2/cloze:done',
    ]);
    expect(config.changed.map((line) => line.replace(/\(sha256 .*\)$/, ''))).toEqual([
      'm1/cloze: task cloze: its config changed ',
      'm2/cloze: task cloze: its config changed ',
    ]);
    // New prompts: 3 docs × 2 choices re-sent per model.
    expect(config.sent).toEqual([6, 6]);
    expect((await rerun()).sent).toEqual([]);
  });

  it('names the settings that changed when a cell reruns for them', async () => {
    writeFileSync(file, readFileSync(file, 'utf8').replace('bootstrap_iters: 0', 'bootstrap_iters: 10'));
    const result = await rerun();
    expect(result.changed).toEqual([
      'm1/alpha: its settings changed (bootstrap_iters)',
      'm1/cloze: its settings changed (bootstrap_iters)',
      'm2/alpha: its settings changed (bootstrap_iters)',
      'm2/cloze: its settings changed (bootstrap_iters)',
    ]);
  });
});
