import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught } from '../../test/support/caught.js';
import { writeIn } from '../../test/support/helpers.js';
import { resolveTasks, splitTaskSpecs } from './manager.js';
import { type GroupNode, type LoadedTask, leafTasks, type TaskNode } from './task.js';
import { clearYamlCache } from './yaml-loader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-manager-'));
  clearYamlCache();
});

const write = (name: string, text: string) => writeIn(dir, name, text);

const resolve = (specs: string[], warnings: string[] = []) =>
  resolveTasks(specs, {
    includePath: [dir],
    builtinDir: false,
    logger: { warn: (message) => warnings.push(message) },
  });

/** A group's shape without the loaded-task internals, for whole-object comparisons. */
function shape(node: TaskNode): unknown {
  if (node.kind === 'task') return node.name;
  return { name: node.name, isTag: node.isTag, children: node.children.map(shape) };
}

async function simpleTask(name: string, extra = ''): Promise<string> {
  return write(
    `${name}.yaml`,
    `task: ${name}\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\ntest_split: test\noutput_type: multiple_choice\ndoc_to_text: q\ndoc_to_target: 0\ndoc_to_choice: ["a", "b"]\n${extra}`,
  );
}

describe('resolveTasks: names, globs, paths', () => {
  beforeEach(async () => {
    await write('data.jsonl', '{"q": "one", "n": 1}\n{"q": "two", "n": 2}\n');
    await simpleTask('alpha_one');
    await simpleTask('alpha_two');
    await simpleTask('beta');
  });

  it('splits specs on commas and whitespace', () => {
    expect(splitTaskSpecs(['a,b c', ' d ,, e'])).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('resolves names and fnmatch globs (sorted)', async () => {
    const nodes = await resolve(['beta,alpha_*']);
    expect(nodes.map((node) => node.name)).toEqual(['beta', 'alpha_one', 'alpha_two']);
  });

  it('loads a task with lm-eval defaults, its docs, its version and a content hash', async () => {
    await simpleTask('versioned', 'metadata:\n  version: 2.0\n');
    const [task] = (await resolve(['versioned'])) as LoadedTask[];
    expect(task.kind).toBe('task');
    expect(task.version).toBe(2);
    expect(task.evalSplit).toBe('test');
    expect(task.config.target_delimiter).toBe(' ');
    expect(task.source.format).toBe('yaml');
    expect(task.source.path).toBe(path.join(dir, 'versioned.yaml'));
    expect(task.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await task.evalDocs()).toEqual([
      { q: 'one', n: 1 },
      { q: 'two', n: 2 },
    ]);
    expect(await task.fewshotDocs()).toEqual(await task.evalDocs());
  });

  it('resolves a .yaml path outside the index, and a folder of tasks', async () => {
    const other = path.join(dir, 'elsewhere');
    await write('elsewhere/data.jsonl', '{"q": "x"}\n');
    await write(
      'elsewhere/gamma.yaml',
      'task: gamma\ndataset_path: json\ndataset_kwargs:\n  data_files: data.jsonl\ntest_split: train\ndoc_to_text: q\ndoc_to_target: q\n',
    );
    const byPath = await resolveTasks([path.join(other, 'gamma.yaml')], { builtinDir: false });
    expect(byPath.map((node) => node.name)).toEqual(['gamma']);
    expect(await (byPath[0] as LoadedTask).evalDocs()).toEqual([{ q: 'x' }]);
    const byFolder = await resolveTasks([other], { builtinDir: false });
    expect(byFolder.map((node) => node.name)).toEqual(['gamma']);
  });

  it('suggests close names for an unknown task', async () => {
    const error = await caught(resolve(['alpha_on']));
    expect(error.code).toBe('unknown_task');
    expect(error.message).toBe('unknown task "alpha_on"; did you mean: alpha_one, alpha_two?');
  });

  it('reports a glob that matches nothing', async () => {
    const error = await caught(resolve(['zeta_*']));
    expect(error.code).toBe('unknown_task');
    expect(error.message).toMatch(/^no task, group or tag matches "zeta_\*"/);
  });

  it('refuses the same task twice', async () => {
    const error = await caught(resolve(['beta', 'beta']));
    expect(error.code).toBe('duplicate_task');
    expect(error.message).toBe('task beta is requested twice: via its name and via its name');
  });

  it('points an unknown field at the file and line that wrote it, even through an include', async () => {
    await write('_template.yaml', 'output_type: multiple_choice\ndoc_to_txt: q\n');
    const file = await write('typo.yaml', 'include: _template.yaml\ntask: typo\n');
    expect(file).toBeTruthy();
    const error = await caught(resolve(['typo']));
    expect(error.code).toBe('unknown_field');
    expect(error.message).toBe('unknown field "doc_to_txt" in task config; did you mean "doc_to_text"?');
    expect(error.location).toEqual({
      file: path.join(dir, '_template.yaml'),
      line: 2,
      column: 1,
      field: 'doc_to_txt',
    });
  });
});

describe('resolveTasks: metric and filter names', () => {
  it('rejects an unknown metric at its line, listing valid ones', async () => {
    const file = await simpleTask('badmetric', 'metric_list:\n  - metric: acc\n  - metric: accuracy\n');
    const error = await caught(resolve(['badmetric']));
    expect(error.code).toBe('unknown_metric');
    expect(error.message).toMatch(/accuracy/);
    expect(error.message).toMatch(/acc_norm/);
    expect(error.location).toMatchObject({ file, line: 13, column: 5, task: 'badmetric' });
  });

  it('rejects an unknown filter at its entry', async () => {
    const file = await simpleTask(
      'badfilter',
      'filter_list:\n  - name: strict\n    filter:\n      - function: regexx\n',
    );
    const error = await caught(resolve(['badfilter']));
    expect(error.code).toBe('unknown_filter');
    expect(error.message).toMatch(/^unknown filter "regexx" \(did you mean regex/);
    expect(error.location).toMatchObject({ file, line: 12, column: 5, task: 'badfilter' });
  });
});

describe('resolveTasks: !function', () => {
  it('imports a .ts module beside the YAML when the task loads, and hashes it', async () => {
    await write('data.jsonl', '{"q": "a"}\n{"q": "b"}\n');
    await write(
      'utils.ts',
      [
        "import { suffix } from './helper.js';",
        'export function process_docs(docs: Array<Record<string, unknown>>) {',
        '  return docs.map((doc) => ({ ...doc, q: `${doc.q}${suffix}` }));',
        '}',
        'export const doc_to_text = (doc: { q: string }) => `Q: ${doc.q}`;',
        '',
      ].join('\n'),
    );
    await write('helper.ts', "export const suffix = '!';\n");
    await write(
      'fn.yaml',
      [
        'task: fn_task',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files: data.jsonl',
        'test_split: train',
        'process_docs: !function utils.process_docs',
        'doc_to_text: !function utils.doc_to_text',
        'doc_to_target: q',
        '',
      ].join('\n'),
    );
    const [task] = (await resolve(['fn_task'])) as LoadedTask[];
    expect(await task.evalDocs()).toEqual([{ q: 'a!' }, { q: 'b!' }]);
    const docToText = task.config.doc_to_text as {
      kind: string;
      ref: string;
      file: string;
      fn: (doc: unknown) => string;
    };
    expect({ kind: docToText.kind, ref: docToText.ref, file: docToText.file }).toEqual({
      kind: 'function',
      ref: 'utils.doc_to_text',
      file: path.join(dir, 'utils.ts'),
    });
    expect(docToText.fn({ q: 'x' })).toBe('Q: x');

    // The hash covers the YAML and every local module imported, including helper.ts.
    const before = task.source.sha256;
    await write('helper.ts', "export const suffix = '?';\n");
    clearYamlCache();
    const { hashFiles } = await import('./source-hash.js');
    const files = [path.join(dir, 'fn.yaml'), path.join(dir, 'helper.ts'), path.join(dir, 'utils.ts')];
    expect(before).not.toBe(await hashFiles(files));
    await write('helper.ts', "export const suffix = '!';\n");
    expect(before).toBe(await hashFiles(files));
  });

  it('reports a missing module with the tag location', async () => {
    const file = await write('nofn.yaml', 'task: nofn\ndoc_to_text: !function helpers.text\n');
    const error = await caught(resolve(['nofn']));
    expect(error.code).toBe('function_not_found');
    expect(error.message).toBe(
      `doc_to_text: !function helpers.text: none of helpers.ts, helpers.mts, helpers.js, helpers.mjs, helpers.py exists in ${dir}`,
    );
    // The column of the reference after the tag, where the module name is.
    expect(error.location).toEqual({ file, line: 2, column: 24 });
  });

  it('reports a missing export and lists the module functions', async () => {
    await write('utils.js', 'export function present() { return 1; }\n');
    await write('noexport.yaml', 'task: noexport\ndoc_to_text: !function utils.absent\n');
    const error = await caught(resolve(['noexport']));
    expect(error.code).toBe('function_not_found');
    expect(error.message).toBe(
      '!function utils.absent: utils.js has no exported function "absent" (it exports: present)',
    );
  });

  it('does not import modules while indexing', async () => {
    await write('broken.ts', 'throw new Error("imported too early");\n');
    await write('lazy.yaml', 'task: lazy\ndoc_to_text: !function broken.fn\n');
    await simpleTask('plain');
    await write('data.jsonl', '{"q": "a"}\n');
    const nodes = await resolve(['plain']);
    expect(nodes.map((node) => node.name)).toEqual(['plain']);
  });
});

describe('resolveTasks: groups and tags', () => {
  beforeEach(async () => {
    await write('data.jsonl', '{"q": "one"}\n');
    await simpleTask('t_a', 'tag: [family, other_tag]\n');
    await simpleTask('t_b', 'tag: family\nnum_fewshot: 1\n');
    await simpleTask('t_c');
  });

  it('builds a group with group-level overrides, dict overrides, inline tasks and nested groups', async () => {
    await write(
      'sub.yaml',
      'group: sub\ntask:\n  - t_c\naggregate_metric_list:\n  - metric: acc\n    weight_by_size: false\n',
    );
    await write(
      'top.yaml',
      [
        'group: top',
        'group_alias: Top',
        'num_fewshot: 3',
        'task:',
        '  - t_a',
        '  - task: t_b',
        '    num_fewshot: 5',
        '  - sub',
        '  - group: inline_group',
        '    task:',
        '      - task: inline_task',
        '        dataset_path: json',
        '        dataset_kwargs:',
        '          data_files: data.jsonl',
        '        test_split: train',
        '        doc_to_text: q',
        '        doc_to_target: q',
        'aggregate_metric_list:',
        '  - metric: acc',
        '',
      ].join('\n'),
    );
    const [top] = (await resolve(['top'])) as GroupNode[];
    expect(shape(top)).toEqual({
      name: 'top',
      isTag: false,
      children: [
        't_a',
        't_b',
        { name: 'sub', isTag: false, children: ['t_c'] },
        { name: 'top::inline_group', isTag: false, children: ['top::inline_group::inline_task'] },
      ],
    });
    expect(top.alias).toBe('Top');
    expect(top.config.aggregate_metric_list).toEqual([
      { metric: 'acc', aggregation: 'mean', weight_by_size: true },
    ]);
    const [a, b, sub, inline] = top.children;
    // Group-level keys override every child; a dict entry's own keys win over them.
    expect((a as LoadedTask).config.num_fewshot).toBe(3);
    expect((b as LoadedTask).config.num_fewshot).toBe(5);
    expect(((sub as GroupNode).children[0] as LoadedTask).config.num_fewshot).toBe(3);
    expect((sub as GroupNode).config.aggregate_metric_list?.[0].weight_by_size).toBe(false);
    const inlineTask = (inline as GroupNode).children[0] as LoadedTask;
    expect(inlineTask.config.task_alias).toBe('inline_task');
    expect(inlineTask.config.num_fewshot).toBe(3);
    expect(await inlineTask.evalDocs()).toEqual([{ q: 'one' }]);
    expect(leafTasks(top).map((task) => task.name)).toEqual([
      't_a',
      't_b',
      't_c',
      'top::inline_group::inline_task',
    ]);
  });

  it('expands a tag into a flat, sorted, unaggregated list', async () => {
    const [tag] = (await resolve(['family'])) as GroupNode[];
    expect(shape(tag)).toEqual({ name: 'family', isTag: true, children: ['t_a', 't_b'] });
    expect(tag.config.aggregate_metric_list).toBeUndefined();
    expect((tag.children[1] as LoadedTask).config.num_fewshot).toBe(1);
  });

  it('refuses a task reached through a tag and by name', async () => {
    const error = await caught(resolve(['family', 't_a']));
    expect(error.code).toBe('duplicate_task');
    expect(error.message).toBe('task t_a is requested twice: via tag family and via its name');
  });

  it('reports an unknown child with the line of the group entry', async () => {
    const file = await write('bad_group.yaml', 'group: bad_group\ntask:\n  - t_a\n  - t_d\n');
    const error = await caught(resolve(['bad_group']));
    expect(error.code).toBe('unknown_task');
    expect(error.message).toBe('group bad_group lists unknown task "t_d"; did you mean: t_a, t_b, t_c?');
    expect(error.location).toEqual({ file, line: 4, column: 5, task: 't_d' });
  });

  it('detects group cycles', async () => {
    await write('g1.yaml', 'group: g1\ntask: [g2]\n');
    await write('g2.yaml', 'group: g2\ntask: [g1]\n');
    const error = await caught(resolve(['g1']));
    expect(error.code).toBe('include_cycle');
    expect(error.message).toBe('group cycle: g1 → g2 → g1');
  });

  it('loads a group file by path, resolving sibling tasks without --include_path', async () => {
    const file = await write('solo/grp.yaml', 'group: solo_group\ntask:\n  - solo_task\n');
    await write('solo/data.jsonl', '{"q": "s"}\n');
    await write(
      'solo/solo_task.yaml',
      'task: solo_task\ndataset_path: json\ndataset_kwargs:\n  data_files: data.jsonl\ntest_split: train\ndoc_to_text: q\ndoc_to_target: q\n',
    );
    const nodes = await resolveTasks([file], { builtinDir: false });
    expect(nodes.map(shape)).toEqual([{ name: 'solo_group', isTag: false, children: ['solo_task'] }]);
  });
});

describe('resolveTasks: a task file named on the command line (issue 15, case 13)', () => {
  it('loads it without scanning or warning about the files beside it', async () => {
    await write('solo2/data.jsonl', '{"q": "s"}\n');
    const file = await write(
      'solo2/task.yaml',
      'task: lone\ndataset_path: json\ndataset_kwargs:\n  data_files: data.jsonl\ntest_split: train\ndoc_to_text: q\ndoc_to_target: q\n',
    );
    await write('solo2/broken.yaml', 'task: [unclosed\n');
    await write('solo2/twin.yaml', 'task: lone\n');
    const warnings: string[] = [];
    const nodes = await resolveTasks([file], {
      builtinDir: false,
      logger: { warn: (m) => warnings.push(m) },
    });
    expect(nodes.map((node) => node.name)).toEqual(['lone']);
    expect(warnings).toEqual([]);
  });

  it('names unreadable neighbours when a group file lists a task that is not there', async () => {
    const file = await write('solo3/grp.yaml', 'group: g3\ntask:\n  - missing_one\n');
    await write('solo3/broken.yaml', 'task: [unclosed\n');
    const error = await caught(resolveTasks([file], { builtinDir: false }));
    expect(error.message).toBe(
      'group g3 lists unknown task "missing_one" (files beside it that could not be read: broken.yaml: malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a ])',
    );
  });
});

describe('resolveTasks: configs of lm-eval’s tree that assay read differently (issue 14)', () => {
  const data = 'dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\ntest_split: test\n';
  beforeEach(async () => {
    await write('data.jsonl', '{"q": "a", "a": "b"}\n');
  });

  it('takes null as unset where lm-eval’s default is None (bigbench’s dataset_kwargs: null)', async () => {
    await write('base.yaml', `dataset_path: json\ndataset_kwargs:\n  data_files:\n    test: data.jsonl\n`);
    await write(
      'nulls.yaml',
      'include: base.yaml\ntask: nulls\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\nnum_fewshot: null\ngeneration_kwargs: null\nfewshot_config: null\nmetric_list: null\n',
    );
    await write(
      'kw.yaml',
      `task: kw\n${data}doc_to_text: q\ndoc_to_target: a\n`.replace(
        /dataset_kwargs:\n.*\n.*\n/,
        'dataset_kwargs: null\n',
      ),
    );
    const [nulls] = (await resolve(['nulls'])) as LoadedTask[];
    // lm-eval: num_fewshot None → 0 shots; generation_kwargs None → default_gen_kwargs(fewshot_delimiter).
    expect(nulls.config.num_fewshot).toBeUndefined();
    expect(nulls.config.generation_kwargs).toEqual({
      temperature: 0,
      do_sample: false,
      max_gen_toks: 256,
      until: ['\n\n'],
    });
    expect(nulls.config.fewshot_config).toBeUndefined();
    expect(nulls.config.metric_list).toBeUndefined();
    const [kw] = (await resolve(['kw'])) as LoadedTask[];
    expect(kw.config.dataset_kwargs).toBeUndefined();
  });

  it('keeps rejecting null where lm-eval has another default', async () => {
    await write('nulldelim.yaml', `task: nulldelim\n${data}doc_to_text: q\ntarget_delimiter: null\n`);
    const error = await caught(resolve(['nulldelim']));
    expect(error.message).toMatch(/^invalid target_delimiter: /);
  });

  it('knows lm-eval’s format_span filter (masakhaner)', async () => {
    await write(
      'ner.yaml',
      `task: ner\n${data}doc_to_text: q\ndoc_to_target: a\nfilter_list:\n  - name: format_span\n    filter:\n      - function: format_span\n      - function: take_first\n`,
    );
    const [task] = (await resolve(['ner'])) as LoadedTask[];
    expect(task.config.filter_list).toEqual([
      { name: 'format_span', filter: [{ function: 'format_span' }, { function: 'take_first' }] },
    ]);
  });

  it('makes a member listed twice one child, as lm-eval’s dict of children does (mela)', async () => {
    await simpleTask('m_en');
    await simpleTask('m_ar');
    await write('mela.yaml', 'group: mela_like\ntask:\n  - m_en\n  - m_ar\n  - m_ar\n');
    const [group] = (await resolve(['mela_like'])) as GroupNode[];
    expect(shape(group)).toEqual({ name: 'mela_like', isTag: false, children: ['m_en', 'm_ar'] });
  });

  it('fails as clearly as lm-eval does on an inline task with include (flan_held_in)', async () => {
    const file = await write(
      'flan.yaml',
      'group: flan_like\ntask:\n  - task: anli_prompt-0\n    include: _held_in_template_yaml\n    doc_to_text: x\n',
    );
    const error = await caught(resolve(['flan_like']));
    expect(error.format()).toBe(
      // Line 4, column 5: where `include:` is written.
      `${file}:4:5: group flan_like: the inline task anli_prompt-0 uses "include", which works only at the top of a YAML file (lm-eval fails on it too: TaskConfig has no field include); move the task to its own file and list its name`,
    );
  });

  it('fails as clearly as lm-eval does on a task entry without a name (t0_eval)', async () => {
    const file = await write(
      't0.yaml',
      'group: t0_like\ntask:\n  - dataset_path: super_glue\n    use_prompt: "promptsource:*"\n',
    );
    const error = await caught(resolve(['t0_like']));
    expect(error.format()).toBe(
      `${file}:3:5: group t0_like: each dict in "task" needs a "task" or "group" name; entry 1 has neither (lm-eval rejects this group too)`,
    );
  });

  it('aggregates a group’s !function metric under the function’s name (code2text)', async () => {
    await simpleTask('c_go');
    await write('bleu.py', 'def smoothed_bleu_4(references, predictions):\n    return 0.0\n');
    await write(
      'code2text.yaml',
      'group: c2t\ntask: [c_go]\naggregate_metric_list:\n  - aggregation: mean\n    metric: !function bleu.smoothed_bleu_4\n    weight_by_size: true\n',
    );
    const [group] = (await resolve(['c2t'])) as GroupNode[];
    expect(group.config.aggregate_metric_list).toEqual([
      { metric: 'smoothed_bleu_4', aggregation: 'mean', weight_by_size: true },
    ]);
  });

  it('reads weight_by_size as Python’s truth with a warning, as lm-eval does (score’s "truez")', async () => {
    await simpleTask('s_a');
    const file = await write(
      'score.yaml',
      'group: score_like\ntask: [s_a]\naggregate_metric_list:\n  - metric: acc\n    weight_by_size: truez\n  - metric: acc_norm\n    weight_by_size: ""\n',
    );
    const warnings: string[] = [];
    const [group] = (await resolve(['score_like'], warnings)) as GroupNode[];
    expect(group.config.aggregate_metric_list?.map((entry) => entry.weight_by_size)).toEqual([true, false]);
    expect(warnings).toEqual([
      `${file}:5: group score_like: weight_by_size "truez" is not true or false; taken as true, as lm-eval takes it`,
      `${file}:7: group score_like: weight_by_size "" is not true or false; taken as false, as lm-eval takes it`,
    ]);
  });

  it('runs a filter class named by !function, as lm-eval’s get_filter does (bbh zero-shot)', async () => {
    await write(
      'filters.ts',
      [
        'export class FirstWord {',
        '  constructor(private readonly options: { suffix: string }) {}',
        '  apply(resps: string[][], docs: unknown[]) {',
        '    return resps.map((doc) => doc.map((resp) => resp.split(" ")[0] + this.options.suffix));',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    await write(
      'cls.yaml',
      `task: cls\n${data}doc_to_text: q\ndoc_to_target: a\nfilter_list:\n  - name: first\n    filter:\n      - function: !function filters.FirstWord\n        suffix: "!"\n      - function: take_first\n`,
    );
    const [task] = (await resolve(['cls'])) as LoadedTask[];
    const { buildFilterPipeline } = await import('../metrics/filters/registry.js');
    const pipeline = buildFilterPipeline((task.config.filter_list ?? [])[0]);
    expect(pipeline.apply(['hello world', 'bye now'], {})).toBe('hello!');
  });
});

describe('a task whose file fails to load', () => {
  const task = (name: string, include: string) =>
    `task: ${name}\ninclude: ${include}\ndataset_path: json\ndataset_kwargs:\n  data_files: data.jsonl\ntest_split: train\ndoc_to_text: q\ndoc_to_target: q\n`;

  it('is named with its file and the reason, not as an unknown task', async () => {
    const file = await write('broken.yaml', task('broken_task', 'no_such_base.yaml'));
    const warnings: string[] = [];
    const error = await caught(resolve(['broken_task'], warnings));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe(
      `task "broken_task" is defined in ${file}, which failed to load: include no_such_base.yaml: cannot read ${path.join(dir, 'no_such_base.yaml')}: file not found`,
    );
    expect(error.location).toMatchObject({ file, line: 2, task: 'broken_task' });
    expect(warnings).toHaveLength(1);
  });

  it('is suggested, marked as failed, for a close name', async () => {
    const file = await write('broken.yaml', task('broken_task', 'no_such_base.yaml'));
    const error = await caught(resolve(['broken_tsk']));
    expect(error.code).toBe('unknown_task');
    expect(error.message).toBe(
      `unknown task "broken_tsk"; did you mean: broken_task (in ${file}, which failed to load)?`,
    );
  });

  it('named by a group is reported through the group', async () => {
    const file = await write('broken.yaml', task('broken_task', 'no_such_base.yaml'));
    await write('g.yaml', 'group: g\ntask:\n  - broken_task\n');
    const error = await caught(resolve(['g']));
    expect(error.message).toMatch(
      new RegExp(
        `^group g lists task "broken_task", which is defined in ${file}, which failed to load: include no_such_base.yaml`,
      ),
    );
  });
});
