import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../../test/support/helpers.js';
import { writeAlwaysATask } from '../../../test/support/suite-fixtures.js';
import type { GenerateCallOptions } from '../../models/backend.js';
import { DummyBackend } from '../../models/dummy/dummy-backend.js';
import { registerBackend, unregisterBackend } from '../../models/registry.js';
import { loadRun } from '../../results/read-run.js';
import { readSuiteManifest } from '../../results/suite-manifest.js';
import { runSuite } from '../run-suite.js';
import { summarizeSuite } from '../summarize/summarize-suite.js';
import { diffSuites } from './diff-suites.js';
import { renderSuiteDiff } from './diff-text.js';

/** Answers doc i of a task right (A) when i < `right`, wrong (B) otherwise: its accuracy is right / n. */
class OracleBackend extends DummyBackend {
  constructor(private readonly right: number) {
    super({ seed: 0 });
  }
  override async generate({ requests, onProgress }: GenerateCallOptions): Promise<string[]> {
    onProgress?.(requests.length);
    return requests.map((request) => {
      const index = Number(/ (\d+)\?/.exec(request.context)?.[1]);
      return index < this.right ? 'A' : 'B';
    });
  }
}

beforeAll(() => registerBackend('diff-oracle', { create: (args) => new OracleBackend(Number(args.right)) }));
afterAll(() => unregisterBackend('diff-oracle'));

const writeTask = writeAlwaysATask;

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('suite manifest and suite diff', () => {
  const dir = tempDir('assay-suite-diff-');
  for (const name of ['t1', 't2', 't3']) writeTask(dir, name, 40);
  const suitesDirectory = path.join(dir, 'suites');
  const write = (file: string, text: string) => {
    writeFileSync(path.join(dir, file), text);
    return path.join(dir, file);
  };
  // v1: m1 right on 30 of 40, steady on 20; v2: m1 right on all 40, steady unchanged, m3 new, m2 gone;
  // t2 gone, t3 new.
  const v1 = write(
    'v1.yaml',
    `version: v1
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: diff-oracle, model_args: { right: 30 } }
  - { name: m2, model: diff-oracle, model_args: { right: 10 } }
  - { name: steady, model: diff-oracle, model_args: { right: 20 } }
tasks:
  - { name: t1, task: t1.jsonl }
  - { name: t2, task: t2.jsonl }
`,
  );
  const v2 = write(
    'v2.yaml',
    `version: v2
settings: { gen_kwargs: { max_gen_toks: 2 } }
models:
  - { name: m1, model: diff-oracle, model_args: { right: 40 } }
  - { name: steady, model: diff-oracle, model_args: { right: 20 } }
  - { name: m3, model: diff-oracle, model_args: { right: 5 } }
tasks:
  - { name: t1, task: t1.jsonl }
  - { name: t3, task: t3.jsonl }
`,
  );

  it('writes suite_manifest.json: the suite file, every cell with its results file and task hashes, assay version', async () => {
    const result = await runSuite({ suiteFile: v1, suiteName: 'v1', suitesDirectory, tasksToRun: ['t1'] });
    const manifest = readSuiteManifest(result.manifestFile);
    const version = (
      JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(manifest).toMatchObject({
      schema: 'assay.suite-manifest/v1',
      suite: 'v1',
      version: 'v1',
      suite_file: v1,
      suite_sha256: sha256(v1),
      assay: { version },
      models: [
        { name: 'm1', model: 'diff-oracle' },
        { name: 'm2', model: 'diff-oracle' },
        { name: 'steady', model: 'diff-oracle' },
      ],
      task_sets: { t1: ['t1'], t2: ['t2'] },
    });
    // t2 was not run: its cells are missing, with nothing recorded.
    expect(manifest.cells.map((cell) => `${cell.model}/${cell.task_set}:${cell.status}`)).toEqual([
      'm1/t1:done',
      'm1/t2:missing',
      'm2/t1:done',
      'm2/t2:missing',
      'steady/t1:done',
      'steady/t2:missing',
    ]);
    const cell = manifest.cells[0];
    const resultsFile = path.join(suitesDirectory, 'v1', cell.results_file as string);
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    const cellRecord = JSON.parse(
      readFileSync(path.join(suitesDirectory, 'v1', 'm1', 't1', 'cell.json'), 'utf8'),
    );
    expect(cell).toEqual({
      model: 'm1',
      task_set: 't1',
      status: 'done',
      settings_hash: cellRecord.settings_hash,
      results_file: path.relative(path.join(suitesDirectory, 'v1'), resultsFile),
      results_sha256: sha256(resultsFile),
      assay_version: version,
      tasks: {
        t1: {
          sha256: results.manifest.tasks.t1.sha256,
          config_sha256: results.manifest.tasks.t1.config_sha256,
          prompt_template_sha256: results.manifest.tasks.t1.prompt_template_sha256,
          samples_sha256: results.task_hashes.t1,
        },
      },
    });
    // A JSONL task is its file: its content hash is the file's.
    expect(cell.tasks.t1.config_sha256).toBe(
      createHash('sha256')
        .update(Buffer.from(sha256(path.join(dir, 't1.jsonl')), 'hex'))
        .digest('hex'),
    );
    expect(manifest.cells[1]).toEqual({
      model: 'm1',
      task_set: 't2',
      status: 'missing',
      settings_hash: null,
      results_file: null,
      results_sha256: null,
      assay_version: null,
      tasks: {},
    });
    // Summarize writes it too, now with the cells run since.
    await runSuite({ suiteFile: v1, suiteName: 'v1', suitesDirectory });
    const summarized = await summarizeSuite({ name: 'v1', suitesDirectory, bootstrapIterations: 200 });
    expect(readSuiteManifest(summarized.files.manifest).cells.every((entry) => entry.status === 'done')).toBe(
      true,
    );
  });

  it('diffs two versions: models and tasks added or removed, settings changed, scores moved (paired, with exact McNemar)', async () => {
    await runSuite({ suiteFile: v2, suiteName: 'v2', suitesDirectory });
    const diff = diffSuites({ before: 'v1', after: 'v2', suitesDirectory });
    expect(diff.before).toMatchObject({ name: 'v1', version: 'v1', suite_sha256: sha256(v1) });
    expect(diff.after).toMatchObject({ name: 'v2', version: 'v2', suite_sha256: sha256(v2) });
    expect(diff.models).toEqual({ added: ['m3'], removed: ['m2'] });
    expect(diff.tasks).toEqual({ added: ['t3'], removed: ['t2'] });
    expect(diff.task_changes).toEqual([]);
    expect(diff.settings_changed).toEqual([{ model: 'm1', task_set: 't1' }]);
    expect(diff.not_compared).toEqual([]);
    expect(diff.scores.map((score) => [score.model, score.task, score.method, score.shared_n])).toEqual([
      ['m1', 't1', 'paired', 40],
      ['steady', 't1', 'paired', 40],
    ]);
    const [m1, steady] = diff.scores;
    expect(m1.before.value).toBe(0.75);
    expect(m1.after.value).toBe(1);
    expect(m1.difference).toBeCloseTo(0.25, 12);
    // 10 docs wrong → right, none right → wrong: McNemar's exact p = 2 · 0.5^10.
    expect(m1.test).toBe('mcnemar');
    expect(m1.p_value).toBeCloseTo(2 * 0.5 ** 10, 12);
    expect(m1.ci?.[0]).toBeGreaterThan(0);
    expect(m1.moved).toBe(true);
    expect(m1.direction).toBe('better');
    // No discordant doc: p = 1, a difference of 0, not moved.
    expect(steady).toMatchObject({ difference: 0, p_value: 1, moved: false, direction: null });
    // Holm over the two paired comparisons: min(1, 2p) for the smaller, then max(that, p) for the larger.
    expect(m1.p_holm).toBeCloseTo(4 * 0.5 ** 10, 12);
    expect(steady.p_holm).toBe(1);
    const text = renderSuiteDiff(diff);
    expect(text).toContain('models added: m3\nmodels removed: m2\ntasks added: t3\ntasks removed: t2\n');
    expect(text).toContain('settings changed: m1 × t1\n');
    expect(text).toContain(
      'scores moved beyond their intervals (after − before, 95%): 1 of 2\n  BETTER m1 × t1 multiple_choice: 0.7500 → 1.0000; paired on 40 shared docs, +0.2500 [',
    );
  });

  it('without sample logs on one side, judges by the runs’ own intervals and says so', () => {
    const m1Run = loadRun(path.join(suitesDirectory, 'v1', 'm1', 't1'));
    const steadyRun = loadRun(path.join(suitesDirectory, 'v1', 'steady', 't1'));
    for (const run of [m1Run, steadyRun]) for (const file of run.sampleFiles.values()) rmSync(file);
    const diff = diffSuites({ before: 'v1', after: 'v2', suitesDirectory });
    const metric = diff.scores[0].metric;
    const ciOf = (location: string) =>
      loadRun(location, { requireSamples: false }).results.results.t1[`${metric}_ci,none`] as [
        number,
        number,
      ];
    const before = ciOf(path.join(suitesDirectory, 'v1', 'm1', 't1'));
    const after = ciOf(path.join(suitesDirectory, 'v2', 'm1', 't1'));
    expect(diff.scores[0]).toMatchObject({
      model: 'm1',
      method: 'intervals',
      shared_n: null,
      difference: 0.25,
      p_value: null,
      before: { value: 0.75, ci: before },
      after: { value: 1, ci: after },
      // 30/40 and 40/40 have intervals that do not overlap.
      moved: after[0] > before[1],
      direction: 'better',
    });
    expect(after[0]).toBeGreaterThan(before[1]);
    expect(diff.scores[1]).toMatchObject({
      model: 'steady',
      method: 'intervals',
      difference: 0,
      moved: false,
    });
    expect(renderSuiteDiff(diff)).toContain('(no paired sample logs)');
  });

  it('names a task whose content changed between the two suites', async () => {
    writeTask(dir, 't1', 41);
    await runSuite({ suiteFile: v2, suiteName: 'v2', suitesDirectory });
    const diff = diffSuites({ before: 'v1', after: 'v2', suitesDirectory });
    expect(diff.task_changes.map((change) => [change.task, change.changed])).toEqual([
      ['t1', ['config', 'content', 'samples']],
    ]);
    // v1's sample logs of t1 are gone (above): judged by intervals, on 40 docs before and 41 after.
    expect(diff.scores[0]).toMatchObject({
      model: 'm1',
      method: 'intervals',
      before: { value: 0.75, n: 40 },
      // m1 answers docs 0–39 right: 40 of 41.
      after: { value: 40 / 41, n: 41 },
    });
  });
});
