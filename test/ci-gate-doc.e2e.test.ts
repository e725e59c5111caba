/**
 * docs/ci-gate.md's GitHub Actions workflow, run as written: its steps build before they run assay, and
 * its evaluate and gate steps, executed by bash with `npx assay` being this checkout's bin/assay.js,
 * pass against a baseline made by the same evaluate step. A checkout without dist/ gets one line, not a
 * stack.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { bin } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  id?: string;
}

function workflowSteps(): Step[] {
  const doc = readFileSync(path.join(repoRoot, 'docs', 'ci-gate.md'), 'utf8');
  const block = /```yaml\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/ci-gate.md has no yaml block');
  const workflow = yaml.load(block[1]) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(workflow.jobs)[0].steps;
}

describe("docs/ci-gate.md's workflow", () => {
  it('installs and builds before it runs assay, and its evaluate and gate steps pass', () => {
    const steps = workflowSteps();
    const runs = steps.map((step) => step.run?.trim());
    const firstAssay = runs.findIndex((run) => run?.includes('npx assay'));
    expect(firstAssay).toBeGreaterThan(0);
    expect(runs.slice(0, firstAssay).filter(Boolean)).toEqual(['npm ci', 'npm run build']);

    // A workspace like the runner's: the checkout's examples, `npx assay` as this checkout's CLI.
    const workspace = tempDir('assay-ci-gate-');
    symlinkSync(path.join(repoRoot, 'examples'), path.join(workspace, 'examples'));
    const shims = path.join(workspace, '.shims');
    mkdirSync(shims);
    writeFileSync(
      path.join(shims, 'npx'),
      `#!/bin/sh\n[ "$1" = assay ] || exit 127\nshift\nexec "${process.execPath}" "${bin}" "$@"\n`,
    );
    chmodSync(path.join(shims, 'npx'), 0o755);
    const githubOutput = path.join(workspace, 'github-output');
    writeFileSync(githubOutput, '');
    const step = (script: string) =>
      spawnSync('bash', ['-e', '-c', script], {
        cwd: workspace,
        env: { ...process.env, PATH: `${shims}:${process.env.PATH}`, GITHUB_OUTPUT: githubOutput },
        encoding: 'utf8',
        timeout: 120_000,
      });

    const evaluate = steps[firstAssay];
    expect(evaluate.name).toBe('Evaluate');
    const evaluated = step(evaluate.run ?? '');
    expect(evaluated.status, evaluated.stderr).toBe(0);
    // The stored baseline: "copy the new run's results_*.json and samples_*.jsonl into eval/baseline/".
    mkdirSync(path.join(workspace, 'eval'));
    cpSync(path.join(workspace, 'out', 'dummy'), path.join(workspace, 'eval', 'baseline'), {
      recursive: true,
    });

    const gate = steps.find((candidate) => candidate.id === 'gate');
    const gated = step(gate?.run ?? '');
    // The run as its own baseline, 40 items: no drop, but 40 items cannot tell a 0.005 drop apart, so the
    // gate is undecided (exit 3), which the step reports as a warning and lets through.
    expect(gated.status, gated.stderr).toBe(0);
    expect(readFileSync(githubOutput, 'utf8')).toBe('code=3\n');
    expect(gated.stdout).toContain('::warning::eval gate undecided, see out/gate.json');
    const report = JSON.parse(readFileSync(path.join(workspace, 'out', 'gate.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'underpowered', exitCode: 3, maxDrop: 0.005 });
    expect(report.tasks.map((task: { task: string; n: number }) => [task.task, task.n])).toEqual([
      ['arithmetic', 40],
    ]);
  });

  it('a checkout without dist/ says to build, in one line and a hint, exit 2', () => {
    const checkout = tempDir('assay-unbuilt-');
    mkdirSync(path.join(checkout, 'bin'));
    copyFileSync(bin, path.join(checkout, 'bin', 'assay.js'));
    copyFileSync(path.join(repoRoot, 'package.json'), path.join(checkout, 'package.json'));
    const result = spawnSync(process.execPath, [path.join(checkout, 'bin', 'assay.js'), 'run'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `assay: error: ${path.join(checkout, 'dist')}/ is not built\nassay: hint: in a checkout of assay, run npm ci and then npm run build (the published package ships dist/)\n`,
    );
  });
});
