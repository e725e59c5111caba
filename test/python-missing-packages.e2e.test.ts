/**
 * Task modules that import a package the interpreter lacks (lm-eval's utils.py often imports numpy or
 * sklearn at the top for one metric). The bridge imports such a module with a placeholder for the
 * package: a function that cannot reach it runs as Python runs it, one that can is refused at validate
 * and at run with a one-line error naming the package, and with the package installed (a tiny real
 * one on PYTHONPATH) the module uses it as normal. Expected values come from calling the same Python
 * functions directly.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Manifest, readResultsFile, readSamples } from 'assay/results';
import { describe, expect, it } from 'vitest';
import { validateTasks } from '../src/evaluate/validate.js';
import { evaluate } from '../src/run/evaluate.js';
import { bareInterpreter, canImport } from './support/bare-interpreter.js';
import { runCli } from './support/cli.js';
import { findOne, tempDir } from './support/helpers.js';
import { testInterpreters } from './support/python-interpreters.js';
import { requireComponent } from './support/require-component.js';

type Json = Record<string, any>;

const interpreters = testInterpreters();
const hasPython = requireComponent('python3', interpreters.length > 0);
const [plain] = [...interpreters].sort((a) => (a === '/usr/bin/python3' ? -1 : 1));

// The package no interpreter has until the last test puts a real one on PYTHONPATH.
const PACKAGE = 'assay_tiny_numeric';

const PURE_UTILS = String.raw`import datasets
import assay_tiny_numeric as tn
from assay_tiny_numeric.stats import spread


def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
    def _process(doc):
        return {"query": "Q: " + " ".join(doc["question"].split()), "size": len(doc["values"])}

    return dataset.map(_process)


def spread_metric(items):
    # Never referenced by the task: it alone needs the package.
    return spread(items) + tn.mean(items)
`;

const NEEDY_UTILS = String.raw`import assay_tiny_numeric as tn


def doc_to_text(doc):
    return "Numbers: " + ", ".join(str(value) for value in doc["values"]) + "\nTotal:"


def _weighted(values, weight):
    return tn.mean(values) * weight


def process_results(doc, results):
    return {"score": _weighted(doc["values"], len(results[0]))}
`;

const TINY_PACKAGE = {
  '__init__.py': 'def mean(values):\n    return sum(values) / len(values)\n',
  'stats.py': 'def spread(values):\n    return max(values) - min(values)\n',
};

/** Imports a module and calls its functions as lm-eval does, with `datasets.Dataset.map` as documented. */
const DIRECT = String.raw`
import importlib.util, json, sys, types

class Dataset:
    def __init__(self, rows):
        self.rows = rows
    def map(self, function):
        return Dataset([{**row, **function(dict(row))} for row in self.rows])

datasets = types.ModuleType("datasets"); datasets.Dataset = Dataset; sys.modules["datasets"] = datasets
request = json.load(sys.stdin)
if request.get("stub"):
    # The pure functions never touch the package: any module by that name does for a direct call.
    for name in ("assay_tiny_numeric", "assay_tiny_numeric.stats"):
        sys.modules[name] = types.ModuleType(name)
    sys.modules["assay_tiny_numeric.stats"].spread = None
spec = importlib.util.spec_from_file_location("m", request["module"])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
out = {}
if "docs" in request:
    out["docs"] = module.process_docs(Dataset(request["docs"])).rows
if "scored" in request:
    # As datasets reads docs.jsonl: Arrow gives the list column \`values\` one item type, and one row holds
    # 0.5, so every item is a float (docs/data-types.md); JSON from Node cannot say 1.0.
    scored = [({**doc, "values": [float(v) for v in doc["values"]]}, response) for doc, response in request["scored"]]
    out["texts"] = [module.doc_to_text(doc) for doc, _ in scored]
    out["scores"] = [module.process_results(doc, [response]) for doc, response in scored]
print(json.dumps(out))
`;

function direct(python: string, request: object, env: Record<string, string> = {}): Json {
  const result = spawnSync(python, ['-c', DIRECT], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`direct Python run failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Json;
}

const DOCS = [
  { question: 'How   many  apples?', values: [1, 2, 3], answer: '2' },
  { question: 'Sum of  these', values: [10, -4], answer: '6' },
  { question: 'Mean?', values: [0.5, 0.25, 0.125, 2], answer: '0.71875' },
];

function writeTasks(): string {
  const dir = tempDir('assay-missing-package-');
  writeFileSync(path.join(dir, 'pure_utils.py'), PURE_UTILS);
  writeFileSync(path.join(dir, 'needy_utils.py'), NEEDY_UTILS);
  writeFileSync(path.join(dir, 'docs.jsonl'), `${DOCS.map((doc) => JSON.stringify(doc)).join('\n')}\n`);
  const data = 'dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: docs.jsonl\ntest_split: test\n';
  writeFileSync(
    path.join(dir, 'pure.yaml'),
    `task: pure\n${data}output_type: generate_until\nprocess_docs: !function pure_utils.process_docs\ndoc_to_text: "{{query}}"\ndoc_to_target: answer\ngeneration_kwargs:\n  until: ["\\n"]\nmetric_list:\n  - metric: exact_match\n`,
  );
  writeFileSync(
    path.join(dir, 'needy.yaml'),
    `task: needy\n${data}output_type: generate_until\ndoc_to_text: !function needy_utils.doc_to_text\ndoc_to_target: answer\ngeneration_kwargs:\n  until: ["\\n"]\nprocess_results: !function needy_utils.process_results\nmetric_list:\n  - metric: score\n    aggregation: mean\n    higher_is_better: true\n`,
  );
  return dir;
}

async function withPythonPath<T>(site: string | undefined, body: () => Promise<T>): Promise<T> {
  const saved = process.env.PYTHONPATH;
  if (site === undefined) delete process.env.PYTHONPATH;
  else process.env.PYTHONPATH = site;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env.PYTHONPATH;
    else process.env.PYTHONPATH = saved;
  }
}

describe.skipIf(!hasPython)('Python task modules that import a missing package', () => {
  const dir = writeTasks();
  const env = { PYTHONPATH: '' };

  it('a pure process_docs beside a metric that needs the package runs as Python runs it', async () => {
    const run = await withPythonPath(undefined, () =>
      evaluate({ model: 'dummy', tasks: ['pure'], includePath: [dir], python: plain }),
    );
    const expected = direct(plain, { module: path.join(dir, 'pure_utils.py'), docs: DOCS, stub: true });
    const samples = run.samples.pure;
    expect(samples.map((line) => line.doc)).toEqual(expected.docs);
    expect(samples.map((line) => line.arguments.gen_args_0.arg_0)).toEqual(
      expected.docs.map((doc: Json) => doc.query),
    );
    expect(run.results.results.pure['exact_match,none']).toBeTypeOf('number');
  });

  it('a function that reaches the package is refused: validate names it, run stops at planning (exit 2)', () => {
    const validated = runCli(
      ['validate', '--no_data', '--include_path', dir, '--python', plain, '--format', 'json'],
      { env },
    );
    expect(validated.status).toBe(1);
    const records = JSON.parse(validated.stdout) as Json[];
    const byName = Object.fromEntries(records.map((record) => [record.name, record]));
    expect(byName.pure.ok).toBe(true);
    expect(byName.needy.ok).toBe(false);
    expect(byName.needy.code).toBe('python_package_missing');
    const reason = `process_results: !function needy_utils.process_results needs ${PACKAGE}, not installed for ${plain} (via process_results -> _weighted -> tn); install it in that interpreter or pass --python`;
    // Located at the reference in the YAML: its line, and the column where the function's name starts.
    const yamlLines = readFileSync(path.join(dir, 'needy.yaml'), 'utf8').split('\n');
    const line = yamlLines.findIndex((text) => text.startsWith('process_results:'));
    const where = `${path.join(dir, 'needy.yaml')}:${line + 1}:${yamlLines[line].indexOf('needy_utils') + 1}`;
    expect(byName.needy.error).toBe(`${where}: ${reason}`);

    const stopped = runCli(
      ['run', '--model', 'dummy', '--tasks', 'needy', '--include_path', dir, '--python', plain],
      {
        env,
      },
    );
    expect(stopped.status).toBe(2);
    expect(stopped.stderr.trim().split('\n')).toEqual([`assay: error: ${where}: ${reason}`]);
  });

  it('with the package installed the module uses it: no placeholder, the values Python computes', async () => {
    const site = tempDir('assay-site-');
    mkdirSync(path.join(site, PACKAGE));
    for (const [file, text] of Object.entries(TINY_PACKAGE))
      writeFileSync(path.join(site, PACKAGE, file), text);
    const run = await withPythonPath(site, () =>
      evaluate({ model: 'dummy', tasks: ['needy'], includePath: [dir], python: plain }),
    );
    const samples = run.samples.needy;
    const expected = direct(
      plain,
      {
        module: path.join(dir, 'needy_utils.py'),
        scored: samples.map((line) => [line.doc, (line.resps as string[][])[0][0]]),
      },
      { PYTHONPATH: site },
    );
    expect(samples.map((line) => line.arguments.gen_args_0.arg_0)).toEqual(expected.texts);
    expect(samples.map((line) => line.score)).toEqual(expected.scores.map((score: Json) => score.score));
    const mean = expected.scores.reduce((sum: number, score: Json) => sum + score.score, 0) / samples.length;
    expect(run.results.results.needy['score,none']).toBeCloseTo(mean, 12);

    // An installed package whose own dependency is missing is its failure, never stood in for.
    mkdirSync(path.join(site, 'assay_broken_dep'));
    writeFileSync(path.join(site, 'assay_broken_dep', '__init__.py'), 'import assay_absent_dependency_xyz\n');
    const broken = tempDir('assay-broken-dep-');
    writeFileSync(
      path.join(broken, 'broken_utils.py'),
      'import assay_broken_dep\n\ndef doc_to_text(doc):\n    return doc["question"]\n',
    );
    writeFileSync(
      path.join(broken, 'broken.yaml'),
      'task: broken\ndataset_path: json\ntest_split: test\ndoc_to_text: !function broken_utils.doc_to_text\ndoc_to_target: answer\n',
    );
    const report = await withPythonPath(site, () =>
      validateTasks({ includePath: [broken], builtinDir: false, data: false, python: plain }),
    );
    expect(report.records.map((record) => [record.name, record.ok, record.code])).toEqual([
      ['broken', false, 'function_not_found'],
    ]);
    expect(report.records[0].error).toMatch(
      /doc_to_text: !function broken_utils\.doc_to_text: importing broken_utils\.py failed: ModuleNotFoundError: No module named 'assay_absent_dependency_xyz' at __init__\.py:1 in <module>/,
    );
  });
});

// aradice's shape: a multiple-choice task whose f1 aggregation is a function calling scikit-learn's
// f1_score, which the interpreter does not have (assay's stand-in serves it).
const ARADICE_METRICS = `from sklearn.metrics import f1_score


def micro_f1_score(items):
    golds, preds = list(zip(*items))
    return f1_score(golds, preds, average="micro")


def macro_f1_score(items):
    golds, preds = list(zip(*items))
    return f1_score(golds, preds, average="macro")
`;

const MC_DOCS = [
  ['a cup', 'a hat', 'a kettle', 2],
  ['rain', 'sun', 'snow', 0],
  ['left', 'right', 'up', 1],
  ['seven', 'eight', 'nine', 1],
  ['iron', 'wood', 'glass', 0],
  ['north', 'south', 'east', 2],
  ['tea', 'milk', 'water', 2],
  ['red', 'green', 'blue', 0],
  ['cat', 'dog', 'bird', 1],
].map(([sol1, sol2, sol3, label], id) => ({ goal: `Question ${id}: which one?`, sol1, sol2, sol3, label }));

describe.skipIf(!hasPython)('scikit-learn f1_score in a task aggregation, without scikit-learn', () => {
  it("an aradice-shaped task: the f1 aggregation gives the micro and macro F1 of the model's answers", () => {
    // Without scikit-learn even where it is installed (Debian's python3-sklearn): no site-packages.
    const bare = bareInterpreter(plain as string);
    expect(canImport(bare, 'sklearn', { PYTHONPATH: '' })).toBe(false);
    const dir = tempDir('assay-aradice-like-');
    writeFileSync(path.join(dir, 'metrics.py'), ARADICE_METRICS);
    writeFileSync(path.join(dir, 'docs.jsonl'), `${MC_DOCS.map((doc) => JSON.stringify(doc)).join('\n')}\n`);
    const yaml = (task: string, aggregation: string) =>
      `task: ${task}\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: docs.jsonl\ntraining_split: null\nvalidation_split: null\ntest_split: test\noutput_type: multiple_choice\ndoc_to_text: "Q: {{goal}}\\nA:"\ndoc_to_target: label\ndoc_to_choice: "{{[sol1, sol2, sol3]}}"\nmetric_list:\n  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n  - metric: f1\n    higher_is_better: true\n    aggregation: !function metrics.${aggregation}\nmetadata:\n  version: 1.0\n`;
    writeFileSync(path.join(dir, 'aradice_like_micro.yaml'), yaml('aradice_like_micro', 'micro_f1_score'));
    writeFileSync(path.join(dir, 'aradice_like_macro.yaml'), yaml('aradice_like_macro', 'macro_f1_score'));
    const out = tempDir('assay-aradice-like-out-');
    const run = runCli(
      [
        'run',
        '--model',
        'dummy',
        '--tasks',
        'aradice_like_micro,aradice_like_macro',
        '--include_path',
        dir,
      ].concat(['--log_samples', '--output_path', out, '--python', bare]),
      { env: { PYTHONPATH: '' } },
    );
    expect(run.stderr).not.toMatch(/error/);
    expect(run.status).toBe(0);
    const results = readResultsFile(findOne(path.join(out, 'dummy'), /^results_/));
    // The manifest is assay's block, typed as the contract writes it.
    expect((results.manifest as Manifest).python?.stand_ins).toContain('sklearn');
    for (const task of ['aradice_like_micro', 'aradice_like_macro']) {
      const lines = readSamples(findOne(path.join(out, 'dummy'), new RegExp(`^samples_${task}_\\d`)));
      expect(lines).toHaveLength(MC_DOCS.length);
      // The model's answer: the choice with the highest log-likelihood; gold: the doc's label.
      const pairs = lines.map((line) => {
        const lls = (line.resps as string[][][]).map((resp) => Number(resp[0][0]));
        const pred = lls.reduce(
          (best: number, value: number, i: number) => (value > lls[best] ? i : best),
          0,
        );
        return [MC_DOCS[line.doc_id].label as number, pred] as const;
      });
      // F1 by hand: per label 2·TP / (2·TP + FP + FN); micro pools the counts, macro averages the labels
      // (the sorted union of golds and answers).
      const labels = [...new Set(pairs.flat())].sort((a, b) => a - b);
      const counts = labels.map((label) => ({
        tp: pairs.filter(([gold, pred]) => gold === label && pred === label).length,
        golds: pairs.filter(([gold]) => gold === label).length,
        preds: pairs.filter(([, pred]) => pred === label).length,
      }));
      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      const tp = sum(counts.map((count) => count.tp));
      const micro =
        (2 * tp) / (sum(counts.map((count) => count.golds)) + sum(counts.map((count) => count.preds)));
      const perLabel = counts.map((count) => (2 * count.tp) / (count.golds + count.preds));
      const macro = sum(perLabel) / labels.length;
      const expected = task.endsWith('micro') ? micro : macro;
      expect(results.results[task]['f1,none']).toBe(expected);
      // Not a degenerate case: the answers are neither all right nor all one label.
      expect(tp).toBeGreaterThan(0);
      expect(tp).toBeLessThan(pairs.length);
      expect(new Set(pairs.map(([, pred]) => pred)).size).toBeGreaterThan(1);
    }
  });
});
