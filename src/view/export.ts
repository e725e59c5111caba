import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import type { SampleView } from './api.js';
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
      'bad_argument',
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

/** `assay view --export DIR`: the app and every page's data as static files that need no server. */
export async function exportSite(options: ExportOptions): Promise<ExportSummary> {
  const store = new ViewerStore(options.roots.map((root) => path.resolve(root)));
  const { runs, problems } = await store.refresh(true);
  const directory = path.resolve(options.outDirectory);
  const dataDirectory = path.join(directory, 'data');
  await mkdir(dataDirectory, { recursive: true });
  const page = await inlinedPage(options.appDirectory ?? viewerAppDirectory);
  let files = 0;
  const write = async (name: string, text: string) => {
    await writeFile(path.join(dataDirectory, name), text);
    files++;
  };
  const site: StaticSite = {
    runs: { version: 'assay.view/v1', runs: runs.map((run) => run.summary), problems },
    runFiles: {},
    sampleIndexFiles: {},
    compareFiles: {},
  };
  let sampleLogs = 0;
  for (const run of runs) {
    const id = run.summary.id;
    site.runFiles[id] = `run-${id}.js`;
    await write(site.runFiles[id], dataScript(`run:${id}`, runDetail(run)));
    for (const [position, task] of [...run.sampleFiles.keys()].entries()) {
      const index = store.indexFor(run, task);
      await index.waitFor(Number.POSITIVE_INFINITY);
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
  return { directory, runs: runs.length, sampleLogs, comparisons, files: files + 2 };
}
