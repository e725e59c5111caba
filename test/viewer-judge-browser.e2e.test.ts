/**
 * The viewer shows a judged sample's judge calls in a real Chromium: for a jury with a system message,
 * each juror's system and user prompt, raw answer and verdict (and why there is none); for a
 * log-likelihood verdict, each option's log-likelihood with the one picked. The runs are made in process
 * by `evaluate` (the viewer, not `run`, is under test) with judges registered here, and every expected
 * text is read from the sample log the run wrote.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';
import { registerBackend, unregisterBackend } from '../src/models/registry.js';
import { scriptedBackend } from '../src/models/scripted/scripted-backend.js';
import type { SampleLine } from '../src/results/sample-line.js';
import { CHROMIUM, chromiumInstalled, launchChromium } from './support/chromium.js';
import { bin } from './support/cli.js';
import { findOne, readJsonl, repoRoot, tempDir } from './support/helpers.js';
import { writeJudgedTask } from './support/judged-task.js';
import { requireComponent } from './support/require-component.js';

const artifacts = path.join(repoRoot, 'test-artifacts', 'viewer');
const haveChromium = requireComponent('chromium', {
  available: chromiumInstalled(),
  reason: `none at ${CHROMIUM}`,
});

/** Juror A scores question n as (n % 5) + 1; juror B the same, but has no verdict on question 1. */
registerBackend('viewer-judge-a', {
  create: () =>
    scriptedBackend({
      generate: (request) =>
        `Checked against the reference.\nScore: ${(questionOf(request.context) % 5) + 1}`,
    }),
});
registerBackend('viewer-judge-b', {
  create: () =>
    scriptedBackend({
      generate: (request) =>
        questionOf(request.context) === 1
          ? 'I cannot decide.'
          : `Score: ${(questionOf(request.context) % 5) + 1}`,
    }),
});
/** A log-likelihood judge: option k after question n's rubric has log p = −1 − |k − ((n % 5) + 1)|. */
registerBackend('viewer-judge-scorer', {
  create: () =>
    scriptedBackend({
      loglikelihood: (request) => ({
        logprob: -1 - Math.abs(Number(request.continuation) - ((questionOf(request.context) % 5) + 1)),
        isGreedy: false,
      }),
    }),
});
afterAll(() => {
  unregisterBackend('viewer-judge-a');
  unregisterBackend('viewer-judge-b');
  unregisterBackend('viewer-judge-scorer');
});

function questionOf(context: string): number {
  return Number(/question (\d+)/.exec(context)?.[1]);
}

function startView(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'view', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /at (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString();
    });
    child.on('exit', (code) => reject(new Error(`assay view exited ${code}: ${err}`)));
  });
}

describe.skipIf(!haveChromium)('viewer: judged samples in a browser', () => {
  let root: string;
  let server: { child: ChildProcess; url: string };
  let browser: BrowserContext;
  const samplesOf = (task: string) =>
    readJsonl<SampleLine>(
      findOne(path.join(root, 'run', 'dummy'), new RegExp(`^samples_${task}_.*\\.jsonl$`)),
    );

  beforeAll(async () => {
    root = tempDir('assay-view-judge-');
    mkdirSync(artifacts, { recursive: true });
    const rows = Array.from({ length: 4 }, (_, n) => ({
      id: n,
      question: `What is ${n} + 1?`,
      answer: String(n + 1),
    }));
    writeFileSync(path.join(root, 'data.jsonl'), `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    const jury = writeJudgedTask(root, 'judged_jury', [
      'jury:',
      '  - {model: viewer-judge-a}',
      '  - {model: viewer-judge-b}',
      'system: You grade short answers against a reference answer.',
      'prompt: "Grade question {{doc.id}}. Reference: {{target}}. Response: {{response}}. Reply Score: N."',
      'verdict: {type: score, min: 1, max: 5}',
    ]);
    const scored = writeJudgedTask(root, 'judged_ll', [
      'model: viewer-judge-scorer',
      'prompt: "Grade question {{doc.id}}: {{response}}\\nScore:"',
      'verdict: {type: score, min: 1, max: 5, by: loglikelihood}',
    ]);
    await evaluate({
      model: 'dummy',
      tasks: [jury, scored],
      outputPath: path.join(root, 'run'),
      logSamples: true,
    });
    server = await startView([root, '--port', '0']);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
  });

  async function openSample(task: string, docId: number): Promise<Page> {
    const page = await browser.newPage();
    const runs = (await (await page.request.get(`${server.url}api/runs`)).json()) as {
      runs: { id: string }[];
    };
    expect(runs.runs).toHaveLength(1);
    await page.goto(`${server.url}#/run/${runs.runs[0].id}/samples/${task}?doc=${docId}`);
    const detail = page.getByTestId('sample-detail');
    await expect.poll(() => detail.getAttribute('data-doc')).toBe(String(docId));
    return page;
  }

  it("shows each juror's system and user prompt, raw answer and verdict", async () => {
    const line = samplesOf('judged_jury').find((sample) => sample.doc_id === 3);
    const calls = line?.judge ?? [];
    expect(calls.map((call) => call.model)).toEqual(['viewer-judge-a', 'viewer-judge-b']);
    const [system, user] = JSON.parse(calls[0].prompt) as Array<{ role: string; content: string }>;
    expect(user.content).toBe(
      `Grade question 3. Reference: 4. Response: ${String(line?.filtered_resps[0])}. Reply Score: N.`,
    );

    const page = await openSample('judged_jury', 3);
    await page.screenshot({ path: path.join(artifacts, 'judge-jury.png'), fullPage: true });
    const shown = page.getByTestId('judge-call');
    await expect.poll(() => shown.count()).toBe(2);
    for (const [index, call] of calls.entries()) {
      const juror = shown.nth(index);
      expect(await juror.locator('h4').innerText()).toBe(`Judge · llm_judge · ${call.model}`);
      expect(await juror.getByTestId('judge-system').innerText()).toBe(system.content);
      expect(await juror.getByTestId('judge-prompt').innerText()).toBe(user.content);
      expect(await juror.getByTestId('judge-raw').innerText()).toBe(call.raw);
      expect(await juror.getByTestId('judge-verdict').innerText()).toBe('Verdict 4 · score 4');
    }
    await page.close();
  });

  it('shows why a juror gave no verdict on an errored sample', async () => {
    const line = samplesOf('judged_jury').find((sample) => sample.doc_id === 1);
    expect(line?.error).toMatch(/unparseable verdict/);
    const page = await openSample('judged_jury', 1);
    const second = page.getByTestId('judge-call').nth(1);
    expect(await second.getByTestId('judge-raw').innerText()).toBe('I cannot decide.');
    expect(await second.getByTestId('judge-verdict').innerText()).toBe(
      `No verdict: ${line?.judge?.[1].error}`,
    );
    expect(await page.getByTestId('judge-call').nth(0).getByTestId('judge-verdict').innerText()).toBe(
      'Verdict 2 · score 2',
    );
    await page.close();
  });

  it("shows a log-likelihood verdict's options with their log-likelihoods and the one picked", async () => {
    const line = samplesOf('judged_ll').find((sample) => sample.doc_id === 2);
    const [call] = line?.judge ?? [];
    expect(call.loglikelihoods).toEqual({ '1': -3, '2': -2, '3': -1, '4': -2, '5': -3 });
    const page = await openSample('judged_ll', 2);
    const shown = page.getByTestId('judge-call');
    await expect.poll(() => shown.count()).toBe(1);
    expect(await shown.getByTestId('judge-prompt').innerText()).toBe(call.prompt);
    expect(await shown.getByTestId('judge-system').count()).toBe(0);
    const rows = shown.locator('[data-testid="judge-options"] tbody tr');
    // Each row's cells, tab-separated (the option's <pre> ends its line).
    expect((await rows.allInnerTexts()).map((text) => text.replace(/\n\t/g, '\t'))).toEqual([
      '1\t-3.0000\t',
      '2\t-2.0000\t',
      '3\t-1.0000\tpicked',
      '4\t-2.0000\t',
      '5\t-3.0000\t',
    ]);
    expect(await shown.getByTestId('judge-verdict').innerText()).toBe('Verdict 3 · score 3');
    await page.screenshot({ path: path.join(artifacts, 'judge-loglikelihood.png'), fullPage: true });
    await page.close();
  });
});
