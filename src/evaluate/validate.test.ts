import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeIn } from '../../test/support/helpers.js';
import { testInterpreters } from '../../test/support/python-interpreters.js';
import { requireComponent } from '../../test/support/require-component.js';
import { clearYamlCache } from '../tasks/yaml-loader.js';
import { type ValidationRecord, validateTasks } from './validate.js';

let dir: string;

const write = (name: string, text: string) => writeIn(dir, name, text);

const data = 'dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\ntest_split: test\n';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-validate-'));
  clearYamlCache();
  await write('data.jsonl', '{"q": "a", "a": "b"}\n{"q": "c", "a": "d"}\n');
  await write('ok.yaml', `task: ok\n${data}doc_to_text: "Q: {{q}}"\ndoc_to_target: a\ntag: fam\n`);
  await write('utils.py', 'def process_docs(docs):\n    return docs\n');
  await write(
    'py.yaml',
    `task: py\n${data}process_docs: !function utils.process_docs\ndoc_to_text: q\ndoc_to_target: a\ntag: fam\n`,
  );
  await write(
    'pybad.yaml',
    `task: pybad\n${data}process_docs: !function utils.process_docs\ndoc_to_text: q\nmetric_list:\n  - metric: exact_mtch\n`,
  );
  await write('tmpl.yaml', `task: tmpl\n${data}doc_to_text: "{{ q | }}"\n`);
  await write('task.py', 'class MyTask:\n    pass\n');
  await write('cls.yaml', 'task: cls\nclass: !function task.MyTask\n');
  await write(
    'filters.py',
    [
      'from lm_eval.api.registry import register_filter',
      '',
      '',
      'def text(doc):',
      '    return doc["q"]',
      '',
      '',
      '@register_filter("my_filter")',
      'class MyFilter:',
      '    def __init__(self, **kwargs):',
      '        pass',
      '',
      '    def apply(self, resps, docs):',
      '        return resps',
      '',
    ].join('\n'),
  );
  await write(
    'regfilter.yaml',
    `task: regfilter\n${data}doc_to_text: !function filters.text\ndoc_to_target: a\nfilter_list:\n  - name: f\n    filter:\n      - function: my_filter\n`,
  );
  await write(
    'pymissing.yaml',
    `task: pymissing\n${data}process_docs: !function utils.nope\ndoc_to_text: q\ndoc_to_target: a\n`,
  );
  await write(
    'needspkg.py',
    'import some_package_nobody_has\n\n\ndef f(doc):\n    return some_package_nobody_has.render(doc["q"])\n\n\ndef pure(doc):\n    return doc["q"]\n',
  );
  await write('pkg.yaml', `task: pkg\n${data}doc_to_text: !function needspkg.f\ndoc_to_target: a\n`);
  await write(
    'pkgpure.yaml',
    `task: pkgpure\n${data}doc_to_text: !function needspkg.pure\ndoc_to_target: a\n`,
  );
  await write('broken.yaml', 'task: broken\ndoc_to_text: [unclosed\n');
  await write('grp.yaml', 'group: grp\ntask:\n  - ok\n  - ok\naggregate_metric_list:\n  - metric: acc\n');
  await write('pygrp.yaml', 'group: pygrp\ntask: [ok, py]\n');
  await write('aggpy.py', 'def aggregate(items):\n    return 0\n');
  await write(
    'agggrp.yaml',
    'group: agggrp\ntask: [ok]\naggregate_metric_list:\n  - metric: acc\n    aggregation: !function aggpy.aggregate\n',
  );
});

const byName = (records: ValidationRecord[]) =>
  Object.fromEntries(records.map((record) => [record.name, record]));

const interpreters = testInterpreters();
const hasPython = requireComponent('python3', interpreters.length > 0);

describe.skipIf(!hasPython)('validateTasks without data', () => {
  it('reports every task, group and tag; Python functions are imported and looked up as a run would', async () => {
    const report = await validateTasks({
      includePath: [dir],
      builtinDir: false,
      data: false,
      python: interpreters[0],
    });
    const records = byName(report.records);
    expect(
      Object.fromEntries(
        report.records.map((record) => [record.name, [record.kind, record.ok, record.code]]),
      ),
    ).toEqual({
      broken: ['task', false, 'yaml_syntax'],
      cls: ['task', false, 'invalid_config'],
      ok: ['task', true, undefined],
      pkg: ['task', false, 'python_package_missing'],
      pkgpure: ['task', true, undefined],
      py: ['task', true, undefined],
      pybad: ['task', false, 'unknown_metric'],
      pymissing: ['task', false, 'function_not_found'],
      regfilter: ['task', true, undefined],
      tmpl: ['task', false, 'template_error'],
      agggrp: ['group', true, undefined],
      grp: ['group', true, undefined],
      pygrp: ['group', true, undefined],
      fam: ['tag', true, undefined],
    });
    expect(records.py.python).toEqual(['utils.py']);
    // A module that imports a package the interpreter lacks imports with a placeholder for it: a function
    // that uses the package is refused, naming it and the interpreter; one that does not loads (pkgpure).
    expect(records.pkg.error).toBe(
      `${path.join(dir, 'pkg.yaml')}:7:24: doc_to_text: !function needspkg.f needs some_package_nobody_has, not installed for ${interpreters[0]} (via f -> some_package_nobody_has); install it in that interpreter or pass --python`,
    );
    // Line 7, column 25: the reference after `process_docs: !function `.
    expect(records.pymissing.error).toBe(
      `${path.join(dir, 'pymissing.yaml')}:7:25: process_docs: !function utils.nope: utils.py has no function 'nope'`,
    );
    expect(records.pybad.error).toMatch(/pybad\.yaml:10:5: unknown metric "exact_mtch"/);
    expect(records.cls.error).toMatch(/cls\.yaml:2:1: Python task classes are not supported/);
    expect(records.tmpl.error).toMatch(
      /tmpl\.yaml:7:1: invalid Jinja template: .* in doc_to_text of task tmpl/,
    );
    expect(records.broken.error).toMatch(
      /broken\.yaml:3:1: malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a \]/,
    );
    expect(report.counts).toEqual({
      task: { total: 10, ok: 4, needsPython: 0, failed: 6 },
      group: { total: 3, ok: 3, needsPython: 0, failed: 0 },
      tag: { total: 1, ok: 1, needsPython: 0, failed: 0 },
    });
  });

  it('validates named tasks only, and refuses an unknown name before loading anything', async () => {
    const report = await validateTasks({
      tasks: ['ok,pymissing'],
      includePath: [dir],
      builtinDir: false,
      data: false,
      python: interpreters[0],
    });
    expect(report.records.map((record) => [record.name, record.ok])).toEqual([
      ['ok', true],
      ['pymissing', false],
    ]);
    await expect(
      validateTasks({ tasks: ['okk'], includePath: [dir], builtinDir: false, data: false }),
    ).rejects.toMatchObject({ code: 'unknown_task', exitCode: 2 });
  });
});

describe.skipIf(!hasPython)('validateTasks and a module that ends its interpreter', () => {
  it('reports that entry with the module it was importing; the entries after it get a new worker', async () => {
    const own = await mkdtemp(path.join(os.tmpdir(), 'assay-validate-kill-'));
    const put = (name: string, text: string) => writeFile(path.join(own, name), text);
    await put('data.jsonl', '{"q": "a", "a": "b"}\n');
    await put(
      'killer_utils.py',
      'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n\ndef f(doc):\n    return doc["q"]\n',
    );
    await put('fine_utils.py', 'def f(doc):\n    return doc["q"]\n');
    for (const name of ['killer', 'fine'])
      await put(
        `${name}.yaml`,
        `task: ${name}\n${data}doc_to_text: !function ${name}_utils.f\ndoc_to_target: a\n`,
      );
    const report = await validateTasks({
      tasks: ['killer,fine'],
      includePath: [own],
      builtinDir: false,
      data: false,
      python: interpreters[0],
    });
    expect(report.records.map((record) => [record.name, record.ok, record.code])).toEqual([
      ['killer', false, 'python_error'],
      ['fine', true, undefined],
    ]);
    expect(report.records[0].error).toBe(
      // Located at the reference: line 7, the column where the module's name starts.
      `${path.join(own, 'killer.yaml')}:7:${'doc_to_text: !function '.length + 1}: doc_to_text: !function killer_utils.f: the Python worker exited (signal SIGKILL) while importing killer_utils.py (${path.join(own, 'killer_utils.py')})`,
    );
  });
});

describe('validateTasks without an interpreter', () => {
  it('reports entries whose only problem is Python as needs_python, each naming its own function', async () => {
    const report = await validateTasks({
      tasks: ['ok', 'py', 'pybad', 'agggrp', 'fam'],
      includePath: [dir],
      builtinDir: false,
      data: false,
      python: path.join(dir, 'no-such-python'),
    });
    const records = byName(report.records);
    expect(report.records.map((record) => [record.name, record.ok, record.code])).toEqual([
      ['ok', true, undefined],
      ['py', false, 'needs_python'],
      ['pybad', false, 'unknown_metric'],
      ['agggrp', false, 'needs_python'],
      ['fam', false, 'needs_python'],
    ]);
    expect(records.py.error).toContain(
      `${path.join(dir, 'py.yaml')}:7:25: process_docs: !function utils.process_docs is Python (utils.py) and needs a Python interpreter (\`python\` ${path.join(dir, 'no-such-python')}: no executable file there)`,
    );
    expect(records.agggrp.error).toMatch(/!function aggpy\.aggregate is Python \(aggpy\.py\)/);
    expect(records.fam.error).toMatch(/^1 of 2 tasks fail; first: py: /);
    expect(report.counts.task).toEqual({ total: 3, ok: 1, needsPython: 1, failed: 1 });
  });
});

describe('validateTasks with data', () => {
  it('reads each task’s split and builds doc 0’s requests, reporting every task', async () => {
    const report = await validateTasks({
      tasks: ['ok', 'tmpl'],
      includePath: [dir],
      builtinDir: false,
      data: true,
    });
    expect(
      report.records.map(({ name, ok, docs, requests, outputType }) => ({
        name,
        ok,
        docs,
        requests,
        outputType,
      })),
    ).toEqual([
      { name: 'ok', ok: true, docs: 2, requests: 1, outputType: 'generate_until' },
      { name: 'tmpl', ok: false, docs: undefined, requests: undefined, outputType: undefined },
    ]);
  });
});
