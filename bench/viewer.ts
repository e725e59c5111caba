/**
 * Issue 7's figures: the runs page paints in < 1.5 s, and a 100,000-sample task (≈200 MB of sample log)
 * shows its first page in < 2 s. Each is reported beside a same-run baseline: loading a one-line static
 * page from a loopback server in the same browser.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startViewerServer } from '../src/view/server.js';
import { chromiumInstalled, launchChromium } from '../test/support/chromium.js';
import { median } from './median.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');
const SAMPLES = 100_000;

function run(args: string[]): void {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`assay ${args.join(' ')}: ${result.stderr}`);
}

/** Replaces a real run's sample log with SAMPLES lines cloned from its first, padded to ~2 KB each. */
async function inflateSampleLog(directory: string): Promise<{ file: string; bytes: number }> {
  const name = (await readdir(directory)).find((entry) => entry.startsWith('samples_arithmetic_'));
  if (!name) throw new Error('no sample log');
  const file = path.join(directory, name);
  const template = JSON.parse((await readFile(file, 'utf8')).split('\n')[0]) as Record<string, unknown> & {
    arguments: { gen_args_0: { arg_0: string } };
  };
  const padding = ' Lorem ipsum dolor sit amet, consectetur adipiscing elit.'.repeat(15);
  const out = createWriteStream(file);
  for (let i = 0; i < SAMPLES; i++) {
    const line = {
      ...template,
      doc_id: i,
      arguments: { gen_args_0: { ...template.arguments.gen_args_0, arg_0: `Question ${i}:${padding}` } },
      resps: [[` answer ${i}${padding}`]],
      filtered_resps: [` answer ${i}`],
      exact_match: i % 3 === 0 ? 1 : 0,
    };
    if (!out.write(`${JSON.stringify(line)}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return { file, bytes: (await stat(file)).size };
}

export async function runViewerBench(report: (line: string) => void): Promise<void> {
  if (!chromiumInstalled()) {
    report('viewer: skipped: chromium not installed');
    return;
  }
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-view-'));
  const staticServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><p id="ready">static</p>');
  });
  const browser = await launchChromium();
  try {
    for (let seed = 0; seed < 10; seed++) {
      run([
        'run',
        '--model',
        'dummy',
        '--model_args',
        `seed=${seed}`,
        '--tasks',
        'examples/tasks/multiple-choice.jsonl',
        'examples/tasks/generation.jsonl',
        '--output_path',
        path.join(work, `runs/seed${seed}`),
        '--log_samples',
      ]);
    }
    run([
      'run',
      '--model',
      'dummy',
      '--tasks',
      'examples/tasks/arithmetic.jsonl',
      '--output_path',
      path.join(work, 'big'),
      '--log_samples',
    ]);
    const big = await inflateSampleLog(path.join(work, 'big', 'dummy'));

    await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve));
    const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`;
    const timeLoad = async (url: string, selector: string): Promise<number> => {
      const page = await browser.newPage();
      const start = performance.now();
      await page.goto(url);
      await page.waitForSelector(selector, { timeout: 30_000 });
      const elapsed = performance.now() - start;
      await page.close();
      return elapsed;
    };

    const baseline: number[] = [];
    for (let i = 0; i < 7; i++) baseline.push(await timeLoad(staticUrl, '#ready'));

    // Runs page: a fresh server each time, so nothing is warm on the server side.
    const runsTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const server = await startViewerServer({
        roots: [path.join(work, 'runs'), path.join(work, 'big')],
        port: 0,
      });
      runsTimes.push(await timeLoad(`${server.url}#/`, '[data-testid="runs-table"] tbody tr'));
      await server.close();
    }
    report(
      `viewer runs page (11 runs): first paint of the table median ${median(runsTimes).toFixed(0)} ms, max ${Math.max(...runsTimes).toFixed(0)} ms (target < 1500 ms); static page baseline ${median(baseline).toFixed(0)} ms; ratio ${(median(runsTimes) / median(baseline)).toFixed(1)}×`,
    );

    // First page of the 100,000-sample log, from a cold server (the index is built on this request).
    const firstPage: number[] = [];
    const fullIndex: number[] = [];
    for (let i = 0; i < 3; i++) {
      const server = await startViewerServer({ roots: [path.join(work, 'big')], port: 0 });
      const id = (await server.store.runs()).runs[0].id;
      firstPage.push(await timeLoad(`${server.url}#/run/${id}/samples/arithmetic`, '.sample-row[data-doc]'));
      const start = performance.now();
      await server.store
        .indexFor((await server.store.refresh()).runs[0], 'arithmetic')
        .waitFor(Number.POSITIVE_INFINITY);
      fullIndex.push(performance.now() - start);
      await server.close();
    }
    report(
      `viewer samples page, ${SAMPLES.toLocaleString('en-US')} samples (${(big.bytes / 1e6).toFixed(0)} MB log): first page median ${median(firstPage).toFixed(0)} ms, max ${Math.max(...firstPage).toFixed(0)} ms (target < 2000 ms); static page baseline ${median(baseline).toFixed(0)} ms; whole-log index finished ${median(fullIndex).toFixed(0)} ms later`,
    );
  } finally {
    await browser.close();
    staticServer.close();
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await runViewerBench((line) => process.stdout.write(`${line}\n`));
}
