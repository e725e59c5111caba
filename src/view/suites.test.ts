/**
 * The viewer over suites, in process: a real suite (three dummy models × two task sets, run and
 * summarized by the library) seen as `assay view suites/NAME` and `assay view suites/` see it, through the
 * store, the HTTP routes (`app.request()`) and the static export. The summary the API hands out is the
 * file read through its schema, never recomputed; without one the page is told how to make it.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { DEMO_MODELS, runDemoSuite } from '../../test/support/suite-fixtures.js';
import { writeScoredRun } from '../../test/support/synthetic-run.js';
import { parseSuiteCellRecord } from '../results/suite-cell-record.js';
import { type SuiteSummary, suiteSummarySchema } from '../results/suite-summary.js';
import type { SuitesResponse } from './api.js';
import { runId } from './discover.js';
import { exportSite } from './export.js';
import { viewerApp } from './server.js';
import { ViewerStore } from './store.js';

const LOCAL = { host: '127.0.0.1:7777' };
let base: string;
let suite: string;
let summaryOnDisk: SuiteSummary;

beforeAll(async () => {
  base = tempDir('assay-view-suites-');
  suite = await runDemoSuite(base, 'demo');
  // What `assay suite summarize` wrote, read here with the contract's schema on its own.
  summaryOnDisk = suiteSummarySchema.parse(
    JSON.parse(readFileSync(path.join(suite, 'summary.json'), 'utf8')),
  );
}, 120_000);

/** The results file each cell's record names, as an absolute path. */
function cellResultsFile(model: string, taskSet: string): string {
  const folder = path.join(suite, model, taskSet);
  const record = parseSuiteCellRecord(readFileSync(path.join(folder, 'cell.json'), 'utf8'));
  if (!record?.results_file) throw new Error(`cell ${model}/${taskSet} has no results file`);
  return path.resolve(folder, record.results_file);
}

describe('suites in the viewer', () => {
  it('opens on the suite a viewed folder is: its summary.json as written, and each cell’s run', async () => {
    const store = new ViewerStore([suite]);
    const { suites, problems } = await store.suites();
    expect(problems).toEqual([]);
    expect(suites).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{12}$/),
        name: 'demo',
        label: '.',
        root: 0,
        isRoot: true,
        version: '2026-12-a',
        description: 'three dummies',
        models: DEMO_MODELS,
        taskSets: ['first', 'second'],
        summary: 'ready',
      },
    ]);
    const detail = await store.suite(suites[0].id);
    // The leaderboard is the file's; its head-to-head matrices come one at a time, each the file's too.
    const { head_to_head: matrices, ...leaderboard } = summaryOnDisk;
    expect(detail.summary).toEqual(leaderboard);
    expect(detail.headToHead).toEqual([
      { scope: 'task', name: 'first' },
      { scope: 'task', name: 'second' },
      { scope: 'group', name: 'letters' },
    ]);
    for (const matrix of matrices)
      expect(await store.headToHead(suites[0].id, matrix.scope, matrix.name)).toEqual(matrix);
    await expect(store.headToHead(suites[0].id, 'task', 'third')).rejects.toThrow(
      "suite demo's summary has no head-to-head matrix for task third",
    );
    expect(detail.summaryProblem).toBeNull();
    expect(detail.staleSummary).toBeNull();
    expect(detail.taskSets).toEqual({ first: ['first'], second: ['second'] });
    expect(detail.groups).toEqual({ letters: ['first', 'second'] });
    // Every cell's run is the run folder its cell.json names, found as any other run.
    expect(detail.cellRuns.map((cell) => [cell.model, cell.taskSet, cell.run.id, cell.run.label])).toEqual(
      DEMO_MODELS.flatMap((model) =>
        ['first', 'second'].map((taskSet) => [
          model,
          taskSet,
          runId(cellResultsFile(model, taskSet)),
          path.relative(suite, cellResultsFile(model, taskSet)),
        ]),
      ),
    );
    // The drill-down's run shows the number the leaderboard shows: the summary's value is the run's.
    for (const cell of detail.cellRuns) {
      const summarized = summaryOnDisk.cells.find(
        (entry) => entry.model === cell.model && entry.task_set === cell.taskSet,
      );
      expect(cell.run.scores[summarized?.task ?? '']?.value).toBe(summarized?.value);
      expect(cell.run.sampleTasks).toEqual([cell.taskSet]);
      expect(cell.run.timeouts).toBeNull();
    }
  });

  it('lists each suite of a folder of suites by its folder, none of them the home page', async () => {
    const store = new ViewerStore([path.dirname(suite)]);
    const { suites } = await store.suites();
    expect(suites.map((entry) => [entry.name, entry.label, entry.isRoot, entry.summary])).toEqual([
      ['demo', 'demo', false, 'ready'],
    ]);
    // The id names the folder, whichever directory it is viewed from.
    expect(suites[0].id).toBe((await new ViewerStore([suite]).suites()).suites[0].id);
  });

  it('serves GET /api/suites and /api/suites/:id; an unknown suite is named', async () => {
    const store = new ViewerStore([suite]);
    await store.refresh(true);
    const app = viewerApp({ store, host: '127.0.0.1', appDirectory: path.join(base, 'no-app') });
    const listed = await app.request('/api/suites', { headers: LOCAL });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await listed.json()) as SuitesResponse;
    expect(body).toEqual(await store.suites());
    const detail = await app.request(`/api/suites/${body.suites[0].id}`, { headers: LOCAL });
    expect(detail.status).toBe(200);
    expect(await detail.json()).toEqual(await store.suite(body.suites[0].id));
    const letters = await app.request(`/api/suites/${body.suites[0].id}/head-to-head/group/letters`, {
      headers: LOCAL,
    });
    expect(letters.status).toBe(200);
    expect(await letters.json()).toEqual(summaryOnDisk.head_to_head[2]);
    expect(summaryOnDisk.head_to_head[2]).toMatchObject({ scope: 'group', name: 'letters' });
    const unknown = await app.request('/api/suites/000000000000', { headers: LOCAL });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: 'no suite with id 000000000000' });
  });

  it('without summary.json says how to make it, and still lists the cells’ runs', async () => {
    const unsummarized = await runDemoSuite(tempDir('assay-view-unsummarized-'), 'plain', {
      summarize: false,
    });
    const store = new ViewerStore([unsummarized]);
    const { suites } = await store.suites();
    expect(suites[0].summary).toBe('absent');
    const detail = await store.suite(suites[0].id);
    expect(detail.summary).toBeNull();
    expect(detail.summaryProblem).toBe(
      'This suite has no summary.json yet: make it with `assay suite summarize plain` (naming the folder that holds plain/ as its suites folder when that is not ./suites), then reload.',
    );
    expect(detail.cellRuns).toHaveLength(6);
  });

  it('a summary.json that is not one is named with its first bad field, not shown', async () => {
    const copy = path.join(tempDir('assay-view-bad-summary-'), 'bad');
    mkdirSync(copy);
    writeFileSync(path.join(copy, 'suite.json'), readFileSync(path.join(suite, 'suite.json')));
    const broken = { ...summaryOnDisk, groups: [{ ...summaryOnDisk.groups[0], models: 'none' }] };
    writeFileSync(path.join(copy, 'summary.json'), JSON.stringify(broken));
    const store = new ViewerStore([copy]);
    const { suites } = await store.suites();
    expect(suites[0].summary).toBe('invalid');
    const detail = await store.suite(suites[0].id);
    expect(detail.summary).toBeNull();
    expect(detail.summaryProblem).toMatch(
      /^summary\.json: not a suite summary \(assay\.suite-summary\/v1\): groups\.0\.models: .*expected array.*\. Make it again with `assay suite summarize demo`\.$/,
    );
    // And a suite.json that is not a record is a problem of the listing, not a suite.
    writeFileSync(path.join(copy, 'suite.json'), JSON.stringify({ schema: 'assay.suite/v1', name: 3 }));
    expect(await new ViewerStore([copy]).suites()).toEqual({
      suites: [],
      problems: [
        {
          file: 'suite.json',
          message: expect.stringMatching(/^not a suite record \(assay\.suite\/v1\): /),
        },
      ],
    });
  });

  it('reads cell records only inside the suite’s folder, whatever suite.json names', async () => {
    const outside = tempDir('assay-view-escape-');
    const copy = path.join(outside, 'copy');
    cpSync(suite, copy, { recursive: true });
    const record = JSON.parse(readFileSync(path.join(copy, 'suite.json'), 'utf8'));
    record.models.push({ name: '../elsewhere', model: 'dummy' });
    writeFileSync(path.join(copy, 'suite.json'), JSON.stringify(record));
    // A cell record outside the viewed folder that names a run inside it: not read, so no cell.
    const cell = JSON.parse(readFileSync(path.join(copy, 'dummy-1', 'first', 'cell.json'), 'utf8'));
    const planted = path.join(outside, 'elsewhere', 'first');
    mkdirSync(planted, { recursive: true });
    const inside = path.resolve(copy, 'dummy-1', 'first', cell.results_file);
    writeFileSync(
      path.join(planted, 'cell.json'),
      JSON.stringify({ ...cell, model: '../elsewhere', results_file: path.relative(planted, inside) }),
    );
    const store = new ViewerStore([copy]);
    const detail = await store.suite((await store.suites()).suites[0].id);
    expect(detail.cellRuns.map((entry) => entry.model)).toEqual(
      DEMO_MODELS.flatMap((model) => [model, model]),
    );
  });

  it('says so when cells ended after the summary was made', async () => {
    const folder = await runDemoSuite(tempDir('assay-view-stale-'), 'stale');
    const store = new ViewerStore([folder]);
    const id = (await store.suites()).suites[0].id;
    expect((await store.suite(id)).staleSummary).toBeNull();
    // summary.json dated a day before the cells ran: a summary made before a rerun of them.
    const dayAgo = new Date(Date.now() - 86_400_000);
    utimesSync(path.join(folder, 'summary.json'), dayAgo, dayAgo);
    expect((await store.suite(id)).staleSummary).toBe(
      'Cells ran after this summary was made; it does not show them. Run `assay suite summarize stale` again.',
    );
  });

  it('exports the suite beside its runs: the same data the server answers, as static files', async () => {
    const app = path.join(base, 'app');
    mkdirSync(path.join(app, 'assets'), { recursive: true });
    writeFileSync(
      path.join(app, 'index.html'),
      '<html><head><link rel="stylesheet" href="./assets/style.css"></head><body><script type="module" src="./assets/app.js"></script></body></html>',
    );
    writeFileSync(path.join(app, 'assets', 'app.js'), '/* app */');
    writeFileSync(path.join(app, 'assets', 'style.css'), '/* style */');
    const site = path.join(base, 'site');
    rmSync(site, { recursive: true, force: true });
    const exported = await exportSite({ roots: [suite], outDirectory: site, appDirectory: app });
    expect([exported.suites, exported.runs, exported.sampleLogs]).toEqual([1, 6, 6]);
    // Each task set's three runs, compared both ways round.
    expect(exported.comparisons).toBe(2 * 3 * 2);
    const siteScript = readFileSync(path.join(site, 'data', 'site.js'), 'utf8');
    const staticSite = JSON.parse(siteScript.replace(/^window\.__ASSAY_STATIC__=/, '').replace(/;\n$/, ''));
    const store = new ViewerStore([suite]);
    expect(staticSite.suites).toEqual(await store.suites());
    const id = staticSite.suites.suites[0].id as string;
    const dataOf = (file: string, key: string) => {
      const text = readFileSync(path.join(site, 'data', file), 'utf8');
      const start = `window.__assayData(${JSON.stringify(key)},`;
      expect(text.startsWith(start)).toBe(true);
      return JSON.parse(text.slice(start.length).replace(/\);\n$/, ''));
    };
    expect(dataOf(staticSite.suiteFiles[id], `suite:${id}`)).toEqual(await store.suite(id));
    for (const matrix of summaryOnDisk.head_to_head) {
      const key = `${id}/${matrix.scope}/${matrix.name}`;
      expect(dataOf(staticSite.headToHeadFiles[key], `head-to-head:${key}`)).toEqual(matrix);
    }
    // The drill-down's compare links need each pair of a task set's runs: the export has them.
    const detail = await store.suite(id);
    const [one, two] = detail.cellRuns.filter((cell) => cell.taskSet === 'first');
    expect(staticSite.compareFiles[`${one.run.id}..${two.run.id}`]).toMatch(/^c-.*\.js$/);
  });

  it('a run with a latency cap carries its timed-out docs per task; one without, none', async () => {
    const root = tempDir('assay-view-timeouts-');
    writeScoredRun(path.join(root, 'capped'), '2026-01-01T00-00-00.000000', { t: [1, 0, 1] });
    writeScoredRun(path.join(root, 'plain'), '2026-01-01T00-00-01.000000', { t: [1, 0, 1] });
    const cappedFile = path.join(root, 'capped', 'results_2026-01-01T00-00-00.000000.json');
    const results = JSON.parse(readFileSync(cappedFile, 'utf8'));
    // As assay writes it under `--max_latency_s 2` with three docs of t over the cap (results.json `timeouts`).
    results.timeouts = { max_latency_s: 2, samples: 3, by_task: { t: 3 } };
    writeFileSync(cappedFile, JSON.stringify(results));
    const { runs } = await new ViewerStore([root]).runs();
    expect(Object.fromEntries(runs.map((run) => [run.label.split(path.sep)[0], run.timeouts]))).toEqual({
      capped: { maxLatencyS: 2, byTask: { t: 3 } },
      plain: null,
    });
  });
});
