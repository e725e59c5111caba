/**
 * Issue 5's figure: `assay run --tasks mmlu --limit 1 --predict_only --model dummy` with a warm Hub
 * cache, all 57 subjects (target < 3 s wall). The data comes from a loopback Hub (test/fakes/hub.ts)
 * serving MMLU-sized synthetic parquet (14,042 test docs over 57 subjects + 5 dev docs each), so the
 * real client, cache and reader run. Baselines from the same run: bare node startup, and the same
 * command on one subject.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { conversionBranchDataset, startFakeHub } from '../test/fakes/hub.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');

/** Async: the loopback Hub lives in this process and must keep answering while the CLI runs. */
function timed(args: string[], env: Record<string, string | undefined>): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) =>
      status === 0
        ? resolve(performance.now() - start)
        : reject(new Error(`${args.join(' ')} failed: ${stderr}`)),
    );
  });
}

async function median(runs: number, measure: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await measure());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function runHubBench(report: (line: string) => void): Promise<void> {
  const subjects = readdirSync(path.join(root, 'tasks', 'mmlu', 'default'))
    .filter((name) => /^mmlu_.*\.yaml$/.test(name))
    .map((name) => name.slice('mmlu_'.length, -'.yaml'.length));
  const perSubject = Math.ceil(14042 / subjects.length);
  const configs: Record<string, Record<string, Record<string, unknown>[]>> = {};
  for (const subject of subjects) {
    const doc = (split: string, index: number) => ({
      question: `Synthetic ${subject} ${split} question ${index}: which option best completes the statement about this topic?`,
      subject,
      choices: [
        `first option ${index}`,
        `second option ${index}`,
        `third option ${index}`,
        `fourth option ${index}`,
      ],
      answer: index % 4,
    });
    configs[subject] = {
      test: Array.from({ length: perSubject }, (_, i) => doc('test', i)),
      dev: Array.from({ length: 5 }, (_, i) => doc('dev', i)),
    };
  }
  const hub = await startFakeHub({ 'cais/mmlu': conversionBranchDataset(configs) });
  const cache = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-hub-'));
  try {
    const online = { HF_ENDPOINT: hub.endpoint, HF_HUB_CACHE: cache, HF_HUB_OFFLINE: undefined };
    const offline = { ...online, HF_HUB_OFFLINE: '1' };
    const fetch = await timed([bin, 'data', 'fetch', '--tasks', 'mmlu'], online);
    // --predict_only needs --output_path (as in lm-eval): the samples are written there.
    const run = [
      'run',
      '--tasks',
      'mmlu',
      '--limit',
      '1',
      '--predict_only',
      '--model',
      'dummy',
      '--output_path',
      path.join(cache, 'out'),
    ];
    const warmOnline = await median(5, () => timed([bin, ...run], online));
    const warmOffline = await median(5, () => timed([bin, ...run], offline));
    const oneSubject = await median(5, () =>
      timed([bin, ...run.map((arg) => (arg === 'mmlu' ? 'mmlu_anatomy' : arg))], offline),
    );
    const node = await median(5, () => timed(['-e', '0'], {}));
    report(
      `assay run --tasks mmlu --limit 1 --predict_only --model dummy, warm Hub cache, 57 subjects (${perSubject * subjects.length} test docs): ` +
        `median ${warmOnline.toFixed(0)} ms with the Hub reachable (one revision lookup), ${warmOffline.toFixed(0)} ms with HF_HUB_OFFLINE=1 (target < 3000 ms); ` +
        `one subject ${oneSubject.toFixed(0)} ms; bare node ${node.toFixed(0)} ms; cold \`assay data fetch --tasks mmlu\` from loopback ${fetch.toFixed(0)} ms`,
    );
  } finally {
    await hub.close();
    await rm(cache, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runHubBench((line) => process.stdout.write(`${line}\n`));
}
