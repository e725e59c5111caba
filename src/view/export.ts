import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import { ensureDirectory } from '../util/output-directory.js';
import { type SampleView, VIEW_API_VERSION } from './api.js';
import { compareRuns } from './compare.js';
import type { DiscoveredRun } from './discover.js';
import { runDetail } from './run-detail.js';
import { sampleView } from './sample-view.js';
import { viewerAppDirectory } from './server.js';
import type { StaticCompareKey, StaticSampleIndex, StaticSite } from './static-data.js';
import { ViewerStore } from './store.js';

const CHUNK_SIZE = 1000;

export interface ExportOptions {
  roots: string[];
  outDirectory: string;
  appDirectory?: string;
}

export interface ExportSummary {
  directory: string;
  suites: number;
  runs: number;
  sampleLogs: number;
  comparisons: number;
  files: number;
}

function dataScript(key: string, value: unknown): string {
  return `window.__assayData(${JSON.stringify(key)},${JSON.stringify(value)});\n`;
}

/**
 * The app's page with its script and stylesheet inlined. Browsers refuse module scripts loaded from
 * file:// (their origin is null), but run inline ones, so the copy opens by double-click.
 */
async function inlinedPage(appDirectory: string): Promise<string> {
  let html: string;
  let script: string;
  let style: string;
  try {
    html = await readFile(path.join(appDirectory, 'index.html'), 'utf8');
    script = await readFile(path.join(appDirectory, 'assets', 'app.js'), 'utf8');
    style = await readFile(path.join(appDirectory, 'assets', 'style.css'), 'utf8');
  } catch (error) {
    throw new AssayError(
      'not_found',
      `the viewer app is not built in ${appDirectory} (run \`npm run build:viewer\`)`,
      { cause: error },
    );
  }
  const safeScript = script.replaceAll('</script', '<\\/script');
  const safeStyle = style.replaceAll('</style', '<\\/style');
  return html
    .replace(/<script type="module"[^>]*src="[^"]*app\.js"[^>]*><\/script>/, () => '')
    .replace(/<link rel="stylesheet"[^>]*>/, () => '')
    .replace('</head>', () => `<style>${safeStyle}</style>\n<script src="data/site.js"></script>\n</head>`)
    .replace('</body>', () => `<script type="module">${safeScript}</script>\n</body>`);
}

/** An earlier export: its page and data folder, nothing else. */
async function isEarlierExport(directory: string): Promise<boolean> {
  const names = (await readdir(directory)).sort();
  if (names.length === 0) return true;
  return (
    names.join('\n') === 'data\nindex.html' &&
    (await stat(path.join(directory, 'data', 'site.js')).catch(() => null))?.isFile() === true
  );
}

/** A Node fs error as the user sees it: the option, what failed, and the code. */
function exportError(directory: string, error: unknown): AssayError {
  if (error instanceof AssayError) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  return new AssayError(
    'io_error',
    `\`outDirectory\`: cannot write ${directory}: ${code ? `${code} (${message.replace(/^[A-Z]+: /, '').split(', ')[0]})` : message}`,
    { cause: error },
  );
}

/**
 * `assay view --export DIR`: the app and every page's data as static files that need no server. The
 * site is built in a hidden folder beside DIR and renamed into place whole, so a failed export leaves
 * no partial site, and a re-export replaces the earlier one in one step.
 */
export async function exportSite(options: ExportOptions): Promise<ExportSummary> {
  const directory = path.resolve(options.outDirectory);
  const parent = path.dirname(directory);
  await ensureDirectory(parent, '`outDirectory`');
  const existing = await stat(directory).catch(() => null);
  if (existing && !existing.isDirectory())
    throw new AssayError('io_error', `\`outDirectory\`: ${directory} is a file, not a folder`);
  if (existing && !(await isEarlierExport(directory))) {
    throw new AssayError(
      'bad_option',
      `\`outDirectory\`: ${directory} is not empty and is not an earlier export; give a new folder`,
    );
  }
  const page = await inlinedPage(options.appDirectory ?? viewerAppDirectory);
  let staging: string;
  try {
    staging = await mkdtemp(path.join(parent, `.${path.basename(directory)}.assay-export-`));
  } catch (error) {
    throw exportError(directory, error);
  }
  try {
    const summary = await buildSite(options, staging, page);
    await swapInto(staging, directory, Boolean(existing));
    return { ...summary, directory };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw exportError(directory, error);
  }
}

/** Renames the finished site over `directory`, keeping the earlier export until the new one is in place. */
async function swapInto(staging: string, directory: string, replace: boolean): Promise<void> {
  if (!replace) {
    await rename(staging, directory);
    return;
  }
  const old = `${staging}-old`;
  await rename(directory, old);
  try {
    await rename(staging, directory);
  } catch (error) {
    await rename(old, directory);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}

async function buildSite(
  options: ExportOptions,
  directory: string,
  page: string,
): Promise<Omit<ExportSummary, 'directory'>> {
  const store = new ViewerStore(options.roots.map((root) => path.resolve(root)));
  const { runs, problems } = await store.refresh(true);
  const dataDirectory = path.join(directory, 'data');
  await mkdir(dataDirectory);
  let files = 0;
  const write = async (name: string, text: string) => {
    await writeFile(path.join(dataDirectory, name), text);
    files++;
  };
  const suites = await store.discoveredSuites();
  const site: StaticSite = {
    runs: { version: VIEW_API_VERSION, runs: runs.map((run) => run.summary), problems },
    stars: await store.stars(),
    runFiles: {},
    sampleIndexFiles: {},
    compareFiles: {},
    suites: { suites: suites.suites.map((suite) => suite.listing), problems: suites.problems },
    suiteFiles: {},
    headToHeadFiles: {},
  };
  for (const suite of suites.suites) {
    const id = suite.listing.id;
    const detail = await store.suite(id);
    site.suiteFiles[id] = `suite-${id}.js`;
    await write(site.suiteFiles[id], dataScript(`suite:${id}`, detail));
    for (const [position, { scope, name }] of detail.headToHead.entries()) {
      const key = `${id}/${scope}/${name}`;
      site.headToHeadFiles[key] = `h-${id}-${position}.js`;
      await write(
        site.headToHeadFiles[key],
        dataScript(`head-to-head:${key}`, await store.headToHead(id, scope, name)),
      );
    }
  }
  let sampleLogs = 0;
  for (const run of runs) {
    const id = run.summary.id;
    site.runFiles[id] = `run-${id}.js`;
    await write(site.runFiles[id], dataScript(`run:${id}`, runDetail(run)));
    for (const [position, task] of [...run.sampleFiles.keys()].entries()) {
      const index = store.indexFor(run, task);
      await index.waitFor(Number.POSITIVE_INFINITY).catch((error: Error) => {
        throw new AssayError('bad_data', `cannot read sample log: ${error.message}`, {
          location: { file: run.sampleFiles.get(task) },
          cause: error,
        });
      });
      const key = `index:${id}/${task}`;
      const chunkFiles: string[] = [];
      for (let start = 0, chunk = 0; start < index.lineCount; start += CHUNK_SIZE, chunk++) {
        const lines = Array.from(
          { length: Math.min(CHUNK_SIZE, index.lineCount - start) },
          (_, i) => start + i,
        );
        const views: SampleView[] = (await index.readLines(lines)).map((sample, i) =>
          sampleView(sample, lines[i]),
        );
        const name = `s-${id}-${position}-${chunk}.js`;
        chunkFiles.push(name);
        await write(name, dataScript(`${key}:${chunk}`, views));
      }
      const staticIndex: StaticSampleIndex = {
        key,
        docIds: index.docIds,
        filterIds: index.filterIds,
        filters: index.filters,
        correct: index.correct,
        metrics: index.metrics,
        metricValues: index.metricValues.map((values) =>
          values.map((value) => (Number.isNaN(value) ? null : value)),
        ),
        chunkSize: CHUNK_SIZE,
        chunkFiles,
      };
      site.sampleIndexFiles[`${id}/${task}`] = `s-${id}-${position}.js`;
      await write(site.sampleIndexFiles[`${id}/${task}`], dataScript(key, staticIndex));
      sampleLogs++;
    }
  }
  // Every ordered pair sharing a logged task; the app merges pairs for three or more runs.
  let comparisons = 0;
  const logged = (run: DiscoveredRun) => new Set(run.sampleFiles.keys());
  for (const baseline of runs) {
    for (const candidate of runs) {
      if (baseline === candidate) continue;
      const shared = [...logged(baseline)].some((task) => logged(candidate).has(task));
      if (!shared) continue;
      const key: StaticCompareKey = `${baseline.summary.id}..${candidate.summary.id}`;
      site.compareFiles[key] = `c-${baseline.summary.id}-${candidate.summary.id}.js`;
      await write(
        site.compareFiles[key],
        dataScript(`compare:${key}`, await compareRuns([baseline, candidate], store.indexFor)),
      );
      comparisons++;
    }
  }
  await writeFile(path.join(dataDirectory, 'site.js'), `window.__ASSAY_STATIC__=${JSON.stringify(site)};\n`);
  await writeFile(path.join(directory, 'index.html'), page);
  return { suites: suites.suites.length, runs: runs.length, sampleLogs, comparisons, files: files + 2 };
}
