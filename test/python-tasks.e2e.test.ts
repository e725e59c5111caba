/**
 * lm-eval-shaped task folders whose functions live in utils.py, run through the real CLI and the Python
 * bridge: a process_docs with dataset.map, a doc_to_choice function, a filter class, a process_results
 * returning tuples with a custom aggregation, and a group with a `!function` aggregation. Expected values
 * come from calling the same Python functions directly in the test's own interpreter (with minimal
 * doubles of `datasets.Dataset.map` and `lm_eval.api.filter.Filter`), never from assay's output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Manifest,
  type MetricStats,
  type PythonDescription,
  type ReadResults,
  type ReadSampleLine,
  readResultsFile,
  readSamples,
  type SampleLine,
} from 'assay/results';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../src/errors.js';
import { evaluate } from '../src/run/evaluate.js';
import { runCli } from './support/cli.js';
import { findOne, tempDir } from './support/helpers.js';
import { testInterpreters } from './support/python-interpreters.js';
import { requireComponent } from './support/require-component.js';

type Json = Record<string, any>;

/** A generate_until line's prompt text: arguments are open in the contract, keyed by request as written. */
function promptOf(line: ReadSampleLine): string {
  return (line.arguments as SampleLine['arguments']).gen_args_0.arg_0 as string;
}

const interpreters = testInterpreters();
const hasPython = requireComponent('python3', interpreters.length > 0);
// The system interpreter first: the plain python3 of a fresh machine.
const [plain, other] = [...interpreters].sort((a) => (a === '/usr/bin/python3' ? -1 : 1));
const hasOther = requireComponent('second Python interpreter', other !== undefined);

const MC_UTILS = String.raw`import re

import datasets


def _tidy(text):
    # Collapse runs of whitespace and drop bracketed markup such as "[header]".
    text = re.sub(r"\[[^\]]*\]", "", text)
    return " ".join(text.split())


def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
    def _process(doc):
        return {
            "query": _tidy(doc["topic"].capitalize() + ": " + doc["context"]),
            "endings_tidy": [_tidy(ending) for ending in doc["endings"]],
            "gold": int(doc["label"]),
        }

    return dataset.map(_process)


def doc_to_choice(doc):
    return doc["endings_tidy"]


def pair_f1(items):
    # Macro F1 over (gold, prediction) pairs; lm-eval hands the aggregation tuples.
    assert all(type(item) is tuple for item in items), "expected tuples"
    golds, preds = zip(*items)
    scores = []
    for label in sorted(set(golds) | set(preds)):
        hits = sum(1 for g, p in items if g == label and p == label)
        denominator = golds.count(label) + preds.count(label)
        scores.append(2 * hits / denominator if denominator else 0.0)
    return sum(scores) / len(scores)
`;

const GEN_UTILS = String.raw`from lm_eval.api.filter import Filter


class FirstWordFilter(Filter):
    def __init__(self, lowercase=False):
        self.lowercase = lowercase

    def apply(self, resps, docs):
        out = []
        for responses, doc in zip(resps, docs):
            words = [(response.split() or [""])[0] for response in responses]
            out.append([word.lower() if self.lowercase else word for word in words])
        return out


def doc_to_text(doc):
    return "Question: " + doc["question"] + "\nAnswer:"


def process_results(doc, results):
    prediction = results[0]
    return {"acc": float(prediction == doc["answer"]), "pair": (doc["answer"], prediction)}


def coverage(items):
    # Share of distinct gold answers predicted at least once: needs the (gold, prediction) tuples.
    golds = {gold for gold, _ in items}
    hit = {gold for gold, prediction in items if gold == prediction}
    return len(hit) / len(golds)
`;

const GROUP_UTILS = String.raw`def weighted_gap(values, sizes, weight_by_size):
    share = sizes[0] / sum(sizes) if weight_by_size else 1.0
    return (values[0] - values[1]) * share
`;

const FAIL_UTILS = String.raw`def doc_to_text(doc):
    if doc["question"] == "boom":
        raise ValueError("cannot phrase " + doc["question"])
    return doc["question"]
`;

/** Calls the fixture's Python functions directly, as lm-eval would, with tiny doubles of its imports. */
const DIRECT = String.raw`
import importlib.util, json, sys, types

class Dataset:
    # datasets.Dataset.map as documented: each row updated with the function's dict.
    def __init__(self, rows):
        self.rows = rows
    def map(self, function):
        return Dataset([{**row, **function(dict(row))} for row in self.rows])

class Filter:
    def __init__(self, **kwargs):
        pass

datasets = types.ModuleType("datasets"); datasets.Dataset = Dataset; sys.modules["datasets"] = datasets
for name in ("lm_eval", "lm_eval.api", "lm_eval.api.filter"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["lm_eval.api.filter"].Filter = Filter

def load(path):
    spec = importlib.util.spec_from_file_location(path, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

request = json.load(sys.stdin)
mc, gen, group = load(request["mc"]), load(request["gen"]), load(request["group"])
out = {}
for name, rows in request["mc_docs"].items():
    docs = mc.process_docs(Dataset(rows)).rows
    out[name] = {"docs": docs, "choices": [mc.doc_to_choice(doc) for doc in docs]}
gen_docs = request["gen_docs"]
if gen_docs:
    filtered = gen.FirstWordFilter(lowercase=True).apply(request["gen_resps"], gen_docs)
    first = [values[0] for values in filtered]
    scores = [gen.process_results(doc, [prediction]) for doc, prediction in zip(gen_docs, first)]
    out["gen"] = {
        "texts": [gen.doc_to_text(doc) for doc in gen_docs],
        "filtered": first,
        "acc": [score["acc"] for score in scores],
        "pairs": [list(score["pair"]) for score in scores],
        "coverage": gen.coverage([score["pair"] for score in scores]),
    }
out["group"] = group.weighted_gap(request["group_values"], request["group_sizes"], False)
out["f1"] = {task: mc.pair_f1([tuple(pair) for pair in pairs]) for task, pairs in request.get("pairs", {}).items()}
print(json.dumps(out))
`;

function jsonl(rows: object[]): string {
  return `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
}

const MC_DOCS = {
  pymc: [
    {
      topic: 'cooking',
      context: 'Boil the   water [step] then',
      endings: ['add pasta.', ' wait [note]', 'sing'],
      label: '0',
    },
    {
      topic: 'sports',
      context: 'The runner [title] crosses',
      endings: ['the line', 'a river', 'nothing'],
      label: '0',
    },
    {
      topic: 'music',
      context: 'She tunes the  guitar',
      endings: ['and plays', 'and sleeps', 'badly'],
      label: '1',
    },
    {
      topic: 'garden',
      context: 'Plant the seeds',
      endings: ['in soil', 'in   space', 'on [x] glass'],
      label: '0',
    },
    {
      topic: 'travel',
      context: 'Pack the bag',
      endings: ['then go', 'then stay', 'then [a] eat'],
      label: '2',
    },
    {
      topic: 'café',
      context: 'Order a crème brûlée',
      endings: ['and pay', 'and run', 'and wait'],
      label: '0',
    },
  ],
  pymc_b: [
    { topic: 'cars', context: 'Start the engine', endings: ['and drive', 'and swim'], label: '0' },
    { topic: 'books', context: 'Open the   book', endings: ['and read', 'and [p] bake'], label: '0' },
    { topic: 'rain', context: 'Take an umbrella', endings: ['outside', 'inside'], label: '1' },
    { topic: 'snow', context: 'Build a snowman', endings: ['in winter', 'in summer'], label: '0' },
  ],
};

const GEN_DOCS = [
  { question: 'Say yes', answer: 'yes' },
  { question: 'Say no', answer: 'no' },
  { question: 'The number?', answer: '42' },
  { question: 'First word?', answer: 'the' },
  { question: 'Again yes', answer: 'yes' },
  { question: 'Cat or dog?', answer: 'cat' },
  { question: 'Maybe?', answer: 'maybe' },
  { question: 'True?', answer: 'true' },
];

function writeTasks(): string {
  const dir = tempDir('assay-python-tasks-');
  writeFileSync(path.join(dir, 'utils.py'), MC_UTILS);
  writeFileSync(path.join(dir, 'gen_utils.py'), GEN_UTILS);
  writeFileSync(path.join(dir, 'group_utils.py'), GROUP_UTILS);
  writeFileSync(path.join(dir, 'fail_utils.py'), FAIL_UTILS);
  writeFileSync(path.join(dir, 'mc.jsonl'), jsonl(MC_DOCS.pymc));
  writeFileSync(path.join(dir, 'mc_b.jsonl'), jsonl(MC_DOCS.pymc_b));
  writeFileSync(path.join(dir, 'gen.jsonl'), jsonl(GEN_DOCS));
  writeFileSync(path.join(dir, 'fail.jsonl'), jsonl([{ question: 'fine' }, { question: 'boom' }]));
  writeFileSync(
    path.join(dir, '_mc_template.yaml'),
    [
      'dataset_path: json',
      'output_type: multiple_choice',
      'test_split: test',
      'process_docs: !function utils.process_docs',
      'doc_to_text: "{{query}}"',
      'doc_to_target: gold',
      'doc_to_choice: !function utils.doc_to_choice',
      'metric_list:',
      '  - metric: acc',
      '    aggregation: mean',
      '    higher_is_better: true',
      '  - metric: f1',
      '    aggregation: !function utils.pair_f1',
      '    higher_is_better: true',
      'metadata:',
      '  version: 1.0',
      '',
    ].join('\n'),
  );
  for (const [name, file] of [
    ['pymc', 'mc.jsonl'],
    ['pymc_b', 'mc_b.jsonl'],
  ]) {
    writeFileSync(
      path.join(dir, `${name}.yaml`),
      `include: _mc_template.yaml\ntask: ${name}\ndataset_kwargs:\n  data_files:\n    test: ${file}\n`,
    );
  }
  writeFileSync(
    path.join(dir, 'pygen.yaml'),
    [
      'task: pygen',
      'dataset_path: json',
      'dataset_kwargs:',
      '  data_files:',
      '    test: gen.jsonl',
      'test_split: test',
      'output_type: generate_until',
      'doc_to_text: !function gen_utils.doc_to_text',
      'doc_to_target: answer',
      'generation_kwargs:',
      '  until: ["\\n"]',
      '  max_gen_toks: 8',
      'process_results: !function gen_utils.process_results',
      'filter_list:',
      '  - name: first_word',
      '    filter:',
      '      - function: !function gen_utils.FirstWordFilter',
      '        lowercase: true',
      '      - function: take_first',
      'metric_list:',
      '  - metric: acc',
      '    aggregation: mean',
      '    higher_is_better: true',
      '  - metric: pair',
      '    aggregation: !function gen_utils.coverage',
      '    higher_is_better: true',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'pygroup.yaml'),
    [
      'group: pygroup',
      'task:',
      '  - pymc',
      '  - pymc_b',
      'aggregate_metric_list:',
      '  - metric: acc',
      '    aggregation: !function group_utils.weighted_gap',
      '    weight_by_size: false',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'pyfail.yaml'),
    'task: pyfail\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: fail.jsonl\ntest_split: test\ndoc_to_text: !function fail_utils.doc_to_text\ndoc_to_target: question\n',
  );
  writeFileSync(
    path.join(dir, 'plain.yaml'),
    'task: plain\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: gen.jsonl\ntest_split: test\ndoc_to_text: "{{question}}"\ndoc_to_target: answer\n',
  );
  return dir;
}

function direct(python: string, dir: string, request: object): Json {
  const result = spawnSync(python, ['-c', DIRECT], { input: JSON.stringify(request), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`direct Python run failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Json;
}

const argmax = (values: number[]) => values.reduce((best, value, i) => (value > values[best] ? i : best), 0);

describe.skipIf(!hasPython)('Python tasks end to end, through the CLI', () => {
  const dir = writeTasks();
  const out = tempDir();
  const args = [
    'run',
    '--model',
    'dummy',
    '--tasks',
    'pygroup,pygen',
    '--include_path',
    dir,
    '--log_samples',
  ];
  const first = runCli([...args, '--output_path', path.join(out, 'plain'), '--python', plain]);
  const results =
    first.status === 0
      ? readResultsFile(findOne(path.join(out, 'plain', 'dummy'), /^results_/))
      : ({} as ReadResults);
  /** One metric's statistics in results.json's `stats`, as the contract writes them. */
  const statsOf = (task: string, key: string) => results.stats?.[task][key] as MetricStats;
  const samples = (task: string) =>
    readSamples(findOne(path.join(out, 'plain', 'dummy'), new RegExp(`^samples_${task}_\\d`)));

  it('runs, and the manifest records the interpreter', () => {
    expect(first.stderr).not.toMatch(/error/);
    expect(first.status).toBe(0);
    // The manifest is assay's block, typed as the contract writes it.
    const python = (results.manifest as Manifest).python as PythonDescription;
    expect(python.path).toBe(plain);
    const version = spawnSync(plain, ['-c', 'import platform; print(platform.python_version())'], {
      encoding: 'utf8',
    }).stdout.trim();
    expect(python.version).toBe(version);
    expect(Object.keys(python.packages).sort()).toEqual(['datasets', 'lm_eval', 'numpy']);
  });

  it('process_docs (dataset.map) and doc_to_choice give the prompts and choices Python gives', () => {
    const mcSamples = { pymc: samples('pymc'), pymc_b: samples('pymc_b') };
    const gen = samples('pygen');
    const expected = direct(plain, dir, {
      mc: path.join(dir, 'utils.py'),
      gen: path.join(dir, 'gen_utils.py'),
      group: path.join(dir, 'group_utils.py'),
      mc_docs: MC_DOCS,
      gen_docs: GEN_DOCS,
      gen_resps: gen.map((sample) => sample.resps[0]),
      group_values: [0, 0],
      group_sizes: [1, 1],
    });
    const accs: Record<string, number> = {};
    const pairs: Record<string, number[][]> = {};
    for (const task of ['pymc', 'pymc_b'] as const) {
      const { docs, choices } = expected[task];
      const lines = mcSamples[task];
      expect(lines).toHaveLength(docs.length);
      let hits = 0;
      for (const [id, line] of lines.entries()) {
        expect(line.doc).toEqual(docs[id]);
        const args = Object.values(line.arguments as SampleLine['arguments']) as Array<{
          arg_0: string;
          arg_1: string;
        }>;
        expect(args.map((arg) => arg.arg_0)).toEqual(choices[id].map(() => docs[id].query));
        expect(args.map((arg) => arg.arg_1)).toEqual(choices[id].map((choice: string) => ` ${choice}`));
        // acc from the model's own log-likelihoods and Python's gold.
        const lls = (line.resps as string[][][]).map((resp) => Number(resp[0][0]));
        const acc = argmax(lls) === docs[id].gold ? 1 : 0;
        expect(line.acc).toBe(acc);
        expect(line.f1).toEqual([docs[id].gold, argmax(lls)]);
        (pairs[task] ??= []).push([docs[id].gold, argmax(lls)]);
        hits += acc;
      }
      accs[task] = hits / lines.length;
      expect(results.results[task]['acc,none']).toBe(accs[task]);
    }
    // The group's !function aggregation, called with the leaf scores.
    const group = direct(plain, dir, {
      mc: path.join(dir, 'utils.py'),
      gen: path.join(dir, 'gen_utils.py'),
      group: path.join(dir, 'group_utils.py'),
      mc_docs: {},
      gen_docs: [],
      gen_resps: [],
      group_values: [accs.pymc, accs.pymc_b],
      group_sizes: [6, 4],
      pairs,
    });
    expect(results.groups?.pygroup['acc,none']).toBe(group.group);
    // The f1 pairs assay computes reach the Python aggregation as tuples.
    expect(results.results.pymc['f1,none']).toBe(group.f1.pymc);
    expect(results.results.pymc_b['f1,none']).toBe(group.f1.pymc_b);
    // lm-eval's value for a function aggregation; assay's bootstrap is under stats.
    expect(results.results.pymc['f1_stderr,none']).toBe('N/A');
    expect(typeof statsOf('pymc', 'f1,none').bootstrap?.stderr).toBe('number');
    expect(results.groups?.pygroup['acc_stderr,none']).toBe('N/A');
  });

  it('a filter class, process_results tuples and their custom aggregation agree with Python', () => {
    const gen = samples('pygen');
    const expected = direct(plain, dir, {
      mc: path.join(dir, 'utils.py'),
      gen: path.join(dir, 'gen_utils.py'),
      group: path.join(dir, 'group_utils.py'),
      mc_docs: {},
      gen_docs: GEN_DOCS,
      gen_resps: gen.map((sample) => sample.resps[0]),
      group_values: [0, 0],
      group_sizes: [1, 1],
    }).gen;
    expect(gen.map(promptOf)).toEqual(expected.texts);
    expect(gen.map((sample) => sample.filter)).toEqual(GEN_DOCS.map(() => 'first_word'));
    expect(gen.map((sample) => sample.filtered_resps[0])).toEqual(expected.filtered);
    expect(gen.map((sample) => sample.acc)).toEqual(expected.acc);
    // The sample log writes a tuple as lm-eval's json.dumps does: a list.
    expect(gen.map((sample) => sample.pair)).toEqual(expected.pairs);
    const mean = expected.acc.reduce((a: number, b: number) => a + b, 0) / expected.acc.length;
    expect(results.results.pygen['acc,first_word']).toBe(mean);
    expect(results.results.pygen['pair,first_word']).toBe(expected.coverage);
    expect(results.results.pygen['pair_stderr,first_word']).toBe('N/A');
    expect(typeof statsOf('pygen', 'pair,first_word').bootstrap?.stderr).toBe('number');
  });

  it.skipIf(!hasOther)('another interpreter gives byte-identical sample logs (determinism)', () => {
    const second = runCli([...args, '--output_path', path.join(out, 'other')], {
      env: { ASSAY_PYTHON: other },
    });
    expect(second.status).toBe(0);
    const manifest = readResultsFile(findOne(path.join(out, 'other', 'dummy'), /^results_/))
      .manifest as Manifest;
    expect(manifest.python?.path).toBe(other);
    for (const task of ['pymc', 'pymc_b', 'pygen']) {
      const pattern = new RegExp(`^samples_${task}_\\d`);
      expect(readFileSync(findOne(path.join(out, 'other', 'dummy'), pattern), 'utf8')).toBe(
        readFileSync(findOne(path.join(out, 'plain', 'dummy'), pattern), 'utf8'),
      );
    }
  });

  it('without an interpreter a Python task stops at planning with a one-line error (exit 2)', () => {
    const missing = path.join(dir, 'no-such-python');
    const stopped = runCli(['run', '--model', 'dummy', '--tasks', 'pygen', '--include_path', dir], {
      env: { ASSAY_PYTHON: missing },
    });
    expect(stopped.status).toBe(2);
    expect(stopped.stderr.trim().split('\n')).toEqual([
      `assay: error: ${path.join(dir, 'pygen.yaml')}: doc_to_text: !function gen_utils.doc_to_text is Python (gen_utils.py) and needs a Python interpreter (ASSAY_PYTHON=${missing}: no executable file there); install Python 3, or pass --python PATH (or set ASSAY_PYTHON)`,
    ]);
  });

  // In-process (the CLI's error path is covered above): a template task needs no interpreter at all.
  it('a template-only task runs with no interpreter to be found', async () => {
    const saved = process.env.ASSAY_PYTHON;
    process.env.ASSAY_PYTHON = path.join(dir, 'no-such-python');
    try {
      const run = await evaluate({ model: 'dummy', tasks: ['plain'], includePath: [dir] });
      expect(run.results.results.plain).toBeDefined();
      expect(run.results.manifest.python).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.ASSAY_PYTHON;
      else process.env.ASSAY_PYTHON = saved;
    }
  });

  it('an unknown metric name goes to Hugging Face evaluate.load(name).compute when evaluate imports', async () => {
    // A stand-in `evaluate` package on PYTHONPATH with evaluate's documented API: load(name).compute(...) → dict.
    const site = tempDir('assay-evaluate-');
    mkdirSync(path.join(site, 'evaluate'));
    writeFileSync(
      path.join(site, 'evaluate', '__init__.py'),
      [
        'class _Metric:',
        '    def __init__(self, name):',
        '        self.name = name',
        '    def compute(self, references, predictions):',
        '        hits = [float(r.strip() == p.strip()) for r, p in zip(references, predictions)]',
        '        return {self.name: sum(hits) / len(hits)}',
        '',
        'def load(name):',
        '    return _Metric(name)',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'pyhf.yaml'),
      'task: pyhf\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: gen.jsonl\ntest_split: test\ndoc_to_text: "{{question}}"\ndoc_to_target: answer\ngeneration_kwargs:\n  until: ["\\n"]\nmetric_list:\n  - metric: hf_exact\n    aggregation: mean\n    higher_is_better: true\n',
    );
    const saved = process.env.PYTHONPATH;
    process.env.PYTHONPATH = site;
    try {
      const run = await evaluate({
        model: 'dummy',
        tasks: ['pyhf'],
        includePath: [dir],
        python: plain,
        logSamples: false,
      });
      const answers = run.samples.pyhf.map((line) => String(line.filtered_resps[0]));
      const expected: number[] = answers.map((answer, i) =>
        GEN_DOCS[i].answer.trim() === answer.trim() ? 1 : 0,
      );
      expect(run.samples.pyhf.map((line) => line.hf_exact)).toEqual(expected);
      expect(run.results.results.pyhf['hf_exact,none']).toBe(
        expected.reduce((a, b) => a + b, 0) / expected.length,
      );
    } finally {
      if (saved === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = saved;
    }
  });

  it('a Python exception is an error naming the task, doc, function and frame (exit 2, before any request)', async () => {
    const error = (await evaluate({
      model: 'dummy',
      tasks: ['pyfail'],
      includePath: [dir],
      python: plain,
    }).catch((caught: unknown) => caught)) as AssayError;
    expect(error).toBeInstanceOf(AssayError);
    expect(error.exitCode).toBe(2);
    expect(error.format()).toBe(
      `${path.join(dir, 'fail_utils.py')}:3: task pyfail: doc_to_text fail_utils.doc_to_text raised ValueError: cannot phrase boom in doc_to_text: raise ValueError("cannot phrase " + doc["question"]) (on doc 1)`,
    );
  });
});
