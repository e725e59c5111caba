/**
 * The README's "Suites" section as a user runs it: examples/suite/suite.yaml (the demo model greedy and with
 * seeded sampling, the dummy model, the demo model behind `assay serve`; six example tasks) validated, run,
 * rerun (every cell skipped), summarized, and diffed against a second version that changes one model. Kept cheap: the copy of the
 * suite file takes `limit: 4` and the port `assay serve --port 0` picked; its tasks are the examples'
 * own (a `tasks` link beside it, as `../tasks` is beside examples/suite). The kill -9 resume is
 * test/suite.e2e.test.ts's.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSuiteSummary } from '../src/results/read-suite-summary.js';
import { readSuiteManifest } from '../src/results/suite-manifest.js';
import { runCli, startCli } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';

/** Replaces `from` in `text`, failing when it is not there (the example changed: update this test). */
function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe('the example suite of the README', () => {
  const served = startCli(['serve', '--port', '0', '--served_model_name', 'demo']);
  afterAll(async () => {
    served.child.kill('SIGTERM');
    await served.done;
  });

  it('validates, runs 4 models × 6 tasks, skips them all on a rerun, summarizes and diffs', async () => {
    let log = '';
    served.child.stderr?.on('data', (chunk) => (log += chunk));
    while (!/serving "demo" at http:\/\/127\.0\.0\.1:(\d+)\/v1/.test(log))
      await new Promise((resolve) => setTimeout(resolve, 50));
    const port = /127\.0\.0\.1:(\d+)\/v1/.exec(log)?.[1] as string;

    const root = tempDir('assay-suite-example-');
    const folder = path.join(root, 'suite');
    symlinkSync(path.join(repoRoot, 'examples', 'tasks'), path.join(root, 'tasks'));
    const example = readFileSync(path.join(repoRoot, 'examples', 'suite', 'suite.yaml'), 'utf8');
    let text = replaced(
      example,
      'http://127.0.0.1:8123/v1/completions',
      `http://127.0.0.1:${port}/v1/completions`,
    );
    text = replaced(text, '  bootstrap_iters: 200\n', '  bootstrap_iters: 200\n  limit: 4\n');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'suite.yaml'), text);

    const validated = runCli(['suite', 'validate', 'suite/suite.yaml'], { cwd: root });
    expect(validated.status, validated.stderr).toBe(0);
    expect(validated.stdout).toContain(
      'ok  suite suite/suite.yaml (version 2026-12-example): 4 models × 6 task sets = 24 cells',
    );

    const ran = runCli(['suite', 'run', 'suite/suite.yaml', '--suite', 'demo'], { cwd: root });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('suite: 24 cells, 24 to run, 0 skipped');
    expect(ran.stderr).toContain('suite: 24 cells run, 0 skipped, 0 failed');
    const rerun = runCli(['suite', 'run', 'suite/suite.yaml', '--suite', 'demo'], { cwd: root });
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('suite: 24 cells, 0 to run, 24 skipped');
    const manifest = readSuiteManifest(path.join(root, 'suites', 'demo', 'suite_manifest.json'));
    expect(manifest.cells.filter((cell) => cell.status === 'done')).toHaveLength(24);

    const summarized = runCli(['suite', 'summarize', 'demo', '--quiet'], { cwd: root });
    expect(summarized.status, summarized.stderr).toBe(0);
    const summary = readSuiteSummary(path.join(root, 'suites', 'demo', 'summary.json'));
    expect(summary.models.map((model) => [model.name, model.model, model.cells_done])).toEqual([
      ['demo-greedy', 'gguf', 6],
      ['demo-sampled', 'gguf', 6],
      ['dummy', 'dummy', 6],
      ['demo-served', 'local-completions', 6],
    ]);
    // Every cell is 4 docs of its task (partial: the limit).
    expect(new Set(summary.cells.map((cell) => `${cell.status}/${cell.n}`))).toEqual(new Set(['partial/4']));
    const value = (model: string, task: string) =>
      summary.cells.find((cell) => cell.model === model && cell.task === task)?.value;
    for (const task of ['story_cloze_mini', 'medqa_mini']) {
      // Sampling touches generation only, and the served demo model scores as the in-process one
      // (docs/serve.md): the three demo models agree on the loglikelihood tasks.
      expect(value('demo-sampled', task), task).toBe(value('demo-greedy', task));
      expect(value('demo-served', task), task).toBe(value('demo-greedy', task));
    }
    const choice = summary.groups.find((group) => group.group === 'choice');
    expect(choice?.metric).toBe('acc');
    expect(choice?.models.every((model) => model.macro_average !== null)).toBe(true);
    const generation = summary.groups.find((group) => group.group === 'generation');
    expect(generation?.metric).toBeNull();
    expect(generation?.macro_average_reason).toContain('different metrics');
    // HELM's mean win rate of four models averages 1/2 in a group whose tasks every model ran.
    const rates = (generation?.models ?? []).map((model) => model.mean_win_rate as number);
    expect(rates.reduce((sum, rate) => sum + rate, 0) / 4).toBeCloseTo(0.5, 12);

    // A second version, demo_v2, from a copy of demo's folder: the dummy model's seed changed, so only its
    // six cells run again, and the diff names them.
    cpSync(path.join(root, 'suites', 'demo'), path.join(root, 'suites', 'demo_v2'), { recursive: true });
    writeFileSync(
      path.join(folder, 'suite.yaml'),
      replaced(text, 'model_args: { seed: 7 }', 'model_args: { seed: 8 }'),
    );
    const second = runCli(['suite', 'run', 'suite/suite.yaml', '--suite', 'demo_v2'], { cwd: root });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain('suite: 24 cells, 6 to run, 18 skipped');
    expect(second.stderr).toContain('rerunning dummy × arithmetic: its settings changed (model_args)');
    const diff = runCli(['suite', 'diff', 'demo', 'demo_v2', '--format', 'json'], { cwd: root });
    expect(diff.status, diff.stderr).toBe(0);
    const parsed = JSON.parse(diff.stdout) as {
      models: { added: string[]; removed: string[] };
      settings_changed: Array<{ model: string; task_set: string }>;
      scores: Array<{ model: string; method: string; shared_n: number; difference: number; moved: boolean }>;
    };
    expect(parsed.models).toEqual({ added: [], removed: [] });
    expect(parsed.settings_changed).toEqual(
      ['arithmetic', 'multiple-choice', 'generation', 'summary', 'story-cloze', 'medqa'].map((task_set) => ({
        model: 'dummy',
        task_set,
      })),
    );
    // Every score is paired on its 4 docs; the other models' cells are the same runs: a difference of 0.
    expect(parsed.scores).toHaveLength(24);
    expect(parsed.scores.every((score) => score.method === 'paired' && score.shared_n === 4)).toBe(true);
    expect(
      parsed.scores.filter((score) => score.model !== 'dummy' && (score.difference !== 0 || score.moved)),
    ).toEqual([]);
    const textDiff = runCli(['suite', 'diff', 'demo', 'demo_v2'], { cwd: root });
    expect(textDiff.stdout).toContain(
      'settings changed: dummy × arithmetic, multiple-choice, generation, summary, story-cloze, medqa\n',
    );
  }, 300_000);
});
