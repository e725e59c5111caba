/**
 * The conformance suite of the Python bridge: every way lm-eval calls task code, through PythonRuntime
 * and a real interpreter, with fixture modules written to a temp dir. Run once per interpreter
 * (bridge.test.ts): each run keeps one worker for the whole suite.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import type { Doc } from '../tasks/types.js';
import { isPyTuple, PyFloat, PyHandle, pyTuple } from './codec.js';
import { createPythonRef, type PythonFunctionRef } from './python-ref.js';
import { PythonRuntime } from './python-runtime.js';

/** The interpreters to test: ASSAY_TEST_PYTHONS (comma-separated), python3 on PATH, /usr/bin/python3; each once. */
export function testInterpreters(): string[] {
  const candidates = [
    ...(process.env.ASSAY_TEST_PYTHONS ?? '').split(',').filter(Boolean),
    'python3',
    '/usr/bin/python3',
  ];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim()) seen.add(probe.stdout.trim());
  }
  return [...seen];
}

const MODULE = String.raw`
import datasets
import math

def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
    def _process(doc, index):
        return {"query": f"{index}: {doc['text'].strip()}", "length": len(doc["text"])}
    return dataset.map(_process, with_indices=True).filter(lambda doc: doc["keep"])

def doc_to_text(doc):
    return "Q: " + doc["text"]

def doc_to_choice(doc):
    return [choice.upper() for choice in doc["choices"]]

def doc_to_target(doc):
    return doc["label"]

def fails_on_three(doc):
    if doc["id"] == 3:
        raise ValueError("bad doc three")
    return "ok"

def reverse_text(doc):
    return doc["text"][::-1] + "\u2713"

def process_results(doc, results):
    logprob, greedy = results[0]
    if doc["id"] == 2:
        raise KeyError("no metric for doc two")
    return {
        "pair": (doc["label"], int(logprob < -1.0)),
        "words": set(doc["text"].split()),
        "acc": 1.0 if greedy else 0.0,
        "kind": type(logprob).__name__,
    }

def pair_accuracy(items):
    assert all(type(item) is tuple for item in items), [type(item) for item in items]
    return sum(1 for gold, pred in items if gold == pred) / len(items)

def vocabulary(items):
    assert all(isinstance(item, set) for item in items)
    return float(len(set().union(*items)))

def mean_of(items):
    return sum(items) / len(items)

def floats():
    return [0.1 + 0.2, 1 / 3, math.pi * 1e300, 5e-324, -0.0, float("nan"), float("inf"), -float("inf"), 2**53 + 1]

def reprs(*args):
    return [repr(arg) for arg in args]

def echo(value):
    return value

class UpperFilter:
    def __init__(self, suffix=""):
        self.suffix = suffix
    def apply(self, resps, docs):
        return [[r.upper() + self.suffix + str(d["id"]) for r in rs] for rs, d in zip(resps, docs)]

def reverse_filter(resps, docs):
    return [[r[::-1] for r in rs] for rs in resps]

def delta(values, sizes, weight_by_size):
    return values[0] - values[1] + (0.5 if weight_by_size else 0.0)

def set_text():
    return str({"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"})

def fewshot_samples():
    return [{"text": "shot one", "id": -1}, {"text": "shot two", "id": -2}]

def overlap(references, predictions):
    return float(references[0] in predictions[0])

def noisy(doc):
    import os
    print("hello from print")
    os.write(1, b"raw bytes on fd 1\n")
    return "quiet"

def die(doc):
    import os, sys
    sys.stderr.write("about to exit\n")
    sys.stderr.flush()
    os._exit(3)

def as_pair(items):
    gold, prediction = items
    return {"first": float(gold[:1] == prediction[:1]), "same": float(gold == prediction)}
`;

const DATASET_MODULE = `
import datasets

def shape(ds):
    return {"columns": ds.column_names, "rows": ds.to_list(), "len": len(ds)}

def run(_dataset):
    out = {}
    ds = datasets.Dataset.from_list([{"a": 1, "b": "x"}, {"a": 2, "c": "ignored"}, {"a": 3, "b": "z"}])
    out["from_list"] = shape(ds)
    out["column"] = ds["a"]
    out["row"] = ds[1]
    out["slice"] = ds[0:2]
    out["features"] = sorted(ds.features)
    out["iter"] = [row["a"] for row in ds]
    # remove_columns applies before the function's output is merged: a column the function returns is kept.
    out["map_remove"] = shape(ds.map(lambda row: {"b": "new", "d": row["a"] * 10}, remove_columns=["b", "a"]))
    # A batched map may change the number of rows when the input columns are removed.
    split = ds.map(lambda batch: {"part": [f"{a}-{k}" for a in batch["a"] for k in range(2)]},
                   batched=True, batch_size=2, remove_columns=ds.column_names)
    out["batched_map"] = shape(split)
    out["filter_batched"] = shape(ds.filter(lambda batch: [a % 2 == 1 for a in batch["a"]], batched=True))
    out["filter_indices"] = shape(ds.filter(lambda row, index: index != 1, with_indices=True))
    out["select"] = shape(ds.select([2, 0]))
    out["rename"] = shape(ds.rename_column("b", "B"))
    out["add"] = shape(ds.add_column("e", [True, False, True]))
    out["remove"] = shape(ds.remove_columns("b"))
    out["sort"] = shape(datasets.Dataset.from_list([{"k": 2}, {"k": None}, {"k": 1}]).sort("k"))
    out["sort_reverse"] = datasets.Dataset.from_list([{"k": 2}, {"k": None}, {"k": 1}]).sort("k", reverse=True)["k"]
    ten = datasets.Dataset.from_list([{"i": i} for i in range(10)])
    out["shuffle"] = ten.shuffle(seed=42)["i"]
    out["shuffle_1234"] = datasets.Dataset.from_list([{"i": i} for i in range(20)]).shuffle(seed=1234)["i"]
    out["shuffle_big_seed"] = datasets.Dataset.from_list([{"i": i} for i in range(7)]).shuffle(seed=2**64 + 5)["i"]
    out["from_dict"] = shape(datasets.Dataset.from_dict({"p": [1, 2], "q": ["a", "b"]}))
    out["unique"] = datasets.Dataset.from_list([{"u": "b"}, {"u": "a"}, {"u": "b"}]).unique("u")
    try:
        ds.remove_columns("missing")
    except ValueError as error:
        out["remove_missing"] = str(error)
    return [out]
`;

const HELPERS_MODULE = String.raw`
from lm_eval.utils import weighted_f1_score, general_detokenize
from lm_eval.api.metrics import metric_max_over_ground_truths, mean
from lm_eval.api.filter import Filter
from lm_eval.api.registry import register_filter
from lm_eval.filters.extraction import RegexFilter

@register_filter("keep_digits")
class KeepDigits(Filter):
    def apply(self, resps, docs):
        return [["".join(ch for ch in r if ch.isdigit()) for r in rs] for rs in resps]

def run():
    regex = RegexFilter(regex_pattern=r"#### (\-?[0-9\.\,]+)", group_select=0, fallback="[invalid]")
    return {
        "f1": weighted_f1_score(list(zip([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1]))),
        "f1_perfect": weighted_f1_score([("a", "a"), ("b", "b")]),
        "detok": [general_detokenize('He said " hello " ( really ) , did n\'t he ?'),
                  general_detokenize("It 's a test . Is n't it , \"really\" ?")],
        "max": metric_max_over_ground_truths(lambda p, g: float(p == g), "x", ["y", "x"]),
        "mean": mean([1, 2, 3, 4]),
        "regex": regex.apply([["so #### 42", "no answer"], ["#### -3.5 and #### 7"]], [{}, {}]),
        "digits": KeepDigits().apply([["a1b2"]], [{}]),
    }
`;

// scikit-learn's f1_score and accuracy_score as task code calls them (the stand-in when sklearn is not
// installed): its documented examples, hand-computed edge cases, and the errors it raises.
const SKLEARN_MODULE = `
import warnings
from sklearn.metrics import accuracy_score, f1_score

def outcome(fn, *args, **kwargs):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = fn(*args, **kwargs)
        return {"value": value, "type": type(value).__name__, "warned": [type(w.message).__name__ for w in caught]}
    except Exception as error:
        return {"error": type(error).__name__ + ": " + str(error)}

def run():
    t, p = [0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1]
    cases = {
        "macro": (f1_score, (t, p), {"average": "macro"}),
        "micro": (f1_score, (t, p), {"average": "micro"}),
        "weighted": (f1_score, (t, p), {"average": "weighted"}),
        "none": (f1_score, (t, p), {"average": None}),
        "accuracy": (accuracy_score, ([0, 2, 1, 3], [0, 1, 2, 3]), {}),
        "accuracy_count": (accuracy_score, ([0, 2, 1, 3], [0, 1, 2, 3]), {"normalize": False}),
        "empty_binary": (f1_score, ([0] * 6, [0] * 6), {}),
        "empty_binary_one": (f1_score, ([0] * 6, [0] * 6), {"zero_division": 1.0}),
        "empty_binary_nan": (f1_score, ([0] * 6, [0] * 6), {"zero_division": float("nan")}),
        "binary": (f1_score, ([0, 1, 1, 0], [1, 1, 0, 0]), {}),
        "pos_spam": (f1_score, (["spam", "ham", "spam", "spam"], ["spam", "spam", "ham", "spam"]), {"pos_label": "spam"}),
        "pos_ham": (f1_score, (["spam", "ham", "spam", "spam"], ["spam", "spam", "ham", "spam"]), {"pos_label": "ham"}),
        "weights": (f1_score, ([0, 1, 1], [0, 1, 0]), {"sample_weight": [1, 2, 3]}),
        "weights_accuracy": (accuracy_score, ([0, 1, 1], [0, 1, 0]), {"sample_weight": [1, 2, 3]}),
        "weights_count": (accuracy_score, ([0, 1, 1], [0, 1, 0]), {"sample_weight": [1, 2, 3], "normalize": False}),
        "absent_label": (f1_score, ([0, 0], [0, 0]), {"labels": [0, 1], "average": None}),
        "absent_label_one": (f1_score, ([0, 0], [0, 0]), {"labels": [0, 1], "average": None, "zero_division": 1}),
        "absent_label_nan": (f1_score, ([0, 0], [0, 0]), {"labels": [0, 1], "average": "macro", "zero_division": float("nan")}),
        "no_support": (f1_score, ([0], [1]), {"labels": [1, 2], "average": "weighted", "zero_division": 1}),
        "micro_subset": (f1_score, ([0, 1, 2, 2], [0, 2, 2, 1]), {"labels": [1, 2], "average": "micro"}),
        "strings_macro": (f1_score, (["a", "b", "c", "a"], ["a", "c", "c", "b"]), {"average": "macro"}),
        "multiclass_binary": (f1_score, (t, p), {}),
        "bad_pos_label": (f1_score, (["a", "b"], ["a", "b"]), {}),
        "lengths": (f1_score, ([0, 1, 1], [0, 1]), {"average": "micro"}),
        "continuous": (f1_score, ([0.5, 1], [1, 1]), {}),
        "samples": (f1_score, ([0, 1], [0, 1]), {"average": "samples"}),
        "bad_zero_division": (f1_score, ([0, 1], [0, 1]), {"zero_division": 0.5}),
        "bad_average": (f1_score, ([0, 1], [0, 1]), {"average": "mean"}),
        "multilabel": (f1_score, ([[0, 1], [1, 1]], [[0, 1], [1, 0]]), {"average": "micro"}),
        "mixed_types": (accuracy_score, (["a", 1], ["a", 1]), {}),
        "empty": (f1_score, ([], []), {"average": "micro"}),
    }
    return {name: outcome(fn, *args, **kwargs) for name, (fn, args, kwargs) in cases.items()}
`;

// A module importing f1_score with names the stand-in lacks: the functions that use only f1_score load.
const SKLEARN_PARTIAL_MODULE = `
from sklearn.metrics import f1_score, matthews_corrcoef
from sklearn.feature_extraction.text import CountVectorizer
import sklearn

def micro(items):
    golds, preds = zip(*items)
    return f1_score(golds, preds, average="micro")

def via_package(items):
    golds, preds = zip(*items)
    return sklearn.metrics.accuracy_score(golds, preds)

def mcc(items):
    golds, preds = zip(*items)
    return matthews_corrcoef(golds, preds)

def vectorize(doc):
    return CountVectorizer().fit([doc["text"]])

def late(items):
    from sklearn.metrics import precision_score
    return precision_score([0], [0])
`;

// Imports two packages no interpreter has (top-level and `from pkg.sub import name`): the module imports
// with placeholders for them, and only the functions that cannot reach one load.
const PLACEHOLDER_MODULE = String.raw`
import functools
from typing import Optional

import datasets
import absent_numeric_xyz as an
import absent_numeric_xyz.linalg
from absent_metrics_xyz.scores import f1_score


def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
    def _process(doc):
        return {"query": " ".join(doc["text"].split()).capitalize(), "n": len(doc["text"])}

    return dataset.map(_process)


def annotated(doc: Optional[an.ndarray]) -> "an.ndarray":
    return doc["text"][::-1]


def direct(doc):
    return an.mean(doc["values"])


def _average(values):
    return an.mean(values)


def through_helper(doc):
    return _average(doc["values"])


class Scorer:
    def score(self, values):
        return f1_score(values, values)


def through_class(doc):
    return Scorer().score(doc["values"])


def through_from(doc):
    return f1_score(doc["values"], doc["values"])


@functools.lru_cache(maxsize=None)
def _cached_table(size):
    return an.zeros(size)


def through_cache(doc):
    return _cached_table(len(doc["values"]))


def through_submodule(doc):
    return absent_numeric_xyz.linalg.norm(doc["values"])


class PureFilter:
    def apply(self, resps, docs):
        return [[r.strip() for r in rs] for rs in resps]


class NeedyFilter:
    def apply(self, resps, docs):
        return [[_average(r) for r in rs] for rs in resps]


def dynamic(doc):
    # Out of the static walk's sight: the placeholder is reached at run time and says so.
    return globals()["an"].mean(doc["values"])
`;

/** Module-level code that really uses the missing package: the import fails, as without placeholders. */
const PLACEHOLDER_AT_IMPORT = `
import absent_numeric_xyz as an

TABLE = an.arange(10)

def fn(doc):
    return 1
`;

const PLACEHOLDER_DECORATOR = `
import absent_numeric_xyz as an

@an.vectorize
def fn(doc):
    return 1
`;

/** Calls the placeholder module's pure functions directly, with the missing packages stubbed out. */
const PLACEHOLDER_DIRECT = String.raw`
import importlib.util, json, sys, types

class Dataset:
    def __init__(self, rows):
        self.rows = rows
    def map(self, function):
        return Dataset([{**row, **function(dict(row))} for row in self.rows])

for name in ("datasets", "absent_numeric_xyz", "absent_numeric_xyz.linalg", "absent_metrics_xyz", "absent_metrics_xyz.scores"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["datasets"].Dataset = Dataset
sys.modules["absent_numeric_xyz"].ndarray = list
sys.modules["absent_metrics_xyz.scores"].f1_score = None
spec = importlib.util.spec_from_file_location("placeholder_utils", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
docs = json.load(sys.stdin)
processed = module.process_docs(Dataset(docs)).rows
print(json.dumps({"docs": processed, "annotated": [module.annotated(doc) for doc in processed],
                  "filtered": module.PureFilter().apply([[" a ", "b "]], [{}])}))
`;

export interface BridgeConformanceOptions {
  python: string;
}

export function runBridgeConformance({ python }: BridgeConformanceOptions): void {
  describe(`Python bridge on ${python}`, () => {
    let runtime: PythonRuntime;
    let dir: string;
    const stderr: string[] = [];
    const refs = new Map<string, PythonFunctionRef>();
    const yamlFile = () => path.join(dir, 'task.yaml');
    const ref = (name: string, keyPath: (string | number)[] = ['other'], module = 'fixture_utils.py') => {
      const key = `${module}#${name}#${keyPath.join('.')}`;
      let found = refs.get(key);
      if (!found) {
        found = createPythonRef(
          `${module.replace(/\.py$/, '')}.${name}`,
          path.join(dir, module),
          name,
          yamlFile(),
          keyPath,
        );
        refs.set(key, found);
      }
      return found;
    };
    const bound = async (name: string, keyPath?: (string | number)[], module?: string) => {
      const found = ref(name, keyPath, module);
      await runtime.bind([found]);
      return found;
    };

    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'assay-bridge-'));
      writeFileSync(path.join(dir, 'task.yaml'), 'task: fixture\n');
      writeFileSync(path.join(dir, 'fixture_utils.py'), MODULE);
      writeFileSync(path.join(dir, 'dataset_utils.py'), DATASET_MODULE);
      writeFileSync(path.join(dir, 'helpers_utils.py'), HELPERS_MODULE);
      writeFileSync(path.join(dir, 'sklearn_utils.py'), SKLEARN_MODULE);
      writeFileSync(path.join(dir, 'sklearn_partial.py'), SKLEARN_PARTIAL_MODULE);
      writeFileSync(
        path.join(dir, 'needs_missing.py'),
        'import definitely_not_a_module_xyz\n\ndef fn(doc):\n    return 1\n',
      );
      // The task folder's own module (not on sys.path, as in lm-eval): never stood in for.
      writeFileSync(path.join(dir, 'definitely_not_a_module_xyz.py'), 'VALUE = 1\n');
      writeFileSync(path.join(dir, 'placeholder_utils.py'), PLACEHOLDER_MODULE);
      writeFileSync(path.join(dir, 'placeholder_at_import.py'), PLACEHOLDER_AT_IMPORT);
      writeFileSync(path.join(dir, 'placeholder_decorator.py'), PLACEHOLDER_DECORATOR);
      writeFileSync(
        path.join(dir, 'placeholder_star.py'),
        'from absent_numeric_xyz import *\n\ndef fn(doc):\n    return array(doc)\n',
      );
      writeFileSync(
        path.join(dir, 'missing_helper.py'),
        'from lm_eval.utils import not_a_real_helper\n\ndef fn(doc):\n    return 1\n',
      );
      writeFileSync(
        path.join(dir, 'class_task.py'),
        'from lm_eval.api.task import ConfigurableTask\n\ndef fn(doc):\n    return 1\n',
      );
      // A task tree: modules import each other as lm_eval.tasks.<folder>.<module>, and relatively.
      const tasks = path.join(dir, 'tree', 'lm_eval', 'tasks');
      mkdirSync(path.join(tasks, 'alpha'), { recursive: true });
      mkdirSync(path.join(tasks, 'beta'), { recursive: true });
      writeFileSync(path.join(tasks, 'beta', 'shared.py'), 'PREFIX = "beta:"\n');
      writeFileSync(path.join(tasks, 'alpha', 'sibling.py'), 'SUFFIX = ":alpha"\n');
      writeFileSync(
        path.join(tasks, 'alpha', 'utils.py'),
        'from lm_eval.tasks.beta.shared import PREFIX\nfrom . import sibling\n\ndef doc_to_text(doc):\n    return PREFIX + doc["text"] + sibling.SUFFIX\n',
      );
      runtime = await PythonRuntime.start({
        python,
        seeds: { random: 0, numpy: 1234, torch: 1234 },
        onStderr: (line) => stderr.push(line),
      });
    });
    afterAll(async () => {
      await runtime?.close();
    });

    it('reports the interpreter, and which packages are stand-ins', () => {
      const info = runtime.describe();
      expect(info.path).toBe(python);
      expect(info.version).toMatch(/^3\.\d+\.\d+$/);
      for (const name of ['datasets', 'lm_eval'] as const) {
        expect(info.stand_ins.includes(name)).toBe(info.packages[name] === null);
      }
    });

    it('process_docs gets a Dataset (map with indices, filter) once, and its docs go back by reference', async () => {
      const process = await bound('process_docs', ['process_docs']);
      const raw: Doc[] = [
        { text: ' a ', keep: true, id: 0 },
        { text: 'bb', keep: false, id: 1 },
        { text: 'ccc ', keep: true, id: 2 },
      ];
      const docs = await runtime.processDocs(process, raw, { task: 'fixture', split: 'test' });
      expect(docs).toEqual([
        { text: ' a ', keep: true, id: 0, query: '0: a', length: 3 },
        { text: 'ccc ', keep: true, id: 2, query: '2: ccc', length: 4 },
      ]);
      expect(runtime.refOf(docs[1])).toEqual({ h: expect.any(Number), i: 1 });
      expect(
        await (process.fn as (docs: Doc[], context: object) => unknown)(raw, { task: 'fixture' }),
      ).toEqual(docs);
    });

    it('doc functions run over all docs in one call; evaluator calls read the results', async () => {
      const text = await bound('doc_to_text', ['doc_to_text']);
      const choice = await bound('doc_to_choice', ['doc_to_choice']);
      const target = await bound('doc_to_target', ['doc_to_target']);
      const docs: Doc[] = [
        { text: 'one', choices: ['a', 'b'], label: 1 },
        { text: 'two', choices: ['c', 'd'], label: 0 },
      ];
      await runtime.prepareDocFunctions(
        [
          { ref: text, docs },
          { ref: choice, docs },
          { ref: target, docs: [docs[1]] },
        ],
        (doc) => ({ task: 'fixture', docId: docs.indexOf(doc) }),
      );
      expect(docs.map((doc) => text.fn(doc as never))).toEqual(['Q: one', 'Q: two']);
      expect(choice.fn(docs[0] as never)).toEqual(['A', 'B']);
      expect(target.fn(docs[1] as never)).toBe(0);
      expect(() => target.fn(docs[0] as never)).toThrow(/not prepared/);
    });

    it('a Python exception names the task, the doc, the function and the last frame of task code', async () => {
      const failing = await bound('fails_on_three', ['doc_to_text']);
      const docs: Doc[] = [0, 1, 2, 3, 4].map((id) => ({ id }));
      const error = (await runtime
        .prepareDocFunctions([{ ref: failing, docs }], (doc) => ({
          task: 'fixture',
          docId: docs.indexOf(doc),
        }))
        .catch((caught: unknown) => caught)) as AssayError;
      expect(error).toBeInstanceOf(AssayError);
      expect(error.code).toBe('python_error');
      expect(error.location).toMatchObject({
        file: path.join(dir, 'fixture_utils.py'),
        line: MODULE.split('\n').findIndex((line) => line.includes('raise ValueError')) + 1,
        task: 'fixture',
        docId: 3,
        field: 'doc_to_text',
      });
      expect(error.message).toBe(
        'task fixture: doc_to_text fixture_utils.fails_on_three raised ValueError: bad doc three in fails_on_three: raise ValueError("bad doc three") (on doc 3)',
      );
    });

    it('import failures name the module that is missing; a missing function lists where it was looked up', async () => {
      const missing = ref('fn', ['doc_to_text'], 'needs_missing.py');
      const absent = ref('no_such_function', ['process_docs']);
      const [importError, attributeError] = await runtime.tryBind([missing, absent]);
      expect(importError?.code).toBe('function_not_found');
      expect(importError?.message).toMatch(
        /^doc_to_text: !function needs_missing\.fn: importing needs_missing\.py failed: ModuleNotFoundError: No module named 'definitely_not_a_module_xyz' at needs_missing\.py:1 in <module>/,
      );
      expect((importError?.cause as { failure: { missing: string } } | undefined)?.failure.missing).toBe(
        'definitely_not_a_module_xyz',
      );
      expect(attributeError?.message).toBe(
        "process_docs: !function fixture_utils.no_such_function: fixture_utils.py has no function 'no_such_function'",
      );
    });

    it('a module importing a missing package loads with placeholders; its pure functions run as Python runs them', async () => {
      const docs = [
        { text: '  hello   wide  world ', values: [1, 2] },
        { text: 'ünïcode  text', values: [3] },
      ];
      const direct = spawnSync(python, ['-c', PLACEHOLDER_DIRECT, path.join(dir, 'placeholder_utils.py')], {
        input: JSON.stringify(docs),
        encoding: 'utf8',
      });
      expect(direct.stderr).toBe('');
      const expected = JSON.parse(direct.stdout);
      const processDocs = await bound('process_docs', ['process_docs'], 'placeholder_utils.py');
      const processed = await runtime.processDocs(processDocs, docs, { task: 't', split: 'test' });
      expect(processed).toEqual(expected.docs);
      const annotated = await bound('annotated', ['doc_to_text'], 'placeholder_utils.py');
      await runtime.prepareDocFunctions([{ ref: annotated, docs: processed }], () => ({ task: 't' }));
      expect(processed.map((doc) => annotated.prepared.get(doc))).toEqual(expected.annotated);
      const pure = await bound('PureFilter', ['filter_list', 0], 'placeholder_utils.py');
      expect(await runtime.filter(pure, 'class', {}, [[' a ', 'b ']], [{}], 't')).toEqual(expected.filtered);
    });

    it('a function that can reach a placeholder is refused, naming the package and the way it gets there', async () => {
      const cases: Array<[string, string, string]> = [
        ['direct', 'absent_numeric_xyz', 'direct -> an'],
        ['through_helper', 'absent_numeric_xyz', 'through_helper -> _average -> an'],
        ['through_class', 'absent_metrics_xyz', 'through_class -> Scorer -> score -> f1_score'],
        ['through_from', 'absent_metrics_xyz', 'through_from -> f1_score'],
        ['through_submodule', 'absent_numeric_xyz', 'through_submodule -> absent_numeric_xyz'],
        ['through_cache', 'absent_numeric_xyz', 'through_cache -> _cached_table -> an'],
        ['NeedyFilter', 'absent_numeric_xyz', 'NeedyFilter -> apply -> _average -> an'],
      ];
      const refsToBind = cases.map(([name]) => ref(name, ['process_results'], 'placeholder_utils.py'));
      const failures = await runtime.tryBind(refsToBind);
      const interpreter = runtime.info.python;
      expect(failures.map((failure) => [failure?.code, failure?.message])).toEqual(
        cases.map(([name, root, trail]) => [
          'python_package_missing',
          `process_results: !function placeholder_utils.${name} needs ${root}, not installed for ${interpreter} (via ${trail}); install it in that interpreter or pass --python`,
        ]),
      );
      expect(failures.map((failure) => failure?.location?.file)).toEqual(cases.map(() => yamlFile()));
    });

    it('a placeholder reached at run time raises an ImportError naming the package, never a value', async () => {
      const dynamic = await bound('dynamic', ['doc_to_text'], 'placeholder_utils.py');
      const error = await runtime
        .prepareDocFunctions([{ ref: dynamic, docs: [{ values: [1] }] }], () => ({ task: 't', docId: 0 }))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AssayError);
      expect((error as AssayError).message).toBe(
        `task t: doc_to_text placeholder_utils.dynamic raised ImportError: absent_numeric_xyz is not installed for ${runtime.info.python} (needed by ${path.join(dir, 'placeholder_utils.py')}); install it in that interpreter or pass --python in dynamic: return globals()["an"].mean(doc["values"]) (on doc 0)`,
      );
    });

    it('module-level use of a missing package (a call, a decorator, a star import) still fails the import', async () => {
      const failures = await runtime.tryBind([
        ref('fn', ['process_docs'], 'placeholder_at_import.py'),
        ref('fn', ['process_docs'], 'placeholder_decorator.py'),
        ref('fn', ['process_docs'], 'placeholder_star.py'),
      ]);
      const because = (file: string) =>
        `absent_numeric_xyz is not installed for ${runtime.info.python} (needed by ${path.join(dir, file)}); install it in that interpreter or pass --python`;
      expect(failures.map((failure) => failure?.code)).toEqual([
        'function_not_found',
        'function_not_found',
        'function_not_found',
      ]);
      expect(failures[0]?.message).toBe(
        `process_docs: !function placeholder_at_import.fn: importing placeholder_at_import.py failed: ImportError: ${because('placeholder_at_import.py')} at placeholder_at_import.py:4 in <module>: TABLE = an.arange(10)`,
      );
      expect(failures[1]?.message).toBe(
        `process_docs: !function placeholder_decorator.fn: importing placeholder_decorator.py failed: ImportError: ${because('placeholder_decorator.py')} at placeholder_decorator.py:4 in <module>: @an.vectorize`,
      );
      // A star import cannot know the names it would bind: it fails rather than leave them undefined.
      expect(failures[2]?.message).toBe(
        `process_docs: !function placeholder_star.fn: importing placeholder_star.py failed: ImportError: ${because('placeholder_star.py')} at placeholder_star.py:1 in <module>: from absent_numeric_xyz import *`,
      );
    });

    it('process_results keeps tuples and sets in Python for the task aggregation; one failing doc is one error', async () => {
      const process = await bound('process_results', ['process_results']);
      const docs: Doc[] = [
        { id: 0, label: 1, text: 'a b a' },
        { id: 1, label: 0, text: 'c d' },
        { id: 2, label: 0, text: 'e' },
        { id: 3, label: 1, text: 'a f' },
      ];
      const logprobs = [-2.5, 0, -0.5, -3];
      const scores = await runtime.processResults(
        process,
        docs.map((doc, index) => ({
          doc,
          results: [pyTuple([new PyFloat(logprobs[index]), index % 2 === 0])],
          location: { task: 'fixture', docId: index },
        })),
      );
      // The compact form the evaluator uses for log-likelihood answers gives the same tuples.
      const compact = await runtime.processResults(
        process,
        docs.map((doc, index) => ({
          doc,
          results: [[logprobs[index], index % 2 === 0]],
          location: { task: 'fixture', docId: index },
        })),
        { loglikelihood: true },
      );
      expect(JSON.stringify(compact.values)).toBe(JSON.stringify(scores.values));
      expect(compact.values.map((value) => value?.kind)).toEqual(['float', 'float', undefined, 'float']);
      expect(scores.errors.map((error) => error?.message)).toEqual([
        undefined,
        undefined,
        'task fixture: process_results fixture_utils.process_results raised KeyError: \'no metric for doc two\' in process_results: raise KeyError("no metric for doc two") (on doc 2)',
        undefined,
      ]);
      const first = scores.values[0] as Record<string, unknown>;
      expect(first.pair).toEqual([1, 1]);
      expect(isPyTuple(first.pair)).toBe(true);
      // A log-likelihood of exactly 0 still reaches Python as a float.
      expect(scores.values.map((value) => value?.kind)).toEqual(['float', 'float', undefined, 'float']);
      expect(first.words).toBeInstanceOf(PyHandle);
      expect((first.words as PyHandle).json).toEqual(expect.arrayContaining(['a', 'b']));
      expect(JSON.stringify(first.words)).toMatch(/^\["[ab]","[ab]"\]$/);
      const kept = [0, 1, 3].map((index) => ({ ...scores.refs[index] }));
      const accuracy = await bound('pair_accuracy', ['metric_list', 0, 'aggregation']);
      const pairs = await runtime.aggregate(
        accuracy,
        kept.map((item) => ({ ...item, key: 'pair' })),
        0,
        'fixture',
      );
      // (1, 1), (0, 0) and (1, 1): every pair agrees.
      expect(pairs).toEqual({ value: 1, replicates: [] });
      const vocabulary = await bound('vocabulary', ['metric_list', 1, 'aggregation']);
      const words = await runtime.aggregate(
        vocabulary,
        kept.map((item) => ({ ...item, key: 'words' })),
        0,
        'fixture',
      );
      expect(words.value).toBe(5);
    });

    it("bootstraps a Python aggregation with lm-eval's procedure (chunks seeded Random(0), Random(1), …)", async () => {
      const mean = await bound('mean_of', ['metric_list', 0, 'aggregation']);
      const values = [1, 0, 0, 1, 1, 1, 0, 1, 0, 1];
      const { value, replicates } = await runtime.aggregate(
        mean,
        values.map((item) => ({ value: item })),
        2000,
        'fixture',
      );
      expect(value).toBe(0.6);
      expect(replicates).toHaveLength(2000);
      // The same replicates as assay's own port of lm-eval's bootstrap_stderr draws for a mean.
      const { bootstrapReplicates } = await import('../stats/bootstrap-stderr.js');
      const expected = bootstrapReplicates(
        (items: readonly number[]) => items.reduce((a, b) => a + b, 0) / items.length,
        values,
        2000,
        { mode: 'lm-eval' },
      );
      expect(replicates).toEqual([...expected]);
    });

    it('floats cross bit for bit both ways; values JSON cannot hold stay in Python', async () => {
      const floats = (await runtime.call(await bound('floats'))) as unknown[];
      expect(floats.slice(0, 8)).toEqual([
        0.1 + 0.2,
        1 / 3,
        Math.PI * 1e300,
        5e-324,
        -0,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
      ]);
      expect(Object.is(floats[4], -0)).toBe(true);
      // 2**53 + 1 has no exact double: it stays a Python int, shown by its digits.
      expect(floats[8]).toBeInstanceOf(PyHandle);
      expect(String(floats[8])).toBe('9007199254740993');
      const reprs = await runtime.call(
        await bound('reprs'),
        0.1 + 0.2,
        new PyFloat(0),
        Number.NaN,
        Number.NEGATIVE_INFINITY,
        pyTuple([1, 'a']),
        [1.5, -0],
        floats[8],
      );
      expect(reprs).toEqual([
        '0.30000000000000004',
        '0.0',
        'nan',
        '-inf',
        "(1, 'a')",
        '[1.5, 0]',
        '9007199254740993',
      ]);
      const echo = await bound('echo');
      const back = await runtime.call(echo, { nested: pyTuple([1, [2, pyTuple([3])]]) });
      expect(isPyTuple((back as { nested: unknown[] }).nested)).toBe(true);
      expect(isPyTuple(((back as { nested: unknown[] }).nested[1] as unknown[])[1])).toBe(true);
    });

    it('unicode survives: astral characters, combining marks, lone surrogates are refused by neither side', async () => {
      const reverse = await bound('reverse_text', ['doc_to_text']);
      const docs = [
        { text: 'héllo wörld' },
        { text: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🎉' },
        { text: 'e\u0301 à la' },
        { text: '日本語テキスト' },
      ];
      await runtime.prepareDocFunctions([{ ref: reverse, docs }], () => ({ task: 'fixture' }));
      // Python reverses code points (not UTF-16 units).
      expect(docs.map((doc) => reverse.fn(doc as never))).toEqual(
        docs.map((doc) => `${[...doc.text].reverse().join('')}\u2713`),
      );
    });

    it('large batches: 20,000 docs through process_docs and doc_to_text', async () => {
      const process = await bound('process_docs', ['process_docs']);
      const text = await bound('doc_to_text', ['doc_to_text']);
      const raw = Array.from({ length: 20_000 }, (_, id) => ({
        text: `doc ${id} ${'x'.repeat(id % 50)}`,
        keep: true,
        id,
      }));
      const docs = await runtime.processDocs(process, raw, { task: 'fixture', split: 'test' });
      expect(docs).toHaveLength(20_000);
      expect(docs[19_999]).toMatchObject({ query: `19999: ${raw[19_999].text.trim()}` });
      await runtime.prepareDocFunctions([{ ref: text, docs }], () => ({ task: 'fixture' }));
      expect(docs.every((doc, id) => text.fn(doc as never) === `Q: ${raw[id].text}`)).toBe(true);
    });

    it('filters: a filter class built with its kwargs and custom filter_fn see every instance at once', async () => {
      const upper = await bound('UpperFilter', ['filter_list', 0, 'filter', 0, 'function']);
      const docs = [{ id: 7 }, { id: 8 }];
      expect(
        await runtime.filter(upper, 'class', { suffix: '!' }, [['ab'], ['cd', 'ef']], docs, 'fixture'),
      ).toEqual([['AB!7'], ['CD!8', 'EF!8']]);
      const reverse = await bound('reverse_filter', ['filter_list', 0, 'filter', 0, 'filter_fn']);
      expect(await runtime.filter(reverse, 'custom', {}, [['ab'], ['cd']], docs, 'fixture')).toEqual([
        ['ba'],
        ['dc'],
      ]);
    });

    it("generation metrics: fn(references=, predictions=), else fn([gold, result]); a dict's keys spread", async () => {
      const overlap = await bound('overlap', ['metric_list', 0, 'metric']);
      const scores = await runtime.metric(overlap, 'overlap', {}, [
        { gold: 'cat', result: 'a cat', multipleTarget: false, location: { task: 'fixture', docId: 0 } },
        {
          gold: ['dog', 'cat'],
          result: 'cat!',
          multipleTarget: true,
          location: { task: 'fixture', docId: 1 },
        },
        { gold: ['dog'], result: 'cat', multipleTarget: true, location: { task: 'fixture', docId: 2 } },
      ]);
      expect(scores.values).toEqual([{ overlap: 1 }, { overlap: 1 }, { overlap: 0 }]);
      const pair = await bound('as_pair', ['metric_list', 1, 'metric']);
      const spread = await runtime.metric(pair, 'as_pair', {}, [
        { gold: 'abc', result: 'abd', multipleTarget: false, location: { task: 'fixture', docId: 0 } },
      ]);
      expect(spread.values).toEqual([{ first: 1, same: 0 }]);
    });

    it('what task code prints (print(), or bytes on fd 1) goes to stderr, never into the frames', async () => {
      const noisy = await bound('noisy', ['doc_to_text']);
      const docs = [{}, {}];
      await runtime.prepareDocFunctions([{ ref: noisy, docs }], () => ({ task: 'fixture' }));
      expect(docs.map((doc) => noisy.fn(doc as never))).toEqual(['quiet', 'quiet']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr.filter((line) => line === 'hello from print')).toHaveLength(2);
      expect(stderr.filter((line) => line === 'raw bytes on fd 1')).toHaveLength(2);
    });

    it('a worker that dies fails the call with how it exited and its last stderr lines', async () => {
      const doomed = await PythonRuntime.start({ python });
      const die = ref('die', ['doc_to_text']);
      const copy = createPythonRef(die.ref, die.module, die.name, die.yamlFile, die.keyPath);
      await doomed.bind([copy]);
      const error = (await doomed
        .prepareDocFunctions([{ ref: copy, docs: [{}] }], () => ({ task: 'fixture' }))
        .catch((caught: unknown) => caught)) as AssayError;
      expect(error).toBeInstanceOf(AssayError);
      expect(error.exitCode).toBe(1);
      expect(error.message).toBe(
        'task fixture: doc_to_text fixture_utils.die: the Python worker exited (code 3): about to exit',
      );
      await doomed.close();
    });

    it('group aggregation: fn(values, sizes, weight_by_size)', async () => {
      const delta = await bound('delta', ['aggregate_metric_list', 0, 'aggregation']);
      expect(await runtime.groupAggregate(delta, [0.75, 0.5], [10, 20], false, 'group')).toBe(0.25);
      expect(await runtime.groupAggregate(delta, [0.75, 0.5], [10, 20], true, 'group')).toBe(0.75);
    });

    it('fewshot_config.samples: called without arguments', async () => {
      const samples = await bound('fewshot_samples', ['fewshot_config', 'samples']);
      expect(await samples.fn()).toEqual([
        { text: 'shot one', id: -1 },
        { text: 'shot two', id: -2 },
      ]);
    });

    it('determinism: a fresh worker iterates a set of strings in the same order (PYTHONHASHSEED=0)', async () => {
      const first = await runtime.call(await bound('set_text'));
      const other = await PythonRuntime.start({ python });
      try {
        const again = ref('set_text');
        const copy = createPythonRef(again.ref, again.module, again.name, again.yamlFile, again.keyPath);
        await other.bind([copy]);
        expect(await other.call(copy)).toBe(first);
      } finally {
        await other.close();
      }
    });

    it('task trees: lm_eval.tasks.<folder> imports and relative imports resolve in the tree', async () => {
      const module = path.join(dir, 'tree', 'lm_eval', 'tasks', 'alpha', 'utils.py');
      const tree = createPythonRef('utils.doc_to_text', module, 'doc_to_text', yamlFile(), ['doc_to_text']);
      await runtime.bind([tree]);
      const docs = [{ text: 'x' }];
      await runtime.prepareDocFunctions([{ ref: tree, docs }], () => ({ task: 'fixture' }));
      expect(tree.fn(docs[0] as never)).toBe('beta:x:alpha');
    });

    it('the datasets stand-in behaves as the datasets documentation says', async () => {
      if (!runtime.info.stand_ins.includes('datasets')) return;
      const run = await bound('run', ['process_docs'], 'dataset_utils.py');
      const [out] = (await runtime.processDocs(run, [{ x: 1 }], { task: 'fixture' })) as Array<
        Record<string, unknown>
      >;
      const shape = (columns: string[], rows: Doc[]) => ({ columns, rows, len: rows.length });
      expect(out.from_list).toEqual(
        // from_list takes the columns from the first row: later keys are dropped, missing ones are None.
        shape(
          ['a', 'b'],
          [
            { a: 1, b: 'x' },
            { a: 2, b: null },
            { a: 3, b: 'z' },
          ],
        ),
      );
      expect(out.column).toEqual([1, 2, 3]);
      expect(out.row).toEqual({ a: 2, b: null });
      expect(out.slice).toEqual({ a: [1, 2], b: ['x', null] });
      expect(out.features).toEqual(['a', 'b']);
      expect(out.iter).toEqual([1, 2, 3]);
      expect(out.map_remove).toEqual(
        shape(
          ['b', 'd'],
          [
            { b: 'new', d: 10 },
            { b: 'new', d: 20 },
            { b: 'new', d: 30 },
          ],
        ),
      );
      expect(out.batched_map).toEqual(
        shape(
          ['part'],
          ['1-0', '1-1', '2-0', '2-1', '3-0', '3-1'].map((part) => ({ part })),
        ),
      );
      expect(out.filter_batched).toEqual(
        shape(
          ['a', 'b'],
          [
            { a: 1, b: 'x' },
            { a: 3, b: 'z' },
          ],
        ),
      );
      expect(out.filter_indices).toEqual(
        shape(
          ['a', 'b'],
          [
            { a: 1, b: 'x' },
            { a: 3, b: 'z' },
          ],
        ),
      );
      expect(out.select).toEqual(
        shape(
          ['a', 'b'],
          [
            { a: 3, b: 'z' },
            { a: 1, b: 'x' },
          ],
        ),
      );
      expect(out.rename).toEqual(
        shape(
          ['a', 'B'],
          [
            { a: 1, B: 'x' },
            { a: 2, B: null },
            { a: 3, B: 'z' },
          ],
        ),
      );
      expect(out.add).toEqual(
        shape(
          ['a', 'b', 'e'],
          [
            { a: 1, b: 'x', e: true },
            { a: 2, b: null, e: false },
            { a: 3, b: 'z', e: true },
          ],
        ),
      );
      expect(out.remove).toEqual(shape(['a'], [{ a: 1 }, { a: 2 }, { a: 3 }]));
      // Nulls last (null_placement="at_end"), in either direction.
      expect(out.sort).toEqual(shape(['k'], [{ k: 1 }, { k: 2 }, { k: null }]));
      expect(out.sort_reverse).toEqual([2, 1, null]);
      // Dataset.shuffle(seed) is numpy's default_rng(seed).permutation; these orders are numpy 2.4's.
      expect(out.shuffle).toEqual([5, 6, 0, 7, 3, 2, 4, 9, 1, 8]);
      expect(out.shuffle_1234).toEqual([
        3, 9, 18, 16, 8, 5, 12, 13, 0, 17, 15, 11, 2, 7, 10, 6, 4, 14, 1, 19,
      ]);
      expect(out.shuffle_big_seed).toEqual([4, 0, 2, 3, 1, 5, 6]);
      expect(out.from_dict).toEqual(
        shape(
          ['p', 'q'],
          [
            { p: 1, q: 'a' },
            { p: 2, q: 'b' },
          ],
        ),
      );
      expect(out.unique).toEqual(['b', 'a']);
      expect(out.remove_missing).toMatch(/missing not in the dataset/);
    });

    it('the lm_eval stand-in: the helpers task code imports most, with their documented results', async () => {
      if (!runtime.info.stand_ins.includes('lm_eval')) return;
      const run = await bound('run', ['other'], 'helpers_utils.py');
      const out = (await runtime.call(run)) as Record<string, unknown>;
      // scikit-learn's documented example: f1_score([0,1,2,0,1,2], [0,2,1,0,0,1], average="weighted") ≈ 0.267
      // (class 0: F1 0.8 with support 2; classes 1 and 2: F1 0).
      expect(out.f1).toBe((0.8 * 2) / 6);
      expect(out.f1_perfect).toBe(1);
      // lm-eval's own general_detokenize gives these (run on lm_eval/utils.py at 4e7e0d47).
      expect(out.detok).toEqual([
        'He said"hello"(really), didn\'t he ?',
        'It\'s a test. Isn\'t it,"really"?',
      ]);
      expect(out.max).toBe(1);
      expect(out.mean).toBe(2.5);
      expect(out.regex).toEqual([['42', '[invalid]'], ['-3.5']]);
      expect(out.digits).toEqual([['12']]);
      const [helper, task] = await runtime.tryBind([
        ref('fn', ['doc_to_text'], 'missing_helper.py'),
        ref('fn', ['doc_to_text'], 'class_task.py'),
      ]);
      expect(helper?.message).toMatch(
        /importing missing_helper\.py failed: ImportError: lm_eval\.utils\.not_a_real_helper is not available: this Python has no lm_eval package, and assay's stand-in for it does not provide lm_eval\.utils\.not_a_real_helper/,
      );
      expect(task?.message).toMatch(/ImportError: lm_eval\.api\.task is not available/);
    });

    it("the sklearn stand-in: f1_score and accuracy_score as scikit-learn's documentation gives them", async () => {
      if (!runtime.info.stand_ins.includes('sklearn')) return;
      const run = await bound('run', ['other'], 'sklearn_utils.py');
      const out = (await runtime.call(run)) as Record<string, Record<string, unknown>>;
      const value = (name: string) => out[name]?.value;
      const error = (name: string) => out[name]?.error;
      // f1_score's docstring example: per label F1 = 2TP/(2TP+FP+FN) is 0.8 for label 0 (TP 2, FP 1, FN 0)
      // and 0 for labels 1 and 2; micro pools TP 2 over 6 predictions and 6 labels.
      expect(value('macro')).toBe((0.8 + 0 + 0) / 3);
      expect(value('micro')).toBe(1 / 3);
      expect(value('weighted')).toBe((0.8 * 2) / 6);
      expect(value('none')).toEqual([0.8, 0, 0]);
      expect(out.macro?.type).toBe('float');
      // accuracy_score's docstring example, and its count (a float, as scikit-learn returns it).
      expect(out.accuracy).toEqual({ value: 0.5, type: 'float', warned: [] });
      expect(out.accuracy_count).toEqual({ value: 2, type: 'float', warned: [] });
      // The docstring's all-negative binary case: zero_division decides; "warn" warns and gives 0.
      expect(out.empty_binary).toEqual({ value: 0, type: 'float', warned: ['UndefinedMetricWarning'] });
      expect(out.empty_binary_one).toEqual({ value: 1, type: 'float', warned: [] });
      expect(Number.isNaN(value('empty_binary_nan'))).toBe(true);
      // By hand: pos_label 1 has TP 1, FP 1, FN 1 -> 2/4; "spam" TP 2, FP 1, FN 1 -> 4/6; "ham" TP 0 -> 0.
      expect(value('binary')).toBe(0.5);
      expect(value('pos_spam')).toBe(4 / 6);
      expect(value('pos_ham')).toBe(0);
      // sample_weight [1, 2, 3]: label 1 has TP 2, FN 3, FP 0 -> 4/7; accuracy 3 of 6 by weight.
      expect(value('weights')).toBe(4 / 7);
      expect(value('weights_accuracy')).toBe(0.5);
      expect(value('weights_count')).toBe(3);
      // A label in neither y_true nor y_pred: zero_division (nan is left out of the average).
      expect(out.absent_label).toEqual({ value: [1, 0], type: 'list', warned: ['UndefinedMetricWarning'] });
      expect(value('absent_label_one')).toEqual([1, 1]);
      expect(value('absent_label_nan')).toBe(1);
      // No support for any label: the weights are ignored (label 1: 0, label 2: zero_division 1).
      expect(value('no_support')).toBe(0.5);
      // labels=[1, 2], micro: TP 1 (a 2), 3 true and 3 predicted among those labels -> 2/6.
      expect(value('micro_subset')).toBe(2 / 6);
      // "a": TP 1, FN 1 -> 2/3; "b": FP 1, FN 1 -> 0; "c": TP 1, FP 1 -> 2/3.
      expect(value('strings_macro')).toBe((2 / 3 + 0 + 2 / 3) / 3);
      // scikit-learn's errors for these inputs, with its messages.
      expect(error('multiclass_binary')).toBe(
        "ValueError: Target is multiclass but average='binary'. Please choose another average setting, one of [None, 'micro', 'macro', 'weighted'].",
      );
      expect(error('bad_pos_label')).toBe(
        "ValueError: pos_label=1 is not a valid label. It should be one of ['a', 'b']",
      );
      expect(error('lengths')).toBe(
        'ValueError: Found input variables with inconsistent numbers of samples: [3, 2]',
      );
      expect(error('continuous')).toBe(
        "ValueError: Classification metrics can't handle a mix of continuous and binary targets",
      );
      expect(error('samples')).toBe(
        'ValueError: Samplewise metrics are not available outside of multilabel classification.',
      );
      expect(error('bad_zero_division')).toMatch(
        /^ValueError: The 'zero_division' parameter of f1_score must be/,
      );
      expect(error('bad_average')).toMatch(/^ValueError: The 'average' parameter of f1_score must be/);
      // What the stand-in does not do is an ImportError naming it, never a number.
      const install =
        "is not supported by assay's stand-in for scikit-learn; install scikit-learn in the interpreter assay uses (--python PATH or ASSAY_PYTHON)";
      expect(error('multilabel')).toBe(
        `ImportError: sklearn.metrics: a y_true holding list values (multilabel or other nested targets) ${install}`,
      );
      expect(error('mixed_types')).toBe(
        `ImportError: sklearn.metrics: targets mixing strings and numbers ${install}`,
      );
      expect(error('empty')).toBe(`ImportError: sklearn.metrics: empty y_true and y_pred ${install}`);
    });

    it('the sklearn stand-in serves f1_score and accuracy_score; any other sklearn name is a placeholder', async () => {
      if (!runtime.info.stand_ins.includes('sklearn')) return;
      const keyPath = ['metric_list', 0, 'aggregation'];
      const names = ['micro', 'via_package', 'late', 'mcc', 'vectorize'];
      const refsToBind = names.map((name) =>
        ref(name, name === 'vectorize' ? ['doc_to_text'] : keyPath, 'sklearn_partial.py'),
      );
      const errors = await runtime.tryBind(refsToBind);
      const interpreter = runtime.info.python;
      expect(errors.map((found) => found?.message)).toEqual([
        undefined,
        undefined,
        undefined,
        `metric_list.0.aggregation: !function sklearn_partial.mcc needs sklearn, not installed for ${interpreter} (via mcc -> matthews_corrcoef); install it in that interpreter or pass --python`,
        `doc_to_text: !function sklearn_partial.vectorize needs sklearn, not installed for ${interpreter} (via vectorize -> CountVectorizer); install it in that interpreter or pass --python`,
      ]);
      const items = [
        [0, 0],
        [1, 2],
        [2, 2],
        [1, 1],
      ];
      const [micro, viaPackage, late] = refsToBind;
      // 3 of 4 right: micro F1 over single labels is the accuracy.
      expect(await runtime.call(micro as PythonFunctionRef, items)).toBe(0.75);
      expect(await runtime.call(viaPackage as PythonFunctionRef, items)).toBe(0.75);
      // A name the stand-in lacks, imported at run time: an ImportError that says what to install.
      await expect(runtime.call(late as PythonFunctionRef, items)).rejects.toThrow(
        /ModuleNotFoundError: sklearn\.metrics\.precision_score is not available: this Python has no sklearn package, and assay's stand-in for it does not provide sklearn\.metrics\.precision_score\. Install scikit-learn in the interpreter assay uses/,
      );
    });

    it('an installed sklearn always wins over the stand-in', async () => {
      // A package named sklearn on PYTHONPATH (a tiny one: this machine has no scikit-learn).
      const site = mkdtempSync(path.join(os.tmpdir(), 'assay-sklearn-site-'));
      mkdirSync(path.join(site, 'sklearn', 'feature_extraction'), { recursive: true });
      writeFileSync(path.join(site, 'sklearn', '__init__.py'), 'from . import metrics\n');
      writeFileSync(
        path.join(site, 'sklearn', 'metrics.py'),
        'def f1_score(y_true, y_pred, **kwargs):\n    return "installed f1_score"\n\n' +
          'def accuracy_score(y_true, y_pred, **kwargs):\n    return "installed accuracy_score"\n\n' +
          'def matthews_corrcoef(y_true, y_pred):\n    return "installed matthews_corrcoef"\n',
      );
      writeFileSync(path.join(site, 'sklearn', 'feature_extraction', '__init__.py'), '');
      writeFileSync(
        path.join(site, 'sklearn', 'feature_extraction', 'text.py'),
        'class CountVectorizer:\n    pass\n',
      );
      const saved = process.env.PYTHONPATH;
      process.env.PYTHONPATH = site; // the worker inherits the environment
      const installed = await PythonRuntime.start({ python }).finally(() => {
        if (saved === undefined) delete process.env.PYTHONPATH;
        else process.env.PYTHONPATH = saved;
      });
      try {
        expect(installed.info.stand_ins).not.toContain('sklearn');
        const keyPath = ['metric_list', 0, 'aggregation'];
        const refsToBind = ['micro', 'mcc'].map((name) =>
          createPythonRef(
            `sklearn_partial.${name}`,
            path.join(dir, 'sklearn_partial.py'),
            name,
            yamlFile(),
            keyPath,
          ),
        );
        expect((await installed.tryBind(refsToBind)).map((found) => found?.message)).toEqual([
          undefined,
          undefined,
        ]);
        const items = [[0, 1]];
        expect(await installed.call(refsToBind[0] as PythonFunctionRef, items)).toBe('installed f1_score');
        expect(await installed.call(refsToBind[1] as PythonFunctionRef, items)).toBe(
          'installed matthews_corrcoef',
        );
      } finally {
        await installed.close();
      }
    });
  });
}
