import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { FastRandom } from '../stats/fast-random.js';
import { compareConfigs } from './config-compare.js';
import type { IndexEntry } from './index-types.js';
import { clearYamlCache, DeferredFunction, loadYamlSync } from './yaml-loader.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'assay-config-compare-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let pairs = 0;

/** Writes each side's files (name → text) into a folder of its own; the first file is the task. */
function pair(left: Record<string, string>, right: Record<string, string>): [IndexEntry, IndexEntry] {
  const folder = path.join(work, `pair-${pairs++}`);
  const entries = [left, right].map((files, side) => {
    const dir = path.join(folder, side === 0 ? 'used' : 'replaced');
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const task = path.join(dir, Object.keys(files)[0]);
    return { name: 't', kind: 'task', format: 'yaml', path: task } satisfies IndexEntry;
  });
  return [entries[0], entries[1]];
}

// The definition the comparison keeps: both configs loaded whole (js-yaml, includes merged), each
// `!function` by its name, the keys whose values differ in the order of the replaced config's keys then
// the other's; a config that does not load makes the pair "differs" with no keys and no files.
function comparable(value: unknown): unknown {
  if (value instanceof DeferredFunction) return `!function ${value.ref}`;
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, comparable(item)]));
  return value;
}

function reference(used: IndexEntry, replaced: IndexEntry) {
  clearYamlCache();
  try {
    const [a, b] = [used, replaced].map((entry) => loadYamlSync(entry.path as string));
    const left = comparable(a.config) as Record<string, unknown>;
    const right = comparable(b.config) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(right), ...Object.keys(left)])].filter(
      (key) => !isDeepStrictEqual(left[key], right[key]),
    );
    return { sameConfig: keys.length === 0, differingKeys: keys, files: [...a.files, ...b.files] };
  } catch {
    return { sameConfig: false, differingKeys: [], files: [] };
  } finally {
    clearYamlCache();
  }
}

function compared(used: IndexEntry, replaced: IndexEntry) {
  clearYamlCache();
  return compareConfigs(used, replaced);
}

// Values written in more than one way: the same value (`5` and `5`, `"a"` and `a`), another value, a
// comment inside, a nested block, a list, a `!function`, an empty value.
const VALUES = [
  '5',
  '5.0',
  '"5"',
  'a',
  '"a"',
  "'a'",
  'a # a comment',
  '[a, b]',
  '["a", "b"]',
  '\n  - a\n  - b',
  '\n  - a\n  # between\n  - b',
  '\n  metric: acc\n  higher_is_better: true',
  '\n  metric: acc\n  higher_is_better: True',
  '!function utils.process',
  '!function  utils.process',
  '',
  '~',
  '|\n  line one\n  line two',
  '"two\\\n  \\ lines"',
  'yes',
  'true',
];
const KEYS = [
  'task',
  'num_fewshot',
  'metric_list',
  'doc_to_text',
  'output_type',
  'task_list',
  '"quoted"',
  '1',
  'on',
];

function config(next: () => number, includes: string[]): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const lines: string[] = [];
  if (includes.length === 1 && next() < 0.5) lines.push(`include: ${includes[0]}`);
  else if (includes.length) lines.push(`include: [${includes.join(', ')}]`);
  const count = 1 + Math.floor(next() * 5);
  for (let index = 0; index < count; index++) {
    if (next() < 0.15) lines.push('# a comment line');
    const value = pick(VALUES);
    lines.push(`${pick(KEYS)}:${value.startsWith('\n') || value === '' ? '' : ' '}${value}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One side: a task file and up to two templates it includes, with texts drawn from `next`. */
function side(next: () => number): Record<string, string> {
  const templates = ['_a_yaml', '_b_yaml'].slice(0, Math.floor(next() * 3));
  const files: Record<string, string> = { 'task.yaml': config(next, templates) };
  for (const name of templates) files[name] = config(next, []);
  return files;
}

describe('compareConfigs', () => {
  it('compares as the whole configs compare, over seeded pairs of configs written alike and not', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const generator = new FastRandom(seed);
      const next = () => generator.nextDouble();
      const left = side(next);
      // Most pairs start from the same texts, then one file gains a key, a template's `task_list` or a
      // comment line, or lines of another config (which may write a key again, or differently), or nothing.
      let right = side(next);
      if (next() < 0.8) {
        right = { ...left };
        const name = Object.keys(right)[Math.floor(next() * Object.keys(right).length)];
        const lines = right[name].split('\n');
        const at = 1 + Math.floor(next() * (lines.length - 1));
        const change = next();
        if (change < 0.3) lines.push(`extra_${Math.floor(next() * 3)}: 1`);
        else if (change < 0.45) lines.push('task_list: [a]');
        else if (change < 0.6) lines.splice(at, 0, '# another comment');
        else if (change < 0.85) lines.splice(at, 0, config(next, []).trimEnd());
        right[name] = lines.join('\n');
      }
      const [used, replaced] = pair(left, right);
      expect(compared(used, replaced), `seed ${seed}`).toEqual(reference(used, replaced));
    }
  });

  it('decides pairs written alike without the loader, and lists the keys only one config has', () => {
    const template = 'dataset_path: hails/mmlu_no_train # a copy\nmetric_list:\n  - metric: acc\n';
    const [used, replaced] = pair(
      { 'task.yaml': '"include": "_t_yaml"\n"task": "mmlu_x"\n', _t_yaml: template },
      { 'task.yaml': '"include": "_t_yaml"\n"task": "mmlu_x"\n', _t_yaml: `${template}num_fewshot: 5\n` },
    );
    expect(compared(used, replaced)).toEqual({
      sameConfig: false,
      differingKeys: ['num_fewshot'],
      files: [
        used.path,
        path.join(path.dirname(used.path as string), '_t_yaml'),
        replaced.path,
        path.join(path.dirname(replaced.path as string), '_t_yaml'),
      ],
    });
  });

  it('holds a config the same whether its keys are included or written in the file', () => {
    const [used, replaced] = pair(
      { 'task.yaml': 'include: _t_yaml\ntask: x\n', _t_yaml: 'task_list: [a]\nnum_fewshot: 5\n' },
      { 'task.yaml': 'num_fewshot: 5\ntask: x\n' },
    );
    expect(compared(used, replaced)).toEqual({
      sameConfig: true,
      differingKeys: [],
      files: [used.path, path.join(path.dirname(used.path as string), '_t_yaml'), replaced.path],
    });
  });

  it('words hostile pairs as the loader does: an include cycle, a missing include, a non-name include', () => {
    const cases: Array<Record<string, string>> = [
      { 'task.yaml': 'include: _a_yaml\ntask: t\n', _a_yaml: 'include: task.yaml\nx: 1\n' },
      { 'task.yaml': 'include: _missing_yaml\ntask: t\n' },
      { 'task.yaml': 'include:\n  - {a: 1}\ntask: t\n' },
      { 'task.yaml': 'include:\ntask: t\n' },
      { 'task.yaml': 'task: t\nx: *alias\n' },
      { 'task.yaml': '' },
    ];
    for (const files of cases) {
      const [used, replaced] = pair(files, files);
      const expected = reference(used, replaced);
      expect(expected.sameConfig).toBe(false);
      expect(compared(used, replaced)).toEqual(expected);
    }
  });
});
