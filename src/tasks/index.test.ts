import { readdirSync, readFileSync, utimesSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeIn } from '../../test/support/helpers.js';
import type { AssayError } from '../errors.js';
import { buildTaskIndex } from './index.js';
import { listTasks } from './list.js';
import { resolveTasks } from './manager.js';
import { clearYamlCache } from './yaml-loader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-index-'));
  clearYamlCache();
});

const write = (name: string, text: string) => writeIn(dir, name, text);

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
    const [p1, p2] = [path.join(dir, 'p1'), path.join(dir, 'p2')];
    const index = await buildTaskIndex({
      includePath: [p1, p2],
      builtinDir: false,
      logger: { warn: (m) => warnings.push(m) },
    });
    expect(index.entries.get('t')?.path).toBe(late);
    // Issue 32: one line per pair of folders (the per-override line was one per task, ~90 of them).
    expect(warnings).toEqual([
      `1 task of ${p1} is replaced by the version in ${p2}, whose config differs: t; \`assay ls tasks --overrides\` lists them`,
    ]);
    expect(index.overrides).toEqual([
      {
        name: 't',
        kind: 'task',
        path: late,
        root: p2,
        replaced: early,
        replacedRoot: p1,
        builtin: false,
        sameConfig: false,
        differingKeys: ['output_type'],
      },
    ]);
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

  it('skips a task whose error is deep in a value the index does not keep, and types kept values as js-yaml does', async () => {
    // The index reads only its keys of most files (yaml-keys.ts); the rest of each file must still be
    // valid YAML, or the file is skipped as lm-eval skips it, with js-yaml's located error.
    const badEscape = await write(
      'escape.yaml',
      'task: escape\ndoc_to_text: "Q: {{question}}\\qA:"\nmetric_list:\n  - metric: acc\n',
    );
    const marker = await write('marker.yaml', 'task: marker\ndescription: "a\n---\n  b"\n');
    const indented = await write('indented.yaml', 'task: indented\nx: |\n      \n  text\n');
    await write('yes.yaml', 'task: yes\ndataset_path: d\n');
    await write('_t.yaml', 'output_type: generate_until\ngeneration_kwargs:\n  until: ["\\n\\n"]\n');
    await write('good.yaml', 'include: _t.yaml\n"task": "good"\ntag:\n- fam\n');
    const index = await buildTaskIndex({ includePath: [dir], builtinDir: false });
    // `task: yes` is a boolean, so that file defines nothing (lm-eval's index skips it too).
    expect([...index.entries.keys()].sort()).toEqual(['fam', 'good']);
    expect(index.entries.get('good')).toMatchObject({ kind: 'task', outputType: 'generate_until' });
    expect(index.skipped.map((skip) => [skip.file, skip.error.code, skip.error.location.line])).toEqual([
      [badEscape, 'yaml_syntax', 2],
      [indented, 'yaml_syntax', expect.any(Number)],
      [marker, 'yaml_syntax', expect.any(Number)],
    ]);
  });

  it('treats a missing include path as empty', async () => {
    const index = await buildTaskIndex({ includePath: [path.join(dir, 'nope')], builtinDir: false });
    expect(index.entries.size).toBe(0);
  });
});

describe('overrides of built-in tasks (issue 32)', () => {
  /** A built-in folder of `count` tasks (`b0`, `b1`, …) with a template, and the include path beside it. */
  async function folders(count: number) {
    await write('builtin/_template.yaml', 'output_type: multiple_choice\ndoc_to_text: "Q: {{q}}"\n');
    for (let i = 0; i < count; i++)
      await write(
        `builtin/b${i}.yaml`,
        `# a copy of lm-eval's b${i}.yaml\ninclude: _template.yaml\ntask: b${i}\nprocess_docs: !function utils.process_docs\nnum_fewshot: 5\n`,
      );
    return { builtin: path.join(dir, 'builtin'), include: path.join(dir, 'lm_eval', 'tasks') };
  }
  const build = (roots: { builtin: string; include: string }, warnings: string[], cacheDir?: string) =>
    buildTaskIndex({
      includePath: [roots.include],
      builtinDir: roots.builtin,
      cacheDir,
      logger: { warn: (m) => warnings.push(m) },
    });

  it('a definition with the same config (comments, key order, inlined include aside) is silent', async () => {
    const roots = await folders(1);
    // The same config, written differently: no include, keys in another order, the same !function.
    await write(
      'lm_eval/tasks/b0.yaml',
      'num_fewshot: 5\ntask: b0\ndoc_to_text: "Q: {{q}}"\noutput_type: multiple_choice\nprocess_docs: !function utils.process_docs\n',
    );
    const warnings: string[] = [];
    const index = await build(roots, warnings);
    expect(warnings).toEqual([]);
    expect(index.entries.get('b0')?.path).toBe(path.join(roots.include, 'b0.yaml'));
    expect(index.overrides?.map((entry) => [entry.name, entry.builtin, entry.sameConfig])).toEqual([
      ['b0', true, true],
    ]);
  });

  it('those that differ are summed up in one line naming them, lm-eval named as such', async () => {
    const roots = await folders(12);
    // 10 differ (num_fewshot unset, as lm-eval leaves it), 2 are the same.
    for (let i = 0; i < 12; i++)
      await write(
        `lm_eval/tasks/b${i}.yaml`,
        `output_type: multiple_choice\ndoc_to_text: "Q: {{q}}"\ntask: b${i}\nprocess_docs: !function utils.process_docs\n${i >= 10 ? 'num_fewshot: 5\n' : ''}`,
      );
    const warnings: string[] = [];
    const index = await build(roots, warnings);
    expect(warnings).toEqual([
      "10 built-in tasks are replaced by lm-eval's versions, whose configs differ: b0, b1, b2, b3, b4, b5, b6, b7, … (2 more); `assay ls tasks --overrides` lists them",
    ]);
    expect(index.overrides?.filter((entry) => !entry.sameConfig).map((entry) => entry.differingKeys)).toEqual(
      new Array(10).fill(['num_fewshot']),
    );
  });

  it('comparisons are kept in the cache folder while the files they read are unchanged', async () => {
    const roots = await folders(1);
    const copy = await write(
      'lm_eval/tasks/b0.yaml',
      'include: ../../builtin/_template.yaml\ntask: b0\nprocess_docs: !function utils.process_docs\nnum_fewshot: 5\n',
    );
    const cacheDir = path.join(dir, 'cache');
    // Settled files only are cached (the index cache's rule): their mtimes are set an hour back.
    const past = new Date(Date.now() - 3_600_000);
    const settle = (...files: string[]) => {
      for (const file of files) utimesSync(file, past, past);
    };
    const template = path.join(roots.builtin, '_template.yaml');
    settle(copy, template, path.join(roots.builtin, 'b0.yaml'));
    const first = await build(roots, [], cacheDir);
    expect(first.overrides?.[0].sameConfig).toBe(true);
    const cached = readdirSync(cacheDir).filter((name) => name.startsWith('overrides-'));
    expect(cached).toHaveLength(1);
    const record = JSON.parse(readFileSync(path.join(cacheDir, cached[0]), 'utf8'));
    // Both files and the template they both include.
    expect(
      Object.values(record.pairs as Record<string, { files: string[][] }>)[0]
        .files.map((f) => f[0])
        .sort(),
    ).toEqual([copy, template, path.join(roots.builtin, 'b0.yaml')].sort());
    expect((await build(roots, [], cacheDir)).overrides?.[0].sameConfig).toBe(true);
    // The shared template changes: both configs change alike, still the same.
    await write('builtin/_template.yaml', 'output_type: generate_until\ndoc_to_text: "Q: {{q}}"\n');
    settle(template);
    clearYamlCache();
    expect((await build(roots, [], cacheDir)).overrides?.[0].sameConfig).toBe(true);
    // The copy changes: compared again, and it differs.
    await write('lm_eval/tasks/b0.yaml', 'include: ../../builtin/_template.yaml\ntask: b0\nnum_fewshot: 5\n');
    settle(copy);
    clearYamlCache();
    const changed = await build(roots, [], cacheDir);
    expect(changed.overrides?.[0]).toMatchObject({ sameConfig: false, differingKeys: ['process_docs'] });
  });

  it("an include path's definition that fails to load is that task's error, not the built-in silently", async () => {
    const roots = await folders(1);
    const broken = await write('lm_eval/tasks/b0.yaml', 'include: _missing.yaml\ntask: b0\n');
    const warnings: string[] = [];
    const index = await build(roots, warnings);
    expect(index.entries.has('b0')).toBe(false);
    const error = await resolveTasks(['b0'], { index }).then(
      () => undefined,
      (thrown: unknown) => thrown as AssayError,
    );
    expect(error?.message).toBe(
      `task "b0" is defined in ${broken}, which failed to load: include _missing.yaml: cannot read ${path.join(roots.include, '_missing.yaml')}: file not found`,
    );
    expect(warnings).toHaveLength(1);
  });
});

describe('a task of a large --include_path tree that fails to load', () => {
  it('is named with its file and reason, from a fresh scan and from the cached one', async () => {
    const tree = path.join(dir, 'tree');
    for (let i = 0; i < 60; i++) await write(`tree/sub${i % 3}/t${i}.yaml`, `task: t${i}\n`);
    const broken = await write('tree/sub0/mine.yaml', 'task: mine\ninclude: _missing_base.yaml\n');
    // Settled files and folders only are cached: an hour back.
    const past = new Date(Date.now() - 3_600_000);
    for (const folder of ['tree', 'tree/sub0', 'tree/sub1', 'tree/sub2'])
      for (const name of readdirSync(path.join(dir, folder)))
        utimesSync(path.join(dir, folder, name), past, past);
    utimesSync(tree, past, past);
    const cacheDir = path.join(dir, 'cache');
    const expected = `task "mine" is defined in ${broken}, which failed to load: include _missing_base.yaml: cannot read ${path.join(tree, 'sub0', '_missing_base.yaml')}: file not found`;
    for (const pass of ['fresh', 'cached']) {
      clearYamlCache();
      const error = await resolveTasks(['mine'], {
        includePath: [tree],
        builtinDir: false,
        indexCacheDir: cacheDir,
      }).then(
        () => undefined,
        (thrown: unknown) => thrown as AssayError,
      );
      expect([pass, error?.message]).toEqual([pass, expected]);
      expect(error?.location).toMatchObject({ file: broken, line: 2, task: 'mine' });
    }
    expect(readdirSync(cacheDir).filter((name) => !name.startsWith('overrides-'))).toHaveLength(1);
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

describe('buildTaskIndex: earlier outputs beside tasks (issue 15, case 13)', () => {
  it('does not take a sample log for a task, though its docs hold prompts and targets', async () => {
    const task = await write(
      'qa.jsonl',
      '{"id": 1, "prompt": "2+2=", "targets": ["4"], "metric": "exact_match"}\n',
    );
    // A line of assay's own sample log for that task: the doc is the task line.
    await write(
      'out/dummy/samples_qa_2026-01-01T00-00-00.jsonl',
      `${JSON.stringify({
        doc_id: 0,
        doc: { id: 1, prompt: '2+2=', targets: ['4'], metric: 'exact_match' },
        target: '4',
        arguments: { gen_args_0: { arg_0: '2+2=', arg_1: { until: ['\n\n'] } } },
      })}\n`,
    );
    const index = await buildTaskIndex({ includePath: [dir], builtinDir: false });
    expect([...index.entries.values()].map((entry) => [entry.name, entry.path])).toEqual([['qa', task]]);
    expect(index.skipped).toEqual([]);
  });
});

describe('buildTaskIndex: the cache of large folders', () => {
  const settle = async (files: string[]) => {
    // Files written in the last seconds are not cached (their mtime could repeat); backdate them.
    const { utimes } = await import('node:fs/promises');
    const past = new Date(Date.now() - 60_000);
    for (const file of files) await utimes(file, past, past);
  };

  async function tree(count: number): Promise<string[]> {
    const files = [await write('shared/_template.yaml', 'output_type: multiple_choice\n')];
    for (let i = 0; i < count; i++) {
      files.push(
        await write(
          `tasks/t${String(i).padStart(3, '0')}.yaml`,
          `include: ../shared/_template.yaml\ntask: t${i}\n`,
        ),
      );
    }
    // Folders too: their mtimes vouch for the listing.
    await settle([...files, path.join(dir, 'tasks'), path.join(dir, 'shared')]);
    return files;
  }

  it('reuses a scan while every file keeps its path and stamp, and rescans on any change', async () => {
    const files = await tree(60);
    // A whole second, which a file system keeps exactly: the mtime can then be put back exactly.
    const mtime = new Date(Math.floor(Date.now() / 1000 - 60) * 1000);
    utimesSync(files[1], mtime, mtime);
    const cacheDir = path.join(dir, 'cache');
    const root = path.join(dir, 'tasks');
    const build = () => buildTaskIndex({ includePath: [root], builtinDir: false, cacheDir });
    const names = async () => [...(await build()).entries.keys()].sort();
    expect((await build()).entries.get('t0')).toEqual({
      name: 't0',
      kind: 'task',
      format: 'yaml',
      path: files[1],
      outputType: 'multiple_choice',
    });
    const { readdir, stat, utimes, writeFile: write2, rm } = await import('node:fs/promises');
    expect(await readdir(cacheDir)).toHaveLength(1);

    // Same size and mtime put back, other content (touch -d, cp -p, a tar or npm package): rescanned, as
    // the file's ctime changed.
    const first = files[1];
    const { size } = await stat(first);
    await write2(first, 'include: ../shared/_template.yaml\ntask: tX\n');
    await utimes(first, mtime, mtime);
    expect(await stat(first)).toMatchObject({ size, mtimeMs: mtime.getTime() });
    expect((await names()).includes('tX')).toBe(true);
    expect((await names()).includes('t0')).toBe(false);

    // A new mtime: rescanned.
    await write2(first, 'include: ../shared/_template.yaml\ntask: tY\n');
    await utimes(first, new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
    expect((await names()).includes('tY')).toBe(true);

    // A file added, and one removed.
    await settle([await write('tasks/extra.yaml', 'task: extra\n')]);
    await rm(files[2]);
    const after = await names();
    expect(after.includes('extra')).toBe(true);
    expect(after.includes('t1')).toBe(false);

    // An included file outside the folder (the process's own parse memo cleared, as a new command's is).
    await write2(files[0], 'output_type: generate_until\n');
    await settle([files[0]]);
    clearYamlCache();
    expect((await build()).entries.get('t5')?.outputType).toBe('generate_until');
  });

  it('a cached scan answers what the fresh scan did: every kind and format, tags, members, failures', async () => {
    const files = [
      await write('shared/_template.yaml', 'output_type: loglikelihood\n'),
      await write(
        'tasks/a/group.yaml',
        'group: grp\ntask: [t00, {task: t01, num_fewshot: 1}, {group: inner, task: [t02]}]\n',
      ),
      await write('tasks/a/tagged.yaml', 'task: tagged\ntag: [fam, other]\noutput_type: multiple_choice\n'),
      await write('tasks/b/qa.jsonl', '{"id": 1, "prompt": "2+2=", "targets": ["4"]}\n'),
      await write('tasks/b/ner.task.ts', 'export default 1;\n'),
      await write('tasks/b/broken.yaml', 'task: broken\ninclude: _missing.yaml\n'),
    ];
    for (let i = 0; i < 60; i++) {
      const name = `t${String(i).padStart(2, '0')}`;
      files.push(
        await write(`tasks/c/${name}.yaml`, `include: ../../shared/_template.yaml\ntask: ${name}\n`),
      );
    }
    const folders = ['tasks', 'tasks/a', 'tasks/b', 'tasks/c', 'shared'].map((folder) =>
      path.join(dir, folder),
    );
    const past = new Date(Date.now() - 3_600_000);
    for (const file of [...files, ...folders]) utimesSync(file, past, past);
    const cacheDir = path.join(dir, 'cache');
    const build = async () => {
      clearYamlCache();
      const index = await buildTaskIndex({
        includePath: [path.join(dir, 'tasks')],
        builtinDir: false,
        cacheDir,
      });
      return {
        entries: [...index.entries],
        skipped: index.skipped.map(({ file, error, name }) => ({
          file,
          name,
          message: error.message,
          code: error.code,
          location: error.location,
        })),
      };
    };
    const fresh = await build();
    const [scanFile] = readdirSync(cacheDir).filter((name) => !name.startsWith('overrides-'));
    expect(readdirSync(cacheDir).filter((name) => !name.startsWith('overrides-'))).toEqual([scanFile]);
    const written = readFileSync(path.join(cacheDir, scanFile));
    const edited = files.find((file) => file.endsWith('t05.yaml')) as string;
    const cached = await build();
    // The cache answered: not rescanned, so its file is the one written (each write has a new id).
    expect(readFileSync(path.join(cacheDir, scanFile))).toEqual(written);
    expect(cached).toEqual(fresh);
    const entries = new Map(cached.entries);
    expect(entries.get('t05')).toEqual({
      name: 't05',
      kind: 'task',
      format: 'yaml',
      path: edited,
      outputType: 'loglikelihood',
    });
    expect(entries.get('grp')).toEqual({
      name: 'grp',
      kind: 'group',
      format: 'yaml',
      path: files[1],
      members: ['t00', 't01', 'inner'],
    });
    expect(entries.get('tagged')).toEqual({
      name: 'tagged',
      kind: 'task',
      format: 'yaml',
      path: files[2],
      outputType: 'multiple_choice',
      tags: ['fam', 'other'],
    });
    expect(entries.get('qa')).toEqual({ name: 'qa', kind: 'task', format: 'jsonl', path: files[3] });
    expect(entries.get('ner')).toEqual({ name: 'ner', kind: 'task', format: 'typescript', path: files[4] });
    expect(entries.get('fam')).toEqual({ name: 'fam', kind: 'tag', tasks: ['tagged'] });
    expect(cached.skipped).toMatchObject([{ file: files[5], name: 'broken', code: fresh.skipped[0]?.code }]);
    expect(cached.skipped[0].message).toContain('_missing.yaml');
  });

  it('stamps each file as it reads it; a file gone by then leaves the scan unstamped, and it is named', async () => {
    const files = await tree(3);
    const root = { dir: path.join(dir, 'tasks') };
    const listed = files.slice(1);
    const { scanRoot } = await import('./root-scan.js');
    const { fileStamp } = await import('../util/file-stamp.js');
    const whole = scanRoot(root, listed, { stamped: true });
    expect(whole.stamps).toEqual(listed.map((file) => [file, ...(fileStamp(file) ?? [])]));
    expect(whole.scan.found.map((entry) => entry.name)).toEqual(['t0', 't1', 't2']);
    // Listed by the walk, removed before its read.
    const gone = path.join(dir, 'tasks', 't1b.yaml');
    const partial = scanRoot(root, [listed[0], listed[1], gone, listed[2]], { stamped: true });
    expect(partial.stamps).toBeUndefined();
    expect(partial.scan.found.map((entry) => entry.name)).toEqual(['t0', 't1', 't2']);
    expect(partial.scan.skipped.map(({ file, error }) => [file, error.message])).toEqual([
      [gone, `cannot read ${gone}: file not found`],
    ]);
  });

  it('does not cache a scan of files changed in the last seconds, nor small folders', async () => {
    const cacheDir = path.join(dir, 'cache');
    await write('fresh/_template.yaml', 'output_type: multiple_choice\n');
    for (let i = 0; i < 60; i++) await write(`fresh/t${i}.yaml`, `task: t${i}\n`);
    await buildTaskIndex({ includePath: [path.join(dir, 'fresh')], builtinDir: false, cacheDir });
    await write('small/a.yaml', 'task: a\n');
    await settle([path.join(dir, 'small', 'a.yaml'), path.join(dir, 'small')]);
    await buildTaskIndex({ includePath: [path.join(dir, 'small')], builtinDir: false, cacheDir });
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
  });
});
