/**
 * The Python bridge (issue 13): start-up, an MMLU-sized task whose process_docs and doc_to_text live in
 * a utils.py against the same task with a TypeScript utils.ts (same run, interleaved rounds), the
 * per-doc overhead of process_results, and a whole MMLU-sized run against lm-eval's own run of the same
 * task folder with an instant model.
 *
 * The interpreter is ASSAY_PYTHON or python3 on PATH. The lm-eval comparison needs lm-eval's source
 * (LM_EVAL_SRC=<checkout>) and an interpreter with its light dependencies (LM_EVAL_PYTHON, default
 * python3: numpy, jinja2, PyYAML, requests); torch-free, it stubs what lm-eval imports but this run
 * never calls (tqdm, dill, sacrebleu, pandas, and `datasets` apart from a list-backed `Dataset` and a
 * `load_dataset` that reads the JSONL).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planTask } from '../src/evaluate/plan.js';
import type { LoglikelihoodResult } from '../src/models/backend.js';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { chooseInterpreter } from '../src/python/interpreter.js';
import { createPythonRef } from '../src/python/python-ref.js';
import { PythonRuntime } from '../src/python/python-runtime.js';
import type { Doc } from '../src/task-config/doc.js';
import { resolveTasks } from '../src/tasks/manager.js';
import { startPythonFor } from '../src/tasks/python-for-tasks.js';
import { leafTasks } from '../src/tasks/task.js';
import { median } from './median.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = 14042;

const TS_UTILS = `type Doc = Record<string, any>;

export function process_docs(docs: Doc[]): Doc[] {
  return docs.map((doc) => ({ ...doc, question: doc.question.trim(), subject_name: doc.subject.replaceAll('_', ' ') }));
}

export function doc_to_text(doc: Doc): string {
  const c = doc.choices;
  return \`\${doc.question}\\nA. \${c[0]}\\nB. \${c[1]}\\nC. \${c[2]}\\nD. \${c[3]}\\nAnswer:\`;
}

export function process_results(doc: Doc, results: Array<{ logprob: number }>): Record<string, number> {
  let best = 0;
  for (let i = 1; i < results.length; i++) if (results[i].logprob > results[best].logprob) best = i;
  return { acc: best === doc.answer ? 1 : 0 };
}
`;

const PY_UTILS = `import datasets


def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
    return dataset.map(lambda doc: {"question": doc["question"].strip(), "subject_name": doc["subject"].replace("_", " ")})


def doc_to_text(doc):
    c = doc["choices"]
    return f"{doc['question']}\\nA. {c[0]}\\nB. {c[1]}\\nC. {c[2]}\\nD. {c[3]}\\nAnswer:"


def process_results(doc, results):
    lls = [ll for ll, _ in results]
    return {"acc": 1.0 if lls.index(max(lls)) == doc["answer"] else 0.0}


def trivial_results(doc, results):
    return {"acc": 1.0}
`;

function yaml(name: string, data: string): string {
  return [
    `task: ${name}`,
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    `    test: ${data}`,
    'test_split: test',
    'output_type: multiple_choice',
    'process_docs: !function utils.process_docs',
    'doc_to_text: !function utils.doc_to_text',
    'doc_to_choice: ["A", "B", "C", "D"]',
    'doc_to_target: answer',
    'metric_list:',
    '  - metric: acc',
    '    aggregation: mean',
    '    higher_is_better: true',
    '',
  ].join('\n');
}

/** lm-eval's own run of the task folder, with an LM that answers at once; prints its timings as JSON. */
/**
 * Python that stands in for modules lm-eval imports but a measured run never uses (each attribute another
 * stand-in), and for `datasets` a list-backed `Dataset` and a `load_dataset` that reads JSONL files (paths
 * relative to the working folder, as `datasets` reads them): lighter than Arrow, so lm-eval's figures are
 * lower bounds. Needs `importlib.abc, importlib.machinery, json, types` imported.
 */
export function lmEvalStandIns(stubbed: string[]): string {
  return `STUBBED = ${JSON.stringify(stubbed)}
class Stub(types.ModuleType):
    # Modules lm-eval imports but this run never uses: any attribute is another stub.
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Stub(self.__name__ + "." + name)
    def __call__(self, *args, **kwargs):
        return args[0] if args else self

class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    names = set(STUBBED)
    def find_spec(self, name, path=None, target=None):
        return importlib.machinery.ModuleSpec(name, self, is_package=True) if name.split(".")[0] in self.names else None
    def create_module(self, spec):
        return Stub(spec.name)
    def exec_module(self, module):
        module.__path__ = []
sys.meta_path.append(StubFinder())

class Dataset:
    # A list-backed stand-in for datasets.Dataset: lighter than Arrow, so lm-eval's figure is a lower bound.
    def __init__(self, rows):
        self.rows = rows
    def map(self, function, **kwargs):
        return Dataset([{**row, **function(dict(row))} for row in self.rows])
    @property
    def features(self):
        return {key: None for key in (self.rows[0] if self.rows else {})}
    def __len__(self):
        return len(self.rows)
    def __iter__(self):
        return iter(self.rows)
    def __getitem__(self, key):
        return self.rows[key]

def load_dataset(path=None, name=None, data_files=None, **kwargs):
    return {split: Dataset([json.loads(line) for line in open(file) if line.strip()]) for split, file in data_files.items()}

import datasets
datasets.__version__ = "3.0.0"
datasets.Dataset = Dataset
datasets.load_dataset = load_dataset
`;
}

export const LM_EVAL_HARNESS = `
import importlib.abc, importlib.machinery, json, sys, time, types
start = time.perf_counter()
stub_dir, source, task_dir, task = sys.argv[1:5]
num_fewshot = int(sys.argv[5]) if len(sys.argv) > 5 else 0
bootstrap_iters = int(sys.argv[6]) if len(sys.argv) > 6 else 0
sys.path[:0] = [stub_dir, source]

${lmEvalStandIns(['tqdm', 'dill', 'sacrebleu', 'pandas', 'datasets'])}
from lm_eval import evaluator
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

class Instant(LM):
    def loglikelihood(self, requests, disable_tqdm=False):
        return [(-1.0 - 0.1 * (index % 4), False) for index, _ in enumerate(requests)]
    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        return [-1.0 for _ in requests]
    def generate_until(self, requests, disable_tqdm=False):
        return ["" for _ in requests]

imported = time.perf_counter()
manager = TaskManager(include_path=task_dir)
indexed = time.perf_counter()
results = evaluator.simple_evaluate(model=Instant(), tasks=[task], task_manager=manager, num_fewshot=num_fewshot, bootstrap_iters=bootstrap_iters)
done = time.perf_counter()
print(json.dumps({"import": imported - start, "index": indexed - imported, "evaluate": done - indexed,
                  "total": done - start, "acc": results["results"][task]["acc,none"]}))
`;

function timeSpawn(command: string, args: string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(command, args, { stdio: 'ignore' });
    times.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
  }
  return median(times);
}

export async function runPythonBench(report: (line: string) => void): Promise<void> {
  const choice = chooseInterpreter();
  if (!choice.found) {
    report(`Python bridge: skipped (${choice.reason})`);
    return;
  }
  // The interpreter itself, not a shim that execs it (pyenv's python3 is a shell script).
  const python = spawnSync(choice.path, ['-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
  }).stdout.trim();

  // (a) start-up: spawn to the worker's hello, against a bare `python -c pass`.
  const bare = timeSpawn(python, ['-c', 'pass'], 9);
  const starts: number[] = [];
  for (let i = 0; i < 9; i++) {
    const start = performance.now();
    const runtime = await PythonRuntime.start({ python });
    starts.push(performance.now() - start);
    await runtime.close();
  }
  const startup = median(starts);
  report(
    `bridge start-up (${python}): median ${startup.toFixed(0)} ms (target < 300 ms); bare \`python -c pass\` ${bare.toFixed(0)} ms (${(startup / bare).toFixed(2)}×)`,
  );

  const work = await mkdtemp(path.join(os.tmpdir(), 'assay-bench-python-'));
  try {
    await mkdir(path.join(work, 'data'));
    await mkdir(path.join(work, 'ts'));
    await mkdir(path.join(work, 'py'));
    const data = path.join(work, 'data', 'test.jsonl');
    const doc = (i: number) => ({
      question: ` Synthetic question ${i}: which option best completes the statement about topic ${i % 57}? `,
      choices: [`first option ${i}`, `second option ${i}`, `third option ${i}`, `fourth option ${i}`],
      answer: i % 4,
      subject: `subject_${i % 57}`,
    });
    await writeFile(data, `${Array.from({ length: DOCS }, (_, i) => JSON.stringify(doc(i))).join('\n')}\n`);
    await writeFile(path.join(work, 'ts', 'utils.ts'), TS_UTILS);
    await writeFile(path.join(work, 'ts', 'mmlu_ts.yaml'), yaml('mmlu_ts', data));
    await writeFile(path.join(work, 'py', 'utils.py'), PY_UTILS);
    await writeFile(path.join(work, 'py', 'mmlu_py.yaml'), yaml('mmlu_py', data));

    // (b) load + process_docs + doc_to_text + every context, interleaved rounds in one process.
    const backend = new DummyBackend();
    const planOptions = {
      fewshotSeed: 1234,
      applyChatTemplate: false,
      fewshotAsMultiturn: false,
      genKwargs: {},
      backend,
    };
    // Worker start-up and binding are (a)'s figure, so they are left out here.
    const plan = async (file: string, withPython: boolean) => {
      const start = performance.now();
      const nodes = await resolveTasks([file], { builtinDir: false });
      const loaded = performance.now();
      const runtime = withPython ? await startPythonFor(nodes, { python }) : undefined;
      const bound = performance.now();
      const planned = await planTask(leafTasks(nodes[0])[0], planOptions);
      const end = performance.now();
      await runtime?.close();
      return { ms: loaded - start + (end - bound), planned };
    };
    const ts: number[] = [];
    const py: number[] = [];
    for (let round = 0; round < 5; round++) {
      const a = await plan(path.join(work, 'ts', 'mmlu_ts.yaml'), false);
      const b = await plan(path.join(work, 'py', 'mmlu_py.yaml'), true);
      // The first round warms module imports and the data cache for both.
      if (round > 0) {
        ts.push(a.ms);
        py.push(b.ms);
      }
      const sameContexts = a.planned.docs.every(
        (planned, i) =>
          (planned.instances[0].args as { context: string }).context ===
          (b.planned.docs[i].instances[0].args as { context: string }).context,
      );
      if (!sameContexts) throw new Error('the TypeScript and Python utils gave different prompts');
    }
    const tsPlan = median(ts);
    const pyPlan = median(py);
    report(
      `MMLU-sized task (${DOCS} docs, 4 choices): load + process_docs + doc_to_text + contexts through the bridge ${pyPlan.toFixed(0)} ms vs TypeScript utils.ts ${tsPlan.toFixed(0)} ms (${(pyPlan / tsPlan).toFixed(2)}×, target ≤ 2×; median of 4 interleaved rounds, worker start excluded)`,
    );

    // The functions alone: process_docs + doc_to_text over the split, bridge vs TypeScript.
    const runtime = await PythonRuntime.start({ python });
    const file = path.join(work, 'py', 'utils.py');
    const yamlFile = path.join(work, 'py', 'mmlu_py.yaml');
    const processRef = createPythonRef('utils.process_docs', file, 'process_docs', yamlFile, [
      'process_docs',
    ]);
    const textRef = createPythonRef('utils.doc_to_text', file, 'doc_to_text', yamlFile, ['doc_to_text']);
    const resultsRef = createPythonRef('utils.process_results', file, 'process_results', yamlFile, [
      'process_results',
    ]);
    const trivialRef = createPythonRef('utils.trivial_results', file, 'trivial_results', yamlFile, [
      'process_results',
    ]);
    await runtime.bind([processRef, textRef, resultsRef, trivialRef]);
    const tsUtils = (await import(path.join(work, 'ts', 'utils.ts'))) as {
      process_docs: (docs: Doc[]) => Doc[];
      doc_to_text: (doc: Doc) => string;
      process_results: (doc: Doc, results: LoglikelihoodResult[]) => Record<string, number>;
    };
    const raw = Array.from({ length: DOCS }, (_, i) => doc(i)) as Doc[];
    const fnTs: number[] = [];
    const fnPy: number[] = [];
    for (let round = 0; round < 5; round++) {
      let start = performance.now();
      const tsDocs = tsUtils.process_docs(raw);
      for (const item of tsDocs) tsUtils.doc_to_text(item);
      fnTs.push(performance.now() - start);
      start = performance.now();
      const pyDocs = await runtime.processDocs(processRef, raw, { task: 'bench', split: 'test' });
      await runtime.prepareDocFunctions([{ ref: textRef, docs: pyDocs }], () => ({ task: 'bench' }));
      fnPy.push(performance.now() - start);
    }
    const fnTsMs = median(fnTs.slice(1));
    const fnPyMs = median(fnPy.slice(1));
    report(
      `the functions alone, process_docs + doc_to_text over ${DOCS} docs: bridge ${fnPyMs.toFixed(0)} ms vs TypeScript ${fnTsMs.toFixed(1)} ms (${(fnPyMs / fnTsMs).toFixed(1)}×)`,
    );

    // (c) per-doc cost of process_results: 4 (logprob, is_greedy) tuples a doc, in batches.
    const results = raw.map((_, i) =>
      [0, 1, 2, 3].map((k) => ({ logprob: -1 - ((i + k) % 4) * 0.25, isGreedy: k === 0 })),
    );
    // The docs as the bridge produced them (so they travel by reference), and their TypeScript twins.
    const pyDocs = await runtime.processDocs(processRef, raw, { task: 'bench', split: 'test' });
    const docs = tsUtils.process_docs(raw);
    // As scoreTask sends log-likelihood answers: [logprob, is_greedy] pairs the worker makes tuples of.
    const items = pyDocs.map((item, i) => ({
      doc: item,
      results: results[i].map((value) => [value.logprob, value.isGreedy]) as unknown[],
      location: { task: 'bench', docId: i },
    }));
    const prTs: number[] = [];
    const prPy: number[] = [];
    const prTrivial: number[] = [];
    for (let round = 0; round < 5; round++) {
      let start = performance.now();
      for (const [i, item] of docs.entries()) tsUtils.process_results(item, results[i]);
      prTs.push(performance.now() - start);
      start = performance.now();
      await runtime.processResults(resultsRef, items, { loglikelihood: true });
      prPy.push(performance.now() - start);
      start = performance.now();
      await runtime.processResults(trivialRef, items, { loglikelihood: true });
      prTrivial.push(performance.now() - start);
    }
    const perDoc = (values: number[]) => (median(values.slice(1)) * 1000) / DOCS;
    report(
      `process_results per doc (${DOCS} docs, 4 results each, batches of 2,048): bridge ${perDoc(prPy).toFixed(1)} µs (a Python function returning a constant: ${perDoc(prTrivial).toFixed(1)} µs) vs TypeScript ${perDoc(prTs).toFixed(2)} µs; overhead ${(perDoc(prPy) - perDoc(prTs)).toFixed(1)} µs per call`,
    );
    await runtime.close();

    // (d) a whole run through the CLI (bridge, dummy model) against lm-eval's own run of the same folder.
    const bin = path.join(root, 'bin', 'assay.js');
    const assayRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const result = spawnSync(
        process.execPath,
        [
          bin,
          'run',
          '--model',
          'dummy',
          '--tasks',
          'mmlu_py',
          '--include_path',
          path.join(work, 'py'),
          '--python',
          python,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      assayRuns.push(performance.now() - start);
      if (result.status !== 0) throw new Error(`assay run failed: ${result.stderr}`);
    }
    const assayRun = median(assayRuns);
    // The same run with the TypeScript utils.ts: what the bridge adds to a whole run.
    const tsRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const result = spawnSync(
        process.execPath,
        [bin, 'run', '--model', 'dummy', '--tasks', 'mmlu_ts', '--include_path', path.join(work, 'ts')],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      tsRuns.push(performance.now() - start);
      if (result.status !== 0) throw new Error(`assay run failed: ${result.stderr}`);
    }
    const tsRun = median(tsRuns);
    report(
      `whole MMLU-sized run (assay run, dummy model, median of 3): through the bridge ${(assayRun / 1000).toFixed(2)} s vs with utils.ts ${(tsRun / 1000).toFixed(2)} s (${(assayRun / tsRun).toFixed(2)}×)`,
    );
    const source = process.env.LM_EVAL_SRC;
    if (!source) {
      report('lm-eval comparison skipped (set LM_EVAL_SRC to a checkout of lm-evaluation-harness)');
      return;
    }
    const stubs = path.join(work, 'stubs');
    await mkdir(path.join(stubs, 'lm_eval-0.0.0.dist-info'), { recursive: true });
    // lm_eval/__init__ reads its version from installed metadata; the checkout has none.
    await writeFile(
      path.join(stubs, 'lm_eval-0.0.0.dist-info', 'METADATA'),
      'Metadata-Version: 2.1\nName: lm_eval\nVersion: 0.0.0\n',
    );
    await writeFile(path.join(stubs, 'harness.py'), LM_EVAL_HARNESS);
    const lmPython = process.env.LM_EVAL_PYTHON ?? 'python3';
    const lmRuns: Array<{ total: number; evaluate: number; index: number; import: number; acc: number }> = [];
    const lmWall: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const output = execFileSync(
        lmPython,
        [path.join(stubs, 'harness.py'), stubs, source, path.join(work, 'py'), 'mmlu_py'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 },
      );
      lmWall.push(performance.now() - start);
      lmRuns.push(JSON.parse(output.trim().split('\n').pop() ?? '{}'));
    }
    const lm = median(lmWall);
    const lmEvaluate = median(lmRuns.map((run) => run.evaluate)) * 1000;
    report(
      `whole MMLU-sized run (${DOCS} docs, ${DOCS * 4} requests), instant model: assay through the bridge ${(assayRun / 1000).toFixed(2)} s vs lm-eval ${(lm / 1000).toFixed(2)} s (${(lm / assayRun).toFixed(1)}× faster, target ≥ 10×); lm-eval's simple_evaluate alone ${(lmEvaluate / 1000).toFixed(2)} s (${(lmEvaluate / assayRun).toFixed(1)}×), its task index ${median(lmRuns.map((run) => run.index)).toFixed(2)} s`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
