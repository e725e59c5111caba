/**
 * The viewer over hostile folders: sample logs that are links out of the viewed folder, logs with bad
 * lines, and exports that fail half-way. Everything runs in-process on real files.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { discoverRuns } from './discover.js';
import { exportSite } from './export.js';
import { ViewerStore } from './store.js';

const STAMP = '2026-01-01T00-00-00.000000';

function sample(docId: number, correct: number) {
  return {
    doc_id: docId,
    doc: { q: `Q${docId}` },
    target: 'a',
    arguments: { gen_args_0: { arg_0: `prompt ${docId}`, arg_1: { until: [] } } },
    resps: [['a']],
    filtered_resps: ['a'],
    filter: 'none',
    metrics: ['exact_match'],
    doc_hash: `h${docId}`,
    exact_match: correct,
  };
}

/** A run folder with a results file for task `t`; returns the folder. */
function runFolder(root: string, name: string): string {
  const folder = path.join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, `results_${STAMP}.json`),
    JSON.stringify({
      results: { t: { alias: 't', 'exact_match,none': 0.5 } },
      'n-samples': { t: { original: 2, effective: 2 } },
      config: {},
      date: 1767225600,
      model_name: name,
    }),
  );
  return folder;
}

/** A built viewer app, as `npm run build:viewer` lays it out. */
function appDirectory(base: string): string {
  const app = path.join(base, 'app');
  mkdirSync(path.join(app, 'assets'), { recursive: true });
  writeFileSync(
    path.join(app, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script><link rel="stylesheet" href="/assets/style.css"></head><body></body></html>',
  );
  writeFileSync(path.join(app, 'assets', 'app.js'), 'console.log(1);');
  writeFileSync(path.join(app, 'assets', 'style.css'), 'body{}');
  return app;
}

describe('assay view never follows a link out of the viewed folders', () => {
  it('a sample log linking outside is not read, served or exported, and is reported', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'assay-view-links-'));
    const secret = path.join(base, 'secret.txt');
    writeFileSync(secret, 'root:x:0:0:TOP SECRET\n');
    const root = path.join(base, 'served');
    const folder = runFolder(root, 'm');
    symlinkSync(secret, path.join(folder, `samples_t_${STAMP}.jsonl`));
    // A link that stays inside the viewed folder is fine.
    const inside = runFolder(root, 'n');
    writeFileSync(path.join(inside, 'log.jsonl'), `${JSON.stringify(sample(0, 1))}\n`);
    symlinkSync(path.join(inside, 'log.jsonl'), path.join(inside, `samples_t_${STAMP}.jsonl`));

    const { runs, problems } = await discoverRuns([root]);
    const byModel = new Map(runs.map((run) => [run.summary.model, run]));
    expect(byModel.get('m')?.sampleFiles.size).toBe(0);
    expect(byModel.get('n')?.sampleFiles.get('t')).toBe(path.join(inside, 'log.jsonl'));
    expect(problems).toEqual([
      {
        file: path.join('m', `samples_t_${STAMP}.jsonl`),
        message: 'a link to a file outside the viewed folder; not read',
      },
    ]);
    const site = path.join(base, 'site');
    await exportSite({ roots: [root], outDirectory: site, appDirectory: appDirectory(base) });
    for (const name of readdirSync(path.join(site, 'data')))
      expect(readFileSync(path.join(site, 'data', name), 'utf8')).not.toContain('TOP SECRET');
  });
});

describe('a sample log with bad lines', () => {
  it('shows each bad line as a bad line and keeps the rest viewable, searchable and exportable', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'assay-view-bad-'));
    const root = path.join(base, 'served');
    const folder = runFolder(root, 'm');
    writeFileSync(
      path.join(folder, `samples_t_${STAMP}.jsonl`),
      [
        JSON.stringify(sample(0, 1)),
        '{"doc_id": 1, "trunc',
        '{"nope": 1}',
        JSON.stringify(sample(3, 0)),
        '',
      ].join('\n'),
    );
    const store = new ViewerStore([root]);
    const [run] = (await store.runs()).runs;
    const page = await store.samples(run.id, 't', { offset: 0, limit: 10 });
    expect(page.total).toBe(4);
    expect(page.items.map((item) => [item.line, item.docId, item.error])).toEqual([
      [0, 0, null],
      [1, -1, expect.stringMatching(/^line 2 of the sample log is not JSON: /)],
      [2, -1, expect.stringMatching(/^line 3 of the sample log is not a sample line: doc_id: /)],
      [3, 3, null],
    ]);
    const wrong = await store.samples(run.id, 't', { offset: 0, limit: 10, correct: 'incorrect' });
    expect(wrong.items.map((item) => item.docId)).toEqual([3]);
    const found = await store.samples(run.id, 't', { offset: 0, limit: 10, text: 'prompt 3' });
    expect(found.items.map((item) => item.docId)).toEqual([3]);

    const site = path.join(base, 'site');
    const summary = await exportSite({ roots: [root], outDirectory: site, appDirectory: appDirectory(base) });
    expect(summary).toMatchObject({ runs: 1, sampleLogs: 1 });
    const chunk = readFileSync(path.join(site, 'data', `s-${run.id}-0-0.js`), 'utf8');
    expect(chunk).toContain('line 2 of the sample log is not JSON');
  });
});

describe('assay view --export is all or nothing', () => {
  it('a failed export leaves no partial site, and says why (no internal error)', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'assay-view-export-'));
    const root = path.join(base, 'served');
    const folder = runFolder(root, 'm');
    writeFileSync(path.join(folder, `samples_t_${STAMP}.jsonl`), `${JSON.stringify(sample(0, 1))}\n`);
    const site = path.join(base, 'site');
    const error = await exportSite({
      roots: [root],
      outDirectory: site,
      appDirectory: path.join(base, 'not-built'),
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AssayError);
    expect(existsSync(site)).toBe(false);
    expect(readdirSync(base).sort()).toEqual(['served']);
    // An unwritable target is an AssayError too.
    const file = path.join(base, 'a-file');
    writeFileSync(file, 'x');
    const blocked = await exportSite({
      roots: [root],
      outDirectory: path.join(file, 'site'),
      appDirectory: appDirectory(base),
    }).catch((thrown: unknown) => thrown);
    expect(blocked).toBeInstanceOf(AssayError);
    expect((blocked as AssayError).message).toMatch(
      /^`outDirectory`: .*a-file is a file, not a folder \(ENOTDIR\)$/,
    );
  });

  it('replaces an earlier export whole, and refuses a folder that holds something else', async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'assay-view-export-'));
    const root = path.join(base, 'served');
    runFolder(root, 'm');
    const app = appDirectory(base);
    const site = path.join(base, 'site');
    await exportSite({ roots: [root], outDirectory: site, appDirectory: app });
    writeFileSync(path.join(site, 'data', 'stale.js'), 'old');
    await exportSite({ roots: [root], outDirectory: site, appDirectory: app });
    expect(existsSync(path.join(site, 'data', 'stale.js'))).toBe(false);
    expect(existsSync(path.join(site, 'index.html'))).toBe(true);
    expect(readdirSync(base).sort()).toEqual(['app', 'served', 'site']);

    const other = path.join(base, 'documents');
    mkdirSync(other);
    writeFileSync(path.join(other, 'thesis.tex'), 'keep me');
    const error = await exportSite({ roots: [root], outDirectory: other, appDirectory: app }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AssayError);
    expect((error as AssayError).message).toBe(
      `\`outDirectory\`: ${other} is not empty and is not an earlier export; give a new folder`,
    );
    expect(readdirSync(other)).toEqual(['thesis.tex']);
  });
});
