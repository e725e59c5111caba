import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';
import { CHROMIUM, chromiumInstalled, launchChromium } from './support/chromium.js';
import { bin } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, readJson, readJsonl, repoRoot, tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';
import { copyRun, discordant, exactMcNemarP, perfect, withoutSamples } from './support/viewer-runs.js';

const artifacts = path.join(repoRoot, 'test-artifacts', 'viewer');
const fixtureTask = path.join(repoRoot, 'test/fixtures/viewer/colours.yaml');
const haveChromium = requireComponent('chromium', {
  available: chromiumInstalled(),
  reason: `none at ${CHROMIUM}`,
});

type Sample = Record<string, any>;

/** The payloads an untrusted model could emit; none may execute or become markup. */
const XSS = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=2</script>',
  '<svg onload="window.__xss=3"></svg>',
  '"><iframe src="javascript:window.__xss=4"></iframe>',
];

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

describe.skipIf(!haveChromium)('viewer in a browser', () => {
  let root: string;
  let server: { child: ChildProcess; url: string };
  let browser: BrowserContext;
  const runDirectory = (name: string) => path.join(root, name, 'dummy');

  beforeAll(async () => {
    root = tempDir('assay-view-');
    mkdirSync(artifacts, { recursive: true });
    // The runs the viewer shows are made in process by `evaluate`, what `assay run` calls with the same
    // options (the viewer, not `run`, is under test; `run` has its own CLI tests).
    for (const seed of [1, 2]) {
      await evaluate({
        model: 'dummy',
        modelArgs: { seed },
        tasks: [fixtureTask],
        outputPath: path.join(root, `seed${seed}`),
        logSamples: true,
      });
    }
    await evaluate({
      model: 'dummy',
      tasks: [fixtureTask],
      limit: 10,
      outputPath: path.join(root, 'partial'),
      logSamples: true,
    });
    // A real run whose logged responses are then replaced by XSS payloads.
    await evaluate({
      model: 'dummy',
      tasks: [path.join(repoRoot, 'examples/tasks/arithmetic.jsonl')],
      limit: 4,
      outputPath: path.join(root, 'xss'),
      logSamples: true,
    });
    const xssLog = findOne(runDirectory('xss'), /^samples_arithmetic_.*\.jsonl$/);
    const poisoned = readJsonl<Sample>(xssLog).map((line, i) => ({
      ...line,
      resps: [[XSS[i % XSS.length]]],
      filtered_resps: [XSS[i % XSS.length]],
    }));
    writeFileSync(xssLog, poisoned.map((line) => `${JSON.stringify(line)}\n`).join(''));
    server = await startView([root, '--port', '0']);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
  });

  async function open(hash: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('dialog', () => {
      throw new Error('a dialog opened: model output ran as script');
    });
    await page.goto(`${server.url}${hash}`);
    return page;
  }

  const runId = async (page: Page, directory: string) => {
    const runs = (await (await page.request.get(`${server.url}api/runs`)).json()) as {
      runs: { id: string; label: string }[];
    };
    const found = runs.runs.find((entry) => entry.label.startsWith(`${directory}/`));
    if (!found) throw new Error(`no run under ${directory}`);
    return found.id;
  };

  it('binds 127.0.0.1 by default', () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });

  it('lists every run, flags the partial one, sorts and searches', async () => {
    const page = await open('#/');
    const rows = page.locator('[data-testid="runs-table"] tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    const partialRows = page.locator('tr.partial-row');
    expect(await partialRows.count()).toBe(2); // the --limit 10 run and the --limit 4 XSS run
    expect(await partialRows.first().locator('.badge.partial').innerText()).toMatch(
      /PARTIAL · --limit (10|4)/,
    );
    // Issue 32: the run's name first, then the task columns; the header row and the name column stick
    // when the matrix scrolls; no Tasks column (it repeated the task columns).
    const headers = page.locator('[data-testid="runs-table"] thead th');
    expect(await headers.first().innerText()).toMatch(/^Run/);
    expect(await headers.nth(1).getAttribute('data-column')).toMatch(/^task:/);
    expect(await headers.allInnerTexts()).not.toContain('Tasks');
    expect(await page.locator('[data-testid="runs-table"] thead th', { hasText: /^Tasks$/ }).count()).toBe(0);
    const position = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).position);
    expect(await position('[data-testid="runs-table"] thead th[data-column^="task:"]')).toBe('sticky');
    expect(await position('[data-testid="runs-table"] tbody td.run-name')).toBe('sticky');
    // The model name only; the args in the tooltip, and what tells the dummy's runs apart (the seed) beside it.
    const seed1Row = page.locator('tr', { hasText: 'seed=1' });
    expect(await seed1Row.locator('td.run-name a.model').innerText()).toBe('dummy');
    expect(await seed1Row.locator('td.run-name').getAttribute('title')).toBe('dummy\nseed=1');
    expect(await seed1Row.getByTestId('run-args').innerText()).toBe('seed=1');
    // ★: the two full runs (the dummy's seeds) differ on a handful of docs either way, far from
    // significant by McNemar's exact test, so neither is starred (before issue 32 the higher one was).
    const { aOnly, bOnly } = discordant(
      readJsonl(findOne(runDirectory('seed1'), /^samples_viewer_colours_.*\.jsonl$/)),
      readJsonl(findOne(runDirectory('seed2'), /^samples_viewer_colours_.*\.jsonl$/)),
    );
    expect(exactMcNemarP(aOnly, bOnly)).toBeGreaterThan(0.05);
    await page.locator('[data-testid="runs-table"][data-stars="ready"]').waitFor();
    expect(await page.locator('[data-testid="runs-table"] .best-mark').count()).toBe(0);
    expect(await page.locator('th[data-column="task:viewer_colours"]').getAttribute('title')).toBe(
      'no ★: the best score is not significantly better than every other full run’s (2 full runs)',
    );
    await page.screenshot({ path: path.join(artifacts, 'runs.png'), fullPage: true });
    // In a narrow window the matrix scrolls in its frame (made short here: four runs fill no window):
    // scrolled right and down, the run names stay at its left edge and the header row at its top.
    await page.setViewportSize({ width: 640, height: 500 });
    const frame = page.locator('.matrix-scroll');
    await frame.evaluate((element) => {
      (element as HTMLElement).style.maxHeight = '120px';
      element.scrollTo(10_000, 10_000);
    });
    const frameBox = await frame.boundingBox();
    const scrolled = await frame.evaluate((element) => [element.scrollLeft, element.scrollTop]);
    expect(scrolled[0]).toBeGreaterThan(0);
    expect(scrolled[1]).toBeGreaterThan(0);
    const nameBox = await page.locator('tbody tr:last-child td.run-name').boundingBox();
    const headerBox = await page.locator('thead th[data-column^="task:"]').first().boundingBox();
    expect(Math.abs((nameBox?.x ?? -1) - (frameBox?.x ?? 0) - 1)).toBeLessThanOrEqual(1);
    expect(Math.abs((headerBox?.y ?? -1) - (frameBox?.y ?? 0) - 1)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: path.join(artifacts, 'runs-scrolled.png') });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByLabel('Search runs').fill('seed=2');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('Search runs').fill('');
    await page.locator('button.sort[data-sort="partial"]').click();
    expect(await rows.first().getAttribute('class')).not.toContain('partial-row');
    await page.close();
  });

  it('shows the run table with the values of results.json, a forest plot and the manifest', async () => {
    const page = await open('#/');
    const id = await runId(page, 'seed1');
    const results = readJson<Sample>(findOne(runDirectory('seed1'), /^results_.*\.json$/));
    await page.goto(`${server.url}#/run/${id}`);
    const row = page.locator(
      '[data-testid="scores-table"] tr[data-task="viewer_colours"][data-metric="acc"]',
    );
    await row.waitFor();
    const entry = results.results.viewer_colours;
    expect(await row.locator('.value').innerText()).toBe(entry['acc,none'].toFixed(4));
    expect(await row.locator('.stderr').innerText()).toBe(entry['acc_stderr,none'].toFixed(4));
    expect(await row.locator('.ci').innerText()).toBe(
      `[${entry['acc_ci,none'][0].toFixed(4)}, ${entry['acc_ci,none'][1].toFixed(4)}]`,
    );
    expect(await page.locator('[data-testid="run-forest"] rect.point').count()).toBe(1);
    // The manifest as a table (model, data, tasks, environment), its raw JSON folded away.
    const manifest = results.manifest;
    const fields = async (section: string) =>
      Object.fromEntries(
        (
          await page
            .getByTestId(`manifest-${section}`)
            .locator('tr')
            .evaluateAll((rows) =>
              rows.map((row) => [row.querySelector('th')?.textContent, row.querySelector('td')?.textContent]),
            )
        ).map(([label, value]) => [label, value]),
      );
    expect(await page.locator('[data-testid="manifest-sections"] h3').allInnerTexts()).toEqual([
      'MODEL',
      'DATA',
      'TASKS',
      'ENVIRONMENT',
    ]);
    expect(await fields('model')).toMatchObject({
      Name: manifest.model.name,
      Backend: manifest.model.backend,
      'Model args': 'seed=1',
    });
    const [dataFile] = manifest.tasks.viewer_colours.data_files;
    const dataRow = page.getByTestId('manifest-data').locator('tbody tr');
    expect(await dataRow.locator('td').allInnerTexts()).toEqual([
      'viewer_colours',
      manifest.tasks.viewer_colours.dataset_path,
      '—',
      dataFile.split,
      dataFile.path,
      `${(dataFile.size / 1024).toFixed(1)} KiB`,
      `${dataFile.sha256.slice(0, 12)}…`,
    ]);
    expect(await page.getByTestId('manifest-tasks').locator('tbody tr td').first().innerText()).toBe(
      'viewer_colours',
    );
    expect((await fields('environment')).Node).toBe(
      `${manifest.runtime.node} on ${manifest.runtime.platform}/${manifest.runtime.arch}`,
    );
    const raw = page.getByTestId('raw-manifest');
    expect(await raw.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    expect(await page.getByTestId('manifest').isVisible()).toBe(false);
    await page.screenshot({ path: path.join(artifacts, 'run.png'), fullPage: true });
    await raw.locator('summary').click();
    expect(await page.getByTestId('manifest').isVisible()).toBe(true);
    expect(await page.locator('[data-testid="manifest"]').innerText()).toContain(
      '"schema": "assay.manifest/v1"',
    );
    await page.close();
  });

  it('opens a sample with its prompt, choices and metrics, and filters to incorrect ones', async () => {
    const page = await open('#/');
    const id = await runId(page, 'seed1');
    const lines = readJsonl<Sample>(findOne(runDirectory('seed1'), /^samples_viewer_colours_.*\.jsonl$/));
    await page.goto(`${server.url}#/run/${id}/samples/viewer_colours`);
    const count = page.getByTestId('sample-count');
    await expect.poll(() => count.innerText()).toBe(`${lines.length} of ${lines.length} samples`);
    const detail = page.getByTestId('sample-detail');
    // Issue 32: the first sample is selected, and the selection is in the address.
    await detail.waitFor();
    expect(await detail.getAttribute('data-doc')).toBe(String(lines[0].doc_id));
    expect(new URL(page.url()).hash).toBe(`#/run/${id}/samples/viewer_colours?doc=${lines[0].doc_id}`);
    // A row shows the start of the question (the prompt), not the chosen continuation.
    const question = (line: Sample) => line.arguments.gen_args_0.arg_0.replace(/\s+/g, ' ').trim();
    expect(await page.locator('.sample-row[data-doc="3"] .question').innerText()).toBe(question(lines[3]));
    expect(question(lines[3])).toMatch(/^Question: Item 3: /);
    await page.screenshot({ path: path.join(artifacts, 'samples-first.png') });
    await page.locator('.sample-row[data-doc="3"]').click();
    expect(new URL(page.url()).hash).toBe(`#/run/${id}/samples/viewer_colours?doc=3`);
    // A reload, and coming back from another page, show the same sample.
    await page.reload();
    await expect.poll(() => detail.getAttribute('data-doc')).toBe('3');
    await page.locator('a', { hasText: 'back to run' }).click();
    await page.getByTestId('scores-table').waitFor();
    await page.goBack();
    await expect.poll(() => detail.getAttribute('data-doc')).toBe('3');
    expect(await page.locator('.sample-row.selected').getAttribute('data-doc')).toBe('3');
    expect(await detail.getByTestId('prompt').innerText()).toBe(lines[3].arguments.gen_args_0.arg_0);
    expect(await detail.locator('[data-testid="choices"] tbody tr').count()).toBe(4);
    expect(await detail.locator('.badge.chosen').count()).toBe(1);
    expect(await detail.locator('.badge.gold').count()).toBe(1);
    expect(await detail.getByTestId('sample-metrics').innerText()).toContain(`acc\t${lines[3].acc}`);

    await page.getByLabel('Outcome').selectOption('incorrect');
    const incorrect = lines.filter((line) => line.acc === 0);
    await expect.poll(() => count.innerText()).toBe(`${incorrect.length} of ${lines.length} samples`);
    const shown = page.locator('.sample-row[data-doc]');
    await expect.poll(() => shown.count()).toBeGreaterThan(0);
    expect(
      new Set(await shown.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-correct')))),
    ).toEqual(new Set(['false']));
    await shown.first().click();
    await page.screenshot({ path: path.join(artifacts, 'samples.png') });

    // Text search narrows to the docs whose text contains the needle.
    await page.getByLabel('Outcome').selectOption('all');
    await page.getByLabel('Search samples').fill('row 6?');
    const withNeedle = lines.filter((line) => line.arguments.gen_args_0.arg_0.includes('row 6?'));
    await expect.poll(() => count.innerText()).toBe(`${withNeedle.length} of ${lines.length} samples`);
    await page.close();
  });

  it('compares two runs: flip counts from the sample logs, p-values, discordant samples', async () => {
    const page = await open('#/');
    const a = await runId(page, 'seed1');
    const b = await runId(page, 'seed2');
    const linesA = readJsonl<Sample>(findOne(runDirectory('seed1'), /^samples_viewer_colours_.*\.jsonl$/));
    const linesB = readJsonl<Sample>(findOne(runDirectory('seed2'), /^samples_viewer_colours_.*\.jsonl$/));
    const byDoc = new Map(linesB.map((line) => [line.doc_id, line.acc]));
    const expected = { bothRight: 0, bothWrong: 0, rightToWrong: 0, wrongToRight: 0 };
    for (const line of linesA) {
      const other = byDoc.get(line.doc_id);
      if (line.acc === 1 && other === 1) expected.bothRight++;
      else if (line.acc === 0 && other === 0) expected.bothWrong++;
      else if (line.acc === 1) expected.rightToWrong++;
      else expected.wrongToRight++;
    }
    expect(expected.rightToWrong + expected.wrongToRight).toBeGreaterThan(0);
    await page.goto(`${server.url}#/compare?runs=${a},${b}`);
    const flips = page.getByTestId('flip-table');
    await flips.waitFor();
    for (const [key, value] of Object.entries(expected)) {
      expect(await flips.locator(`[data-flip="${key}"]`).innerText()).toBe(String(value));
    }
    const row = page.locator('[data-testid="compare-table"] tbody tr').first();
    const meanA = linesA.reduce((sum, line) => sum + line.acc, 0) / linesA.length;
    const meanB = linesB.reduce((sum, line) => sum + line.acc, 0) / linesB.length;
    expect(await row.locator('.difference').innerText()).toBe((meanB - meanA).toFixed(4));
    // One row, so Holm leaves p unchanged.
    expect(await row.locator('.adjusted-p').innerText()).toBe(await row.locator('.p-value').innerText());
    expect(await page.locator('[data-testid="discordant"] .discordant').count()).toBe(
      expected.rightToWrong + expected.wrongToRight,
    );
    expect(await page.locator('[data-testid="discordant"] mark').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(artifacts, 'compare.png'), fullPage: true });

    await page.goto(`${server.url}#/charts?runs=${a},${b}`);
    await page.getByTestId('charts-difference').first().waitFor();
    expect(await page.getByTestId('charts-forest').count()).toBe(2);
    await page.screenshot({ path: path.join(artifacts, 'charts.png'), fullPage: true });
    await page.close();
  });

  it('renders XSS payloads in model output as inert text', async () => {
    const page = await open('#/');
    const id = await runId(page, 'xss');
    await page.goto(`${server.url}#/run/${id}/samples/arithmetic`);
    const rows = page.locator('.sample-row[data-doc]');
    await expect.poll(() => rows.count()).toBe(4);
    expect(await rows.nth(0).locator('.response').innerText()).toBe(XSS[0]);
    for (let i = 0; i < 4; i++) {
      await rows.nth(i).click();
      expect(await page.getByTestId('filtered-response').innerText()).toBe(XSS[i]);
      expect(await page.getByTestId('response').innerText()).toBe(XSS[i]);
    }
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('main img, main iframe, main script, main svg[onload]').count()).toBe(0);
    await page.screenshot({ path: path.join(artifacts, 'xss.png') });
    await page.close();
  });

  it('exports a static copy that works from file:// with no server', async () => {
    const site = path.join(root, 'site');
    // The CLI's main() in this process (test/cli-in-process.ts); `assay view` runs as a real CLI process
    // for the server every test here talks to.
    const result = await runCliInProcess(['view', root, '--export', site]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/exported 4 run\(s\), 4 sample log\(s\)/);
    expect(readdirSync(site)).toEqual(expect.arrayContaining(['index.html', 'data']));
    const page = await browser.newPage();
    const results = readJson<Sample>(findOne(runDirectory('seed1'), /^results_.*\.json$/));
    await page.goto(pathToFileURL(path.join(site, 'index.html')).href);
    await expect.poll(() => page.locator('[data-testid="runs-table"] tbody tr').count()).toBe(4);
    // The ★s were ranked at export: the two seeds do not differ significantly (see the Runs page test).
    await page.locator('[data-testid="runs-table"][data-stars="ready"]').waitFor();
    expect(await page.locator('[data-testid="runs-table"] .best-mark').count()).toBe(0);
    await page.locator('tr', { hasText: 'seed=1' }).locator('a.model').click();
    const row = page.locator(
      '[data-testid="scores-table"] tr[data-task="viewer_colours"][data-metric="acc"]',
    );
    await row.waitFor();
    expect(await row.locator('.value').innerText()).toBe(
      results.results.viewer_colours['acc,none'].toFixed(4),
    );
    await page.locator('a', { hasText: 'samples' }).click();
    const lines = readJsonl<Sample>(findOne(runDirectory('seed1'), /^samples_viewer_colours_.*\.jsonl$/));
    // The first sample selected and named in the address, from file:// too.
    await expect.poll(() => new URL(page.url()).hash).toMatch(new RegExp(`\\?doc=${lines[0].doc_id}$`));
    expect(await page.getByTestId('sample-detail').getAttribute('data-doc')).toBe(String(lines[0].doc_id));
    await page.getByLabel('Outcome').selectOption('incorrect');
    await expect
      .poll(() => page.getByTestId('sample-count').innerText())
      .toBe(`${lines.filter((line) => line.acc === 0).length} of ${lines.length} samples`);
    await page.screenshot({ path: path.join(artifacts, 'export.png') });
    await page.close();
    expect(readFileSync(path.join(site, 'index.html'), 'utf8')).not.toMatch(/src="\.\/assets/);
  });
  it('gives no ★ to runs tied at the top (issue 32: three runs at 1.0000 with identical intervals were each starred)', async () => {
    const tieRoot = tempDir('assay-view-tie-');
    // Three runs right on every doc: two with sample logs (paired: no discordant doc), one without
    // (compared by the interval of the difference: 0 inside it); and a dummy seed below them.
    copyRun(runDirectory('seed1'), path.join(tieRoot, 'a', 'dummy'), perfect());
    copyRun(runDirectory('seed1'), path.join(tieRoot, 'b', 'dummy'), perfect());
    copyRun(runDirectory('seed1'), path.join(tieRoot, 'c', 'dummy'), perfect({ samples: false }));
    copyRun(runDirectory('seed1'), path.join(tieRoot, 'seed1', 'dummy'), withoutSamples);
    const view = await startView([tieRoot, '--port', '0']);
    try {
      const page = await browser.newPage();
      await page.goto(view.url);
      const table = page.locator('[data-testid="runs-table"][data-stars="ready"]');
      await table.waitFor();
      const values = await table
        .locator('td[data-score-task="viewer_colours"]')
        .evaluateAll((cells) =>
          cells.map((cell) => [
            cell.querySelector('.value')?.textContent,
            cell.querySelector('.ci')?.textContent,
          ]),
        );
      expect(values.filter(([value]) => value === '1.0000')).toEqual([
        ['1.0000', '[0.9400, 1.0000]'],
        ['1.0000', '[0.9400, 1.0000]'],
        ['1.0000', '[0.9400, 1.0000]'],
      ]);
      expect(await table.locator('.best-mark').count()).toBe(0);
      expect(await table.locator('td.score.best').count()).toBe(0);
      expect(await page.locator('th[data-column="task:viewer_colours"]').getAttribute('title')).toBe(
        'no ★: 3 full runs share the best score, 1',
      );
      await page.screenshot({ path: path.join(artifacts, 'tie.png'), fullPage: true });
      await page.close();
    } finally {
      view.child.kill('SIGTERM');
    }
  });

  it('shows the results matrix: scores with intervals, best per task, runs grouped by model, flags against a baseline', async () => {
    // A second folder of runs built from seed1's files: a twin (same scores: never significant) and a
    // "perfect-model" run whose logged acc is 1 on every doc (results and sample log edited to match).
    const matrixRoot = tempDir('assay-view-matrix-');
    copyRun(runDirectory('seed1'), path.join(matrixRoot, 'seed1', 'dummy'));
    copyRun(runDirectory('seed2'), path.join(matrixRoot, 'seed2', 'dummy'));
    copyRun(runDirectory('seed1'), path.join(matrixRoot, 'twin', 'dummy'));
    copyRun(
      runDirectory('seed1'),
      path.join(matrixRoot, 'perfect', 'perfect-model'),
      perfect({ model: 'perfect-model' }),
    );
    const resultsOf = (name: string) =>
      readJson<Sample>(
        findOne(
          path.join(matrixRoot, name, name === 'perfect' ? 'perfect-model' : 'dummy'),
          /^results_.*\.json$/,
        ),
      ).results.viewer_colours;
    const view = await startView([matrixRoot, '--port', '0']);
    try {
      const page = await browser.newPage();
      await page.goto(view.url);
      const runs = (await (await page.request.get(`${view.url}api/runs`)).json()) as {
        runs: { id: string; label: string }[];
      };
      const idOf = (folder: string) =>
        runs.runs.find((entry) => entry.label.startsWith(`${folder}/`))?.id ?? '';
      const rows = page.locator('[data-testid="runs-table"] tbody tr');
      await expect.poll(() => rows.count()).toBe(4);
      const cell = (folder: string) =>
        page.locator(`tr[data-run="${idOf(folder)}"] td[data-score-task="viewer_colours"]`);
      for (const folder of ['seed1', 'seed2', 'perfect']) {
        const entry = resultsOf(folder);
        expect(await cell(folder).locator('.value').innerText()).toBe(entry['acc,none'].toFixed(4));
        expect(await cell(folder).locator('.ci').innerText()).toBe(
          `[${entry['acc_ci,none'][0].toFixed(4)}, ${entry['acc_ci,none'][1].toFixed(4)}]`,
        );
      }
      // acc 1.0 beats both dummy seeds: the one best cell.
      expect(resultsOf('seed1')['acc,none']).toBeLessThan(1);
      expect(resultsOf('seed2')['acc,none']).toBeLessThan(1);
      await page.locator('[data-testid="runs-table"][data-stars="ready"]').waitFor();
      expect(await page.locator('td.score.best').count()).toBe(1);
      expect(await cell('perfect').getAttribute('class')).toContain('best');
      // Significantly better than each other full run: right on every doc each of them got wrong.
      expect(await cell('perfect').locator('.best-mark').getAttribute('title')).toMatch(
        /^★: significantly better than each of the 3 other full runs \(as `assay compare` reports: 3 by the paired test/,
      );
      // Grouped by model: two groups, each run's rows together.
      expect(await page.getByTestId('model-group').allInnerTexts()).toEqual(
        expect.arrayContaining(['dummy · 3 runs', 'perfect-model · 1 run']),
      );
      const models = async () => rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-model')));
      const order = await models();
      expect(order.filter((model, index) => model !== order[index - 1])).toHaveLength(2);

      // Sorting a task column: highest first, then lowest first (the dummy seed with the lower score).
      await page.locator('button.sort[data-sort="task:viewer_colours"]').click();
      expect(await rows.first().getAttribute('data-run')).toBe(idOf('perfect'));
      await page.locator('button.sort[data-sort="task:viewer_colours"]').click();
      const lowest = resultsOf('seed1')['acc,none'] <= resultsOf('seed2')['acc,none'] ? 'seed1' : 'seed2';
      expect(await rows.first().locator('td[data-score-task] .value').innerText()).toBe(
        resultsOf(lowest)['acc,none'].toFixed(4),
      );
      expect(await rows.last().getAttribute('data-run')).toBe(idOf('perfect'));

      // seed1 as the baseline: perfect-model is right on every doc seed1 got wrong (McNemar, Holm < 0.05);
      // the twin has the same scores on every doc, so it is never flagged.
      await page.getByLabel('Baseline for paired tests').selectOption(idOf('seed1'));
      await expect.poll(() => cell('perfect').locator('[data-significant]').count()).toBe(1);
      expect(await cell('perfect').locator('[data-significant]').getAttribute('data-significant')).toBe(
        'better',
      );
      expect(await cell('perfect').getAttribute('title')).toMatch(
        /^significantly different from the baseline/,
      );
      expect(await cell('twin').getAttribute('title')).toMatch(
        /^not significantly different from the baseline: difference 0\.0000/,
      );
      expect(await cell('twin').locator('[data-significant]').count()).toBe(0);
      expect(await cell('seed1').getAttribute('title')).toBeNull();
      expect(await page.locator(`tr[data-run="${idOf('seed1')}"] .badge.baseline`).count()).toBe(1);
      await page.screenshot({ path: path.join(artifacts, 'matrix.png'), fullPage: true });

      // The compare page explains its diff colours: text differences, not right or wrong.
      await page.goto(`${view.url}#/compare?runs=${idOf('seed1')},${idOf('seed2')}`);
      const legend = page.getByTestId('diff-legend');
      await legend.waitFor();
      expect(await legend.innerText()).toMatch(
        /removed words are in the baseline's response only, added words in the candidate's only\. The colours mark how the texts differ, not which answer is right or wrong/,
      );
      const colour = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(await colour('[data-testid="diff-legend"] mark.removed')).toBe(
        await colour('.discordant mark.removed'),
      );
      expect(await colour('[data-testid="diff-legend"] mark.added')).toBe(
        await colour('.discordant mark.added'),
      );
      await page.close();
    } finally {
      view.child.kill('SIGTERM');
    }
  });
});
