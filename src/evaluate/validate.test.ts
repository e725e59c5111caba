import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clearYamlCache } from '../tasks/yaml-loader.js';
import { type ValidationRecord, validateTasks } from './validate.js';

let dir: string;

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

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
  await write('filters.py', '@register_filter("my_filter")\nclass MyFilter:\n    pass\n');
  await write(
    'regfilter.yaml',
    `task: regfilter\n${data}doc_to_text: !function filters.text\nfilter_list:\n  - name: f\n    filter:\n      - function: my_filter\n`,
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

describe('validateTasks without data', () => {
  it('reports every task, group and tag, with Python-only failures apart from the others', async () => {
    const report = await validateTasks({ includePath: [dir], builtinDir: false, data: false });
    const records = byName(report.records);
    expect(
      Object.fromEntries(
        report.records.map((record) => [record.name, [record.kind, record.ok, record.code]]),
      ),
    ).toEqual({
      broken: ['task', false, 'yaml_syntax'],
      cls: ['task', false, 'needs_python'],
      ok: ['task', true, undefined],
      py: ['task', false, 'needs_python'],
      pybad: ['task', false, 'unknown_metric'],
      regfilter: ['task', false, 'needs_python'],
      tmpl: ['task', false, 'template_error'],
      agggrp: ['group', false, 'needs_python'],
      grp: ['group', true, undefined],
      pygrp: ['group', false, 'needs_python'],
      fam: ['tag', false, 'needs_python'],
    });
    // Line 7, column 25: the reference after `process_docs: !function `.
    expect(records.py.error).toBe(`${path.join(dir, 'py.yaml')}:7:25: needs Python: utils.py`);
    expect(records.py.python).toEqual(['utils.py']);
    // A task whose Python functions would resolve still fails on its own error, which is reported.
    expect(records.pybad.error).toMatch(/pybad\.yaml:10:5: unknown metric "exact_mtch"/);
    expect(records.pybad.python).toEqual(['utils.py']);
    expect(records.cls.python).toEqual(['task.py']);
    // The filter is registered by the Python module the task imports, so only Python is missing.
    expect(records.regfilter.python).toEqual(['filters.py']);
    expect(records.agggrp.python).toEqual(['aggpy.py']);
    expect(records.tmpl.error).toMatch(
      /tmpl\.yaml:7:1: invalid Jinja template: .* in doc_to_text of task tmpl/,
    );
    expect(records.broken.error).toMatch(
      /broken\.yaml:3:1: malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a \]/,
    );
    expect(records.fam.error).toMatch(/^1 of 2 tasks fail; first: py: /);
    expect(report.counts).toEqual({
      task: { total: 7, ok: 1, needsPython: 3, failed: 3 },
      group: { total: 3, ok: 1, needsPython: 2, failed: 0 },
      tag: { total: 1, ok: 0, needsPython: 1, failed: 0 },
    });
  });

  it('validates named tasks only, and refuses an unknown name before loading anything', async () => {
    const report = await validateTasks({
      tasks: ['ok,py'],
      includePath: [dir],
      builtinDir: false,
      data: false,
    });
    expect(report.records.map((record) => [record.name, record.ok])).toEqual([
      ['ok', true],
      ['py', false],
    ]);
    await expect(
      validateTasks({ tasks: ['okk'], includePath: [dir], builtinDir: false, data: false }),
    ).rejects.toMatchObject({ code: 'unknown_task', exitCode: 2 });
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
