/**
 * Issue 33's served figure: a GSM8K-sized generation run (1,319 docs, 5-shot, lm-eval's gsm8k.yaml shape)
 * through local-completions against bench/served-server.ts, a stand-in vLLM server that answers each
 * request after a fixed service time and keeps its busy time. A harness's overhead is what its whole
 * process takes beyond the server's busy time: start-up and planning before the first request, idle gaps
 * while the server waits for the next request, scoring and output after the last answer. assay's
 * `assay run` and lm-eval's own `simple_evaluate` (LM_EVAL_SRC=<checkout>, LM_EVAL_PYTHON with aiohttp,
 * requests, tenacity, tqdm, numpy, jinja2 and PyYAML; `datasets`, dill, sacrebleu and pandas are stood in
 * as in bench/python.ts; LM_EVAL_EXTRA_SITE appends folders to its sys.path) run the same task folder with the same settings, interleaved, median of
 * ASSAY_BENCH_SERVED_RUNS (default 5). Without LM_EVAL_SRC, assay's side alone is reported.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median } from './median.js';
import { lmEvalStandIns } from './python.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'assay.js');
const DOCS = 1319;
const SERVICE_MS = 20;
const CONCURRENT = 8;

const TASK = `task: gsm_served
dataset_path: json
dataset_kwargs:
  data_files:
    train: train.jsonl
    test: test.jsonl
output_type: generate_until
training_split: train
fewshot_split: train
test_split: test
doc_to_text: "Question: {{question}}\\nAnswer:"
doc_to_target: "{{answer}}"
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
    ignore_case: true
    ignore_punctuation: false
    regexes_to_ignore:
      - ","
      - "\\\\$"
      - "(?s).*#### "
      - "\\\\.$"
generation_kwargs:
  until:
    - "Question:"
    - "</s>"
    - "<|im_end|>"
  do_sample: false
  temperature: 0.0
repeats: 1
num_fewshot: 5
filter_list:
  - name: "strict-match"
    filter:
      - function: "regex"
        regex_pattern: "#### (\\\\-?[0-9\\\\.\\\\,]+)"
      - function: "take_first"
  - name: "flexible-extract"
    filter:
      - function: "regex"
        group_select: -1
        regex_pattern: "(-?[$0-9.,]{2,})|(-?[0-9]+)"
      - function: "take_first"
metadata:
  version: 3.0
`;

function doc(i: number): string {
  const a = 10 + (i % 90);
  const b = 2 + (i % 7);
  return JSON.stringify({
    question: `Problem ${i}: a shop sold ${a} clips in April and ${b} times fewer in May. How many clips did it sell in all?`,
    answer: `It sold ${a}/${b} = ${(a / b).toFixed(2)} clips in May.\nIn all: ${a} + ${(a / b).toFixed(2)} = ${(a + a / b).toFixed(2)}.\n#### ${Math.round(a + a / b)}`,
  });
}

/** Writes the task folder (`gsm_served.yaml`, 5 train docs, DOCS test docs): `node --import tsx bench/served.ts <folder>`. */
export async function writeServedTask(folder: string): Promise<void> {
  await writeFile(path.join(folder, 'gsm_served.yaml'), TASK);
  await writeFile(
    path.join(folder, 'train.jsonl'),
    `${Array.from({ length: 5 }, (_, i) => doc(100_000 + i)).join('\n')}\n`,
  );
  await writeFile(
    path.join(folder, 'test.jsonl'),
    `${Array.from({ length: DOCS }, (_, i) => doc(i)).join('\n')}\n`,
  );
}

/** lm-eval's own simple_evaluate with its local-completions model; prints its phases as JSON. */
const LM_EVAL_SERVED = `
import importlib.abc, importlib.machinery, json, sys, time, types
start = time.perf_counter()
stub_dir, source, task_dir, task, model_args = sys.argv[1:6]
sys.path[:0] = [stub_dir, source]
# LM_EVAL_EXTRA_SITE: folders searched after the interpreter's own (Debian's dist-packages for aiohttp, say).
sys.path.extend(p for p in __import__('os').environ.get('LM_EVAL_EXTRA_SITE', '').split(':') if p)

${lmEvalStandIns(['dill', 'sacrebleu', 'pandas', 'datasets'])}
from lm_eval import evaluator
from lm_eval.tasks import TaskManager
imported = time.perf_counter()
manager = TaskManager(include_path=task_dir)
indexed = time.perf_counter()
results = evaluator.simple_evaluate(model="local-completions", model_args=model_args, tasks=[task], task_manager=manager)
done = time.perf_counter()
print(json.dumps({"total": done - start, "import": imported - start, "index": indexed - imported,
                  "exact_match": results["results"][task]["exact_match,strict-match"]}))
`;

interface ServerStats {
  busyMs: number;
  requests: number;
  firstMs?: number;
  lastMs?: number;
}

interface Side {
  wallMs: number;
  stats: ServerStats;
  /** lm-eval's side: the seconds its TaskManager took to index its own task tree and the folder. */
  indexS?: number;
}

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'served-server.ts'), String(SERVICE_MS)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [url] = (await once(lines, 'line')) as [string];
  return { url, child };
}

/** One request on a connection of its own: the runs block this process for a minute, longer than a kept-alive socket lives. */
function call(url: string, method: 'GET' | 'POST'): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

async function measure(url: string, command: string, args: string[], cwd: string): Promise<Side> {
  await call(`${url}/reset`, 'POST');
  const start = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const wallMs = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr.slice(-3000)}`);
  const stats = JSON.parse(await call(`${url}/stats`, 'GET')) as ServerStats;
  if (stats.requests !== DOCS)
    throw new Error(`${command}: the server answered ${stats.requests} requests, not ${DOCS}`);
  const last = result.stdout.trim().split('\n').pop() ?? '';
  const indexS = last.startsWith('{') ? (JSON.parse(last) as { index?: number }).index : undefined;
  return { wallMs, stats, indexS };
}

function describe(name: string, sides: Side[]): { overhead: number; line: string } {
  const overhead = median(sides.map((side) => side.wallMs - side.stats.busyMs));
  const before = median(sides.map((side) => side.stats.firstMs ?? 0));
  const after = median(sides.map((side) => side.wallMs - (side.stats.lastMs ?? 0)));
  const gaps = median(
    sides.map((side) => (side.stats.lastMs ?? 0) - (side.stats.firstMs ?? 0) - side.stats.busyMs),
  );
  const wall = median(sides.map((side) => side.wallMs));
  const busy = median(sides.map((side) => side.stats.busyMs));
  return {
    overhead,
    line: `${name}: wall ${(wall / 1000).toFixed(2)} s, server busy ${(busy / 1000).toFixed(2)} s, overhead ${(overhead / 1000).toFixed(2)} s (before the first request ${(before / 1000).toFixed(2)} s, idle gaps ${(gaps / 1000).toFixed(2)} s, after the last answer ${(after / 1000).toFixed(2)} s)`,
  };
}

export async function runServedBench(report: (line: string) => void): Promise<void> {
  const runs = Number(process.env.ASSAY_BENCH_SERVED_RUNS ?? 5);
  const source = process.env.LM_EVAL_SRC;
  const python = process.env.LM_EVAL_PYTHON ?? 'python3';
  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-served-'));
  const server = await startServer();
  try {
    await writeServedTask(work);
    await writeFile(path.join(work, 'lm_eval_served.py'), LM_EVAL_SERVED);
    // importlib.metadata.version("lm_eval") of a checkout that is not installed: a stand-in record.
    const stubs = path.join(work, 'stubs');
    await mkdir(path.join(stubs, 'lm_eval-0.0.0.dist-info'), { recursive: true });
    await writeFile(
      path.join(stubs, 'lm_eval-0.0.0.dist-info', 'METADATA'),
      'Metadata-Version: 2.1\nName: lm_eval\nVersion: 0.0.0\n',
    );
    const base = `${server.url}/v1/completions`;
    const assayArgs = [
      bin,
      'run',
      '--model',
      'local-completions',
      '--model_args',
      `model=bench,base_url=${base},num_concurrent=${CONCURRENT},tokenized_requests=false`,
      '--tasks',
      'gsm_served',
      '--include_path',
      work,
    ];
    const lmEvalArgs = [
      path.join(work, 'lm_eval_served.py'),
      path.join(work, 'stubs'),
      source ?? '',
      work,
      'gsm_served',
      `model=bench,base_url=${base},num_concurrent=${CONCURRENT},tokenizer_backend=None,tokenized_requests=False`,
    ];
    const assay: Side[] = [];
    const lmEval: Side[] = [];
    for (let i = 0; i < runs; i++) {
      assay.push(await measure(server.url, process.execPath, assayArgs, work));
      if (source) lmEval.push(await measure(server.url, python, lmEvalArgs, work));
    }
    report(
      `served (issue 33): ${DOCS} docs of a GSM8K-shaped 5-shot task, local-completions, num_concurrent=${CONCURRENT}, server service time ${SERVICE_MS} ms, median of ${runs}`,
    );
    const ours = describe('  assay', assay);
    report(ours.line);
    if (source) {
      const theirs = describe('  lm-eval', lmEval);
      report(theirs.line);
      report(
        `  overhead ratio lm-eval ÷ assay: ${(theirs.overhead / ours.overhead).toFixed(2)}× (target ≥ 3×)`,
      );
      // lm-eval's TaskManager indexes its whole task tree on every run; without that time as well:
      const unindexed = median(
        lmEval.map((side) => side.wallMs - side.stats.busyMs - (side.indexS ?? 0) * 1000),
      );
      report(
        `  the same without lm-eval's task index (median ${median(lmEval.map((side) => side.indexS ?? 0)).toFixed(2)} s): lm-eval overhead ${(unindexed / 1000).toFixed(2)} s, ratio ${(unindexed / ours.overhead).toFixed(2)}×`,
      );
    } else {
      report('  lm-eval: skipped (set LM_EVAL_SRC to an lm-evaluation-harness checkout and LM_EVAL_PYTHON)');
    }
  } finally {
    server.child.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2])
  await writeServedTask(process.argv[2]);
