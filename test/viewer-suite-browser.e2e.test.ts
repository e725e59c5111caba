/**
 * The Suite page in real Chromium, over `assay view suites/NAME` as a user starts it: a suite of three
 * dummy models and an oracle (right on every doc) on two task sets, run and summarized by the library.
 * The leaderboard shows summary.json's numbers with the rank and win-rate intervals drawn to scale; a cell
 * drills down to its run, its samples and the Compare page of a pair; a suite without summary.json says how
 * to make it; the static export opens from file:// with no failed request. The render bound of a
 * 20-model × 60-task summary is test/viewer-suite-render.e2e.test.ts's, in vitest.config.ts's `timed` list;
 * this file waits on pages (expect.poll), not on the clock, and runs beside the others.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SuiteSummary, suiteSummarySchema } from '../src/results/suite-summary.js';
import { facingPairs, rankText } from '../src/view/suite-leaderboard.js';
import { CHROMIUM, chromiumInstalled, launchChromium } from './support/chromium.js';
import { startView, type View } from './support/cli.js';
import { runCliInProcess } from './support/cli-in-process.js';
import { findOne, repoRoot, tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';
import { DEMO_MODELS, runDemoSuite } from './support/suite-fixtures.js';

const artifacts = path.join(repoRoot, 'test-artifacts', 'viewer');
const haveChromium = requireComponent('chromium', {
  available: chromiumInstalled(),
  reason: `none at ${CHROMIUM}`,
});
const MODELS = [...DEMO_MODELS, 'oracle'];

const number = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? '—' : value.toFixed(digits);

describe.skipIf(!haveChromium)('the Suite page in a browser', () => {
  let suite: string;
  let summary: SuiteSummary;
  let view: View;
  let browser: BrowserContext;
  const views: View[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    suite = await runDemoSuite(tempDir('assay-view-suite-'), 'demo', { oracle: true });
    summary = suiteSummarySchema.parse(JSON.parse(readFileSync(path.join(suite, 'summary.json'), 'utf8')));
    // dummy-1's run of `first` as assay writes a run under a latency cap (`--max_latency_s 5`) that two
    // docs went over: the results file's `timeouts` block, which the viewer shows where it is.
    const cappedFile = findOne(path.join(suite, 'dummy-1', 'first', 'dummy'), /^results_.*\.json$/);
    const capped = JSON.parse(readFileSync(cappedFile, 'utf8'));
    capped.timeouts = { max_latency_s: 5, samples: 2, by_task: { first: 2 } };
    writeFileSync(cappedFile, JSON.stringify(capped));
    view = await startView([suite]);
    views.push(view);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    for (const started of views) started.child.kill('SIGTERM');
  });

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(url);
    return page;
  }

  it('opens on the suite: per group the win rate, macro average and rank, the intervals drawn to scale', async () => {
    const page = await open(view.url);
    const board = page.getByTestId('suite-leaderboard');
    await board.waitFor();
    expect(await page.locator('h1').innerText()).toBe('Suite demo version 2026-12-a');
    expect(
      await board
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model'))),
    ).toEqual(MODELS);
    const [group] = summary.groups;
    expect(group.group).toBe('letters');
    // The oracle is right on every doc: better than each dummy, resolved first on the group.
    const oracle = group.models.find((row) => row.model === 'oracle');
    expect(oracle?.rank).toEqual({ point: 1, best: 1, worst: 1 });
    expect(oracle?.mean_win_rate).toBe(1);
    for (const row of group.models) {
      const tr = board.locator(`tbody tr[data-model="${row.model}"]`);
      expect(await tr.getByTestId('win-rate').innerText()).toBe(number(row.mean_win_rate));
      expect(await tr.locator('td.macro .value').innerText()).toBe(number(row.macro_average?.value));
      expect(await tr.locator('td.macro .ci').innerText()).toBe(
        `[${number(row.macro_average?.ci?.[0])}, ${number(row.macro_average?.ci?.[1])}]`,
      );
      expect(await tr.locator('td.rank .rank-text').innerText()).toBe(rankText(row.rank));
      // The rank interval drawn over places 1…4: the bar spans best to worst of the track, the tick at the point.
      const bar = tr.getByTestId('group-rank');
      expect([await bar.getAttribute('data-lo'), await bar.getAttribute('data-hi')]).toEqual([
        String(row.rank?.best),
        String(row.rank?.worst),
      ]);
      const track = await bar.boundingBox();
      const span = await bar.locator('.interval-span').boundingBox();
      const tick = await bar.locator('.interval-point').boundingBox();
      if (!track || !span || !tick || !row.rank) throw new Error('no interval drawn');
      const at = (place: number) => track.x + ((place - 1) / (MODELS.length - 1)) * track.width;
      expect(Math.abs(span.x - at(row.rank.best))).toBeLessThanOrEqual(1);
      expect(Math.abs(span.x + span.width - at(row.rank.worst))).toBeLessThanOrEqual(
        row.rank.best === row.rank.worst ? 2.5 : 1,
      );
      expect(Math.abs(tick.x + tick.width / 2 - at(row.rank.point))).toBeLessThanOrEqual(1.5);
      // The win-rate interval on [0, 1].
      const rate = tr.getByTestId('win-rate-interval');
      expect([
        Number(await rate.getAttribute('data-lo')),
        Number(await rate.getAttribute('data-hi')),
      ]).toEqual(row.win_rate_interval);
      const rateTrack = await rate.boundingBox();
      const rateSpan = await rate.locator('.interval-span').boundingBox();
      if (!rateTrack || !rateSpan || !row.win_rate_interval) throw new Error('no win-rate interval drawn');
      expect(
        Math.abs(rateSpan.x - (rateTrack.x + row.win_rate_interval[0] * rateTrack.width)),
      ).toBeLessThanOrEqual(1);
    }
    // Each task cell: the run's value and the model's rank in the task.
    const cells = page.getByTestId('suite-tasks');
    for (const cell of summary.cells) {
      const td = cells.locator(`tbody tr[data-model="${cell.model}"] td[data-task="${cell.task}"]`);
      expect(await td.locator('.value').innerText()).toBe(number(cell.value));
      const ranked = summary.tasks
        .find((task) => task.task === cell.task)
        ?.ranks.find((entry) => entry.model === cell.model);
      expect(await td.locator('.rank-text').innerText()).toBe(rankText(ranked?.rank));
      // Drawn on one 44 px element: the interval layer starts at the best place, the point layer at the point.
      if (!ranked) throw new Error(`no rank for ${cell.model} × ${cell.task}`);
      const at = (place: number) => ((place - 1) / (MODELS.length - 1)) * 44;
      const [pointLayer, intervalLayer] = await td.getByTestId('task-rank').evaluate((element) =>
        getComputedStyle(element)
          .backgroundPosition.split(', ')
          .map((layer) => layer.split(' ').map((part) => Number.parseFloat(part))),
      );
      expect(pointLayer[0]).toBeCloseTo(at(ranked.rank.point) - 1, 3);
      expect(intervalLayer[0]).toBeCloseTo(at(ranked.rank.best), 3);
    }
    // `second` ran 30 of its 50 docs: its cells are marked partial.
    expect(await cells.locator('td[data-task="second"][data-status="partial"] .badge.status').count()).toBe(
      4,
    );
    await page.screenshot({ path: path.join(artifacts, 'suite.png'), fullPage: true });
    // Sorting by the group's win rate puts the oracle first.
    await board.locator('button.sort[data-sort="group:letters"]').click();
    expect(await board.locator('tbody tr').first().getAttribute('data-model')).toBe('oracle');
    await page.close();
  });

  it('drills down from a cell to its pairwise comparisons, its run, its samples and the Compare page', async () => {
    const page = await open(view.url);
    await page.locator('[data-testid="suite-tasks"] tr[data-model="oracle"] td[data-task="first"] a').click();
    const panel = page.getByTestId('suite-cell');
    await panel.waitFor();
    // The selection is in the address: a reload or a link shows the same cell.
    expect(new URL(page.url()).hash).toMatch(/^#\/suite\/[0-9a-f]{12}\?model=oracle&task=first$/);
    const cell = summary.cells.find((entry) => entry.model === 'oracle' && entry.task === 'first');
    expect(cell?.value).toBe(1);
    expect(await panel.getByTestId('cell-value').innerText()).toBe('1.0000');
    expect(await panel.getByTestId('cell-ci').innerText()).toBe(
      `[${number(cell?.ci?.[0], 4)}, ${number(cell?.ci?.[1], 4)}]`,
    );
    // Its pairs, turned to read oracle − other, with Holm's p; significant ones marked in its favour.
    const matrix = summary.head_to_head.find((entry) => entry.scope === 'task' && entry.name === 'first');
    if (!matrix) throw new Error('no head-to-head for first');
    const pairs = facingPairs(matrix, 'oracle', summary.confidence);
    expect(pairs.map((pair) => pair.other)).toEqual(DEMO_MODELS);
    for (const pair of pairs) {
      const row = panel.locator(`[data-testid="cell-pairs"] tr[data-other="${pair.other}"]`);
      expect(await row.locator('.difference').innerText()).toBe(pair.difference.toFixed(4));
      expect(pair.difference).toBeGreaterThan(0.5);
      expect(pair.better).toBe(true);
      expect(await row.getAttribute('class')).toBe('better');
    }
    await page.screenshot({ path: path.join(artifacts, 'suite-cell.png'), fullPage: true });

    // The Compare page of oracle against dummy-1 on `first`: assay compare's engine on the two cells' runs
    // gives the summary's difference and (unadjusted) p-value, the same test on the same docs.
    const pair = pairs[0];
    await panel.locator(`tr[data-other="${pair.other}"]`).getByTestId('cell-compare').click();
    const compareRow = page.locator('[data-testid="compare-table"] tbody tr').first();
    await compareRow.waitFor();
    expect(await compareRow.locator('.difference').innerText()).toBe(pair.difference.toFixed(4));
    const p = pair.pValue;
    expect(await compareRow.locator('.p-value').innerText()).toBe(
      p < 1e-4 ? p.toExponential(1) : p.toFixed(4),
    );
    await page.goBack();

    // The run: the Run page of the cell's run folder, with the value the leaderboard shows.
    await page.getByTestId('cell-run').click();
    const scoreRow = page.locator(
      '[data-testid="scores-table"] tr[data-task="first"][data-metric="multiple_choice"]',
    );
    await scoreRow.waitFor();
    expect(await scoreRow.locator('.value').innerText()).toBe('1.0000');
    await page.goBack();
    await page.getByTestId('cell-samples').click();
    await expect.poll(() => page.getByTestId('sample-count').innerText()).toBe('40 of 40 samples');
    await page.close();
  });

  it('selects a model’s group row: its win rate, rank and the group’s pairs', async () => {
    const page = await open(view.url);
    await page
      .locator('[data-testid="suite-leaderboard"] tr[data-model="dummy-1"] [data-testid="win-rate"]')
      .click();
    const panel = page.getByTestId('suite-cell');
    await panel.waitFor();
    expect(await panel.getAttribute('data-group')).toBe('letters');
    const row = summary.groups[0].models.find((entry) => entry.model === 'dummy-1');
    expect(await panel.getByTestId('cell-rank').innerText()).toBe(rankText(row?.rank));
    // The pairs come with the group's comparison, which the panel fetches after it opens.
    await expect.poll(() => panel.locator('[data-testid="cell-pairs"] tbody tr').count()).toBe(3);
    await page.close();
  });

  it('shows the docs a run timed out: in the suite’s cell, its drill-down and the Run and Runs pages', async () => {
    const page = await open(view.url);
    const cell = page.locator('[data-testid="suite-tasks"] tr[data-model="dummy-1"] td[data-task="first"]');
    expect(await cell.locator('.badge.timed-out').innerText()).toBe('T2');
    expect(await page.locator('[data-testid="suite-tasks"] .badge.timed-out').count()).toBe(1);
    await cell.locator('a').click();
    expect(await page.getByTestId('cell-timed-out').innerText()).toBe('2 doc(s) over 5 s (in no metric)');
    await page.getByTestId('cell-run').click();
    await page.getByTestId('timeouts-note').waitFor();
    expect(await page.getByTestId('timeouts-note').innerText()).toMatch(
      /^Latency cap 5 s: 2 doc\(s\) timed out\./,
    );
    expect(
      await page.locator('[data-testid="scores-table"] tr[data-task="first"] td.timed-out').innerText(),
    ).toBe('2');
    await page.goto(`${view.url}#/runs`);
    const badges = page.locator('[data-testid="runs-table"] td[data-score-task="first"] .badge.timed-out');
    await expect.poll(() => badges.count()).toBe(1);
    expect(await badges.innerText()).toBe('2 timed out');
    await page.close();
  });

  it('without summary.json, says how to make it instead of computing one, and lists the cells’ runs', async () => {
    const plain = await runDemoSuite(tempDir('assay-view-plain-'), 'plain', { summarize: false });
    const started = await startView([plain]);
    views.push(started);
    await expect
      .poll(() => started.stderr())
      .toContain('assay: suite plain (.) has no summary.json: make it with `assay suite summarize plain`');
    const page = await open(started.url);
    const problem = page.getByTestId('summary-problem');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('make it with `assay suite summarize plain`');
    expect(await page.getByTestId('suite-leaderboard').count()).toBe(0);
    expect(await page.locator('[data-testid="suite-cell-runs"] a', { hasText: 'run' }).count()).toBe(6);
    await page.close();
  });

  it('exports a static site that opens from file:// with no failed request and drills down to a run', async () => {
    const site = path.join(tempDir('assay-view-suite-site-'), 'site');
    const result = await runCliInProcess(['view', suite, '--export', site]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/exported 1 suite\(s\), 8 run\(s\), 8 sample log\(s\), 24 comparison\(s\)/);
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('pageerror', (error) => failed.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') failed.push(`console: ${message.text()}`);
    });
    await page.goto(pathToFileURL(path.join(site, 'index.html')).href);
    const board = page.getByTestId('suite-leaderboard');
    await board.waitFor();
    const oracle = summary.groups[0].models.find((row) => row.model === 'oracle');
    expect(await board.locator('tr[data-model="oracle"] [data-testid="win-rate"]').innerText()).toBe(
      number(oracle?.mean_win_rate),
    );
    await page
      .locator('[data-testid="suite-tasks"] tr[data-model="dummy-2"] td[data-task="second"] a')
      .click();
    await page.getByTestId('suite-cell').waitFor();
    const pair = page.locator('[data-testid="cell-pairs"] tr[data-other="oracle"]');
    await pair.getByTestId('cell-compare').click();
    await page.locator('[data-testid="compare-table"] tbody tr').first().waitFor();
    await page.goBack();
    await page.getByTestId('cell-run').click();
    const value = summary.cells.find((cell) => cell.model === 'dummy-2' && cell.task === 'second')?.value;
    await expect
      .poll(() =>
        page.locator('[data-testid="scores-table"] tr[data-task="second"] .value').first().innerText(),
      )
      .toBe(number(value, 4));
    await page.goBack();
    await page.getByTestId('cell-samples').click();
    await expect.poll(() => page.getByTestId('sample-count').innerText()).toBe('30 of 30 samples');
    await page.screenshot({ path: path.join(artifacts, 'suite-export.png') });
    expect(failed).toEqual([]);
    await page.close();
  });
});
