/**
 * npm run bench: the figures the issues name, each as a ratio against a baseline measured in the same run.
 * Absolute times on shared machines are noisy; ratios travel better.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTaskTree } from './gen-task-tree.js';
import { median } from './median.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');

function timeCommand(args: string[], runs: number, env?: (run: number) => Record<string, string>): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: env ? { ...process.env, ...env(i) } : process.env,
    });
    times.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  }
  return median(times);
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

/** `npm run bench -- gguf ppl` runs only the named sections; no names: all of them. */
const SECTIONS = [
  'core',
  'index',
  'startup',
  'floor',
  'served',
  'stats',
  'http',
  'sandbox',
  'viewer',
  'hub',
  'gguf',
  'ppl',
  'python',
] as const;
const only = process.argv.slice(2);
for (const name of only) {
  if (!(SECTIONS as readonly string[]).includes(name)) {
    process.stderr.write(
      `bench: unknown section ${JSON.stringify(name)}; sections: ${SECTIONS.join(', ')}\n`,
    );
    process.exit(2);
  }
}
const wanted = (name: (typeof SECTIONS)[number]) => only.length === 0 || only.includes(name);

const report = (line: string) => {
  process.stdout.write(`${line}\n`);
};

if (wanted('core')) {
  // 1. assay --help
  const nodeBaseline = timeCommand(['-e', '0'], 15);
  const help = timeCommand([bin, '--help'], 15);
  report(
    `assay --help: median ${help.toFixed(0)} ms (target < 150 ms); bare node startup ${nodeBaseline.toFixed(0)} ms; ratio ${(help / nodeBaseline).toFixed(2)}×`,
  );

  // 2. assay ls tasks over 10,000 generated YAMLs with include chains
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-'));
  try {
    const tree = path.join(work, 'tree');
    await generateTaskTree(tree, { tasks: 10000 });
    const files = await walk(tree);
    const readStart = performance.now();
    await Promise.all(files.map((file) => readFile(file)));
    const rawRead = performance.now() - readStart;
    // A fresh cache folder for each run: this is the cold figure (the `index` section has the warm one).
    const ls = timeCommand([bin, 'ls', 'tasks', '--include_path', tree], 5, (run) => ({
      ASSAY_CACHE_DIR: path.join(work, `cache-${run}`),
    }));
    report(
      `assay ls tasks, ${files.length} files (10,000 task YAMLs with include chains): median ${ls.toFixed(0)} ms (target < 2000 ms); reading every file raw ${rawRead.toFixed(0)} ms; bare node ${nodeBaseline.toFixed(0)} ms`,
    );

    // 3. Request building for an MMLU-sized task: 14,042 docs, 4 choices, 5-shot
    const mmlu = path.join(work, 'mmlu');
    await mkdir(path.join(mmlu, 'data'), { recursive: true });
    const doc = (i: number) =>
      JSON.stringify({
        question: `Synthetic question ${i}: which option best completes the statement about topic ${i % 57}?`,
        choices: [`first option ${i}`, `second option ${i}`, `third option ${i}`, `fourth option ${i}`],
        answer: i % 4,
        subject: `subject_${i % 57}`,
      });
    await writeFile(
      path.join(mmlu, 'data', 'test.jsonl'),
      `${Array.from({ length: 14042 }, (_, i) => doc(i)).join('\n')}\n`,
    );
    await writeFile(
      path.join(mmlu, 'data', 'dev.jsonl'),
      `${Array.from({ length: 5 }, (_, i) => doc(100000 + i)).join('\n')}\n`,
    );
    await writeFile(
      path.join(mmlu, 'mmlu_synthetic.yaml'),
      [
        'task: mmlu_synthetic',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: data/test.jsonl',
        '    dev: data/dev.jsonl',
        'test_split: test',
        'fewshot_split: dev',
        'fewshot_config:',
        '  sampler: first_n',
        'output_type: multiple_choice',
        'description: "The following are multiple choice questions (with answers) about {{subject}}.\\n\\n"',
        'doc_to_text: "{{question.strip()}}\\nA. {{choices[0]}}\\nB. {{choices[1]}}\\nC. {{choices[2]}}\\nD. {{choices[3]}}\\nAnswer:"',
        'doc_to_choice: ["A", "B", "C", "D"]',
        'doc_to_target: answer',
        'num_fewshot: 5',
        '',
      ].join('\n'),
    );
    const output = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'bench', 'build-requests.ts'),
        path.join(mmlu, 'mmlu_synthetic.yaml'),
      ],
      {
        cwd: root,
      },
    ).toString();
    const figures = JSON.parse(output.trim().split('\n').pop() ?? '{}') as {
      docs: number;
      requests: number;
      ms: number;
      baselineMs: number;
      maxRssMb: number;
    };
    report(
      `build requests, MMLU-sized (${figures.docs} docs, ${figures.requests} requests, 5-shot): ${figures.ms.toFixed(0)} ms (target < 3000 ms), peak RSS ${figures.maxRssMb.toFixed(0)} MB (target < 1024 MB); reading + JSON-parsing the data alone ${figures.baselineMs.toFixed(0)} ms; ratio ${(figures.ms / figures.baselineMs).toFixed(1)}×`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// The per-issue scripts, in order.
const scripts: Array<[(typeof SECTIONS)[number], () => Promise<void>]> = [
  // Task index (issue 14): cold and warm, synthetic and lm-eval's tree (ASSAY_BENCH_LM_EVAL_TASKS), vs lm-eval's TaskManager.
  ['index', async () => (await import('./index.js')).runIndexBench(report)],
  // Start-up (issues 29, 33): modules loaded and time of --help, ls tasks and a dummy run, against node -e 0.
  ['startup', async () => (await import('./startup.js')).runStartupBench(report)],
  // Statistics (issue 4): bootstrap stderr and assay compare at scale.
  // Overhead at the floor (issue 33): the MMLU-sized 5-shot run vs lm-eval's, peak RSS against docs.
  ['floor', async () => (await import('./floor.js')).runFloorBench(report)],
  // The served run's overhead beyond the server's busy time (issue 33), against lm-eval's.
  ['served', async () => (await import('./served.js')).runServedBench(report)],
  ['stats', async () => (await import('./stats.js')).runStatsBench(report)],
  // HTTP backends (issue 9): throughput at 200 ms latency, CPU per request, RSS at 100,000 requests.
  ['http', async () => (await import('./http.js')).httpFigures(report)],
  // Code sandbox (issue 6): per-run overhead and HumanEval-sized throughput.
  ['sandbox', async () => (await import('./sandbox.js')).runSandboxBench(report)],
  // Viewer (issue 7): runs page paint and the first page of a 100,000-sample log, in headless chromium.
  ['viewer', async () => (await import('./viewer.js')).runViewerBench(report)],
  // Built-in tasks and Hub data (issue 5): mmlu over a warm Hub cache.
  ['hub', async () => (await import('./hub.js')).runHubBench(report)],
  // gguf backend (issue 3): multiple-choice prefix sharing, perplexity scoring vs raw prompt processing.
  ['gguf', async () => (await import('./gguf.js')).ggufFigures(report)],
  // Perplexity modes (issue 8): scored tokens/s per mode vs raw prompt processing, 32K vocabulary.
  ['ppl', async () => (await import('./ppl.js')).runPerplexityBench(report)],
  // Python bridge (issue 13): start-up, utils.py vs utils.ts on an MMLU-sized task, process_results, vs lm-eval.
  ['python', async () => (await import('./python.js')).runPythonBench(report)],
];
for (const [name, script] of scripts) if (wanted(name)) await script();
