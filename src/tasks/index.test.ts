import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTaskIndex } from './index.js';
import { listTasks } from './list.js';
import { clearYamlCache } from './yaml-loader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-index-'));
  clearYamlCache();
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

describe('buildTaskIndex', () => {
  it('finds YAML tasks, groups, tags, JSONL tasks and *.task.ts modules, and skips templates and data', async () => {
    await write('_template.yaml', 'output_type: multiple_choice\n');
    await write('a/one.yaml', 'include: ../_template.yaml\ntask: one\ntag: [fam]\n');
    await write('a/two.yml', 'task: two\ntag: fam\n');
    await write(
      'a/group.yaml',
      'group: grp\ntask: [one, {task: two, num_fewshot: 1}, {group: inner, task: [one]}]\n',
    );
    await write(
      'b/qa.jsonl',
      '# comment\n\n{"id": 1, "prompt": "2+2=", "targets": ["4"], "metric": "exact_match"}\n',
    );
    await write('b/data.jsonl', '{"question": "not a task", "answer": 1}\n');
    await write('c/ner.task.ts', 'export default 1;\n');
    await write('c/utils.ts', 'export const x = 1;\n');
    await write('node_modules/pkg/hidden.yaml', 'task: hidden\n');
    const index = await buildTaskIndex({ includePath: [dir], builtinDir: false });
    const summary = [...index.entries.values()]
      .map((entry) => ({ name: entry.name, kind: entry.kind, format: entry.format, tasks: entry.tasks }))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(summary).toEqual([
      { name: 'fam', kind: 'tag', format: undefined, tasks: ['one', 'two'] },
      { name: 'grp', kind: 'group', format: 'yaml', tasks: undefined },
      { name: 'ner', kind: 'task', format: 'typescript', tasks: undefined },
      { name: 'one', kind: 'task', format: 'yaml', tasks: undefined },
      { name: 'qa', kind: 'task', format: 'jsonl', tasks: undefined },
      { name: 'two', kind: 'task', format: 'yaml', tasks: undefined },
    ]);
    expect(index.entries.get('one')?.outputType).toBe('multiple_choice');
    expect(index.skipped).toEqual([]);
  });

  it('keeps the first of two same-named tasks in one folder, with a warning', async () => {
    const first = await write('a.yaml', 'task: same\n');
    const second = await write('b.yaml', 'task: same\n');
    const warnings: string[] = [];
    const index = await buildTaskIndex({
      includePath: [dir],
      builtinDir: false,
      logger: { warn: (m) => warnings.push(m) },
    });
    expect(index.entries.get('same')?.path).toBe(first);
    expect(warnings).toEqual([`duplicate task name "same": using ${first}, ignoring ${second}`]);
  });

  it('lets a later include path override an earlier one, with a warning', async () => {
    const early = await write('p1/t.yaml', 'task: t\noutput_type: loglikelihood\n');
    const late = await write('p2/t.yaml', 'task: t\n');
    const warnings: string[] = [];
    const index = await buildTaskIndex({
      includePath: [path.join(dir, 'p1'), path.join(dir, 'p2')],
      builtinDir: false,
      logger: { warn: (m) => warnings.push(m) },
    });
    expect(index.entries.get('t')?.path).toBe(late);
    expect(warnings).toEqual([`task "t" from ${late} overrides ${early}`]);
  });

  it('skips a malformed file with a located warning instead of failing the whole index', async () => {
    const bad = await write('bad.yaml', 'task: [unclosed\n');
    await write('good.yaml', 'task: good\n');
    const warnings: string[] = [];
    const index = await buildTaskIndex({
      includePath: [dir],
      builtinDir: false,
      logger: { warn: (m) => warnings.push(m) },
    });
    expect([...index.entries.keys()]).toEqual(['good']);
    expect(index.skipped.map((skip) => [skip.file, skip.error.code])).toEqual([[bad, 'yaml_syntax']]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^skipping ${bad}: ${bad}:2:1: malformed YAML`));
  });

  it('treats a missing include path as empty', async () => {
    const index = await buildTaskIndex({ includePath: [path.join(dir, 'nope')], builtinDir: false });
    expect(index.entries.size).toBe(0);
  });
});

describe('listTasks', () => {
  it('returns rows for tasks, groups and tags', async () => {
    const one = await write('one.yaml', 'task: one\noutput_type: loglikelihood\ntag: t1\n');
    const grp = await write(
      'grp.yaml',
      'group: grp\ntask: [one, {task: other}, {group: sub, task: [one]}]\n',
    );
    const qa = await write(
      'qa.jsonl',
      '{"id": 1, "prompt": "p", "targets": ["t"], "metric": "exact_match"}\n',
    );
    const options = { includePath: [dir], builtinDir: false as const };
    expect(await listTasks('tasks', options)).toEqual([
      { name: 'one', path: one, format: 'yaml', outputType: 'loglikelihood' },
      { name: 'qa', path: qa, format: 'jsonl', outputType: 'generate_until' },
    ]);
    expect(await listTasks('groups', options)).toEqual([
      { name: 'grp', path: grp, subtasks: ['one', 'other', 'sub'] },
    ]);
    expect(await listTasks('tags', options)).toEqual([{ name: 't1', tasks: ['one'] }]);
  });
});
