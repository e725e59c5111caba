/**
 * A JSON value `18.0` reaches every consumer as the float lm-eval has (issue 28 D1): the template (Jinja
 * prints a float as Python does), a utils.py function (the bridge hands Python a float), and the sample
 * log with its doc_hash (lm-eval hashes `json.dumps(doc, indent=2, ensure_ascii=False)`). The doc lm-eval
 * sees is Arrow's typing of the file (see src/data/column-types.test.ts for the sources), written here as
 * a Python literal; python3 computes its expected hash and reads the logged doc back.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { findOne, tempDir } from './support/helpers.js';
import { testInterpreters } from './support/python-interpreters.js';
import { requireComponent } from './support/require-component.js';

const interpreters = testInterpreters();
const present = requireComponent('python3', interpreters.length > 0);

const DATA = [
  '{"q": "a", "x": 18.0, "y": 3, "z": [1, 2], "s": {"m": 1}, "w": 5}',
  '{"q": "b", "x": 7, "y": 4, "z": [1.5], "s": {"m": 2.5}}',
];
/** The rows as datasets gives them to lm-eval: x, z's items and s.m are float columns; w is None in row 2. */
const PYTHON_DOCS = [
  "{'q': 'a', 'x': 18.0, 'y': 3, 'z': [1.0, 2.0], 's': {'m': 1.0}, 'w': 5}",
  "{'q': 'b', 'x': 7.0, 'y': 4, 'z': [1.5], 's': {'m': 2.5}, 'w': None}",
];

function python(code: string): string {
  const run = spawnSync(interpreters[0], ['-c', code], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

describe.skipIf(!present)('a float in the data file', () => {
  it('is a float in the template, in Python, in the sample log and in doc_hash', () => {
    const dir = tempDir('assay-floats-');
    writeFileSync(path.join(dir, 'd.jsonl'), `${DATA.join('\n')}\n`);
    writeFileSync(
      path.join(dir, 'utils.py'),
      "def target(doc):\n    return f\"{doc['x']!r} {type(doc['x']).__name__} {doc['z']} {doc['s']} {doc['w']}\"\n",
    );
    writeFileSync(
      path.join(dir, 'floaty.yaml'),
      [
        'task: floaty',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: d.jsonl',
        'test_split: test',
        'output_type: generate_until',
        'doc_to_text: "{{q}} {{x}} {{y}} {{z}} {{s}} {{w}} {{x + 1}} {{x|int}}"',
        'doc_to_target: !function utils.target',
        'generation_kwargs:',
        '  until: ["\\n"]',
        'metric_list:',
        '  - metric: exact_match',
        '',
      ].join('\n'),
    );
    const out = tempDir('assay-floats-out-');
    const run = runCli(
      [
        'run',
        '--model',
        'dummy',
        '--tasks',
        'floaty',
        '--include_path',
        dir,
        '--output_path',
        out,
        '--log_samples',
      ],
      { env: { ASSAY_PYTHON: interpreters[0] } },
    );
    expect(run.status, run.stderr).toBe(0);
    const file = findOne(path.join(out, 'dummy'), /^samples_floaty_/);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Jinja2 renders Python values with str(): floats as 18.0, x + 1 a float, x|int an int.
    expect(lines.map((line) => line.arguments.gen_args_0.arg_0)).toEqual([
      "a 18.0 3 [1.0, 2.0] {'m': 1.0} 5 19.0 18",
      "b 7.0 4 [1.5] {'m': 2.5} None 8.0 7",
    ]);
    // The utils.py function received floats.
    expect(lines.map((line) => line.target)).toEqual([
      "18.0 float [1.0, 2.0] {'m': 1.0} 5",
      "7.0 float [1.5] {'m': 2.5} None",
    ]);
    // doc_hash: sha256 of json.dumps(doc, indent=2, ensure_ascii=False) of the doc lm-eval has.
    const expectedHashes = python(
      `import hashlib, json\nfor doc in [${PYTHON_DOCS.join(', ')}]:\n    print(hashlib.sha256(json.dumps(doc, indent=2, ensure_ascii=False).encode()).hexdigest())`,
    ).split('\n');
    expect(lines.map((line) => line.doc_hash)).toEqual(expectedHashes);
    // The sample log's doc reads back in Python as that same doc, floats included.
    const logged = python(
      `import json\nfor line in open(${JSON.stringify(file)}):\n    print(repr(json.loads(line)["doc"]))`,
    ).split('\n');
    expect(logged).toEqual(PYTHON_DOCS);
  });
});
