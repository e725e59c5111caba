/**
 * A cold scan's cache must carry the stamps of the texts its parses came from. A file read twice in one
 * scan (a listed file an earlier file includes, or a shared template) is parsed once, at its first read;
 * if it is replaced after that read with its mtime put back (`cp -p`, tar, `rsync -t`), the next command
 * must see the change. The loader is wrapped (not replaced) to make the edit right after a file loads.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTaskIndex } from './index.js';
import { clearYamlCache } from './yaml-loader.js';

const hook: { after?: (file: string) => void } = {};

vi.mock('./yaml-loader.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./yaml-loader.js')>();
  return {
    ...original,
    loadYamlSync: (file: string, options?: import('./yaml-loader.js').LoadYamlOptions) => {
      const loaded = original.loadYamlSync(file, options);
      hook.after?.(file);
      return loaded;
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'assay-index-race-'));
  hook.after = undefined;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const past = new Date(Date.now() - 3_600_000);
function write(name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, past, past);
  return file;
}

async function build(): Promise<Map<string, { outputType?: string }>> {
  clearYamlCache();
  const index = await buildTaskIndex({
    includePath: [path.join(dir, 'tasks')],
    builtinDir: false,
    cacheDir: path.join(dir, 'cache'),
  });
  return index.entries;
}

/** Replaces `file` with `text` (the mtime put back) right after `trigger` loads. */
function editAfter(trigger: string, file: string, text: string): void {
  hook.after = (loaded) => {
    if (loaded !== trigger) return;
    hook.after = undefined;
    write(path.relative(dir, file), text);
  };
}

describe('the cold scan stamps what it parsed', () => {
  beforeEach(() => {
    for (let i = 0; i < 55; i++) write(`tasks/f${String(i).padStart(2, '0')}.yaml`, `task: f${i}\n`);
  });

  it('a listed file an earlier file includes, replaced in between, is rescanned by the next command', async () => {
    const a = write('tasks/a.yaml', 'include: b.yaml\ntask: a\n');
    const b = write('tasks/b.yaml', 'task: b\noutput_type: loglikelihood\n');
    utimesSync(path.join(dir, 'tasks'), past, past);
    editAfter(a, b, 'task: b2\noutput_type: generate_until\n');
    const first = await build();
    expect(hook.after).toBeUndefined();
    // This scan used b.yaml as first read, for both files.
    expect(first.get('a')?.outputType).toBe('loglikelihood');
    expect(first.has('b')).toBe(true);
    const next = await build();
    expect([...next.keys()].filter((name) => /^[ab]/.test(name)).sort()).toEqual(['a', 'b2']);
    expect(next.get('a')?.outputType).toBe('generate_until');
  });

  it('a template outside the folder, replaced after its first read, is read again by the next command', async () => {
    const template = write('shared/_template', 'output_type: loglikelihood\n');
    const a = write('tasks/a.yaml', 'include: ../shared/_template\ntask: a\n');
    write('tasks/b.yaml', 'include: ../shared/_template\ntask: b\n');
    utimesSync(path.join(dir, 'tasks'), past, past);
    editAfter(a, template, 'output_type: generate_until\n');
    const first = await build();
    expect(hook.after).toBeUndefined();
    expect(first.get('b')?.outputType).toBe('loglikelihood');
    const next = await build();
    expect(next.get('a')?.outputType).toBe('generate_until');
    expect(next.get('b')?.outputType).toBe('generate_until');
  });

  it('a .jsonl candidate gone since the walk or dangling is named and skipped, not a crash', async () => {
    const { symlinkSync } = await import('node:fs');
    symlinkSync(path.join(dir, 'nowhere.jsonl'), path.join(dir, 'tasks', 'dangling.jsonl'));
    const index = await buildTaskIndex({
      includePath: [path.join(dir, 'tasks')],
      builtinDir: false,
      cacheDir: path.join(dir, 'cache'),
    });
    const file = path.join(dir, 'tasks', 'dangling.jsonl');
    expect(index.skipped.map(({ file, error }) => [file, error.message])).toEqual([
      [file, `cannot read ${file}: file not found`],
    ]);
    expect(index.entries.has('f0')).toBe(true);
  });
});
