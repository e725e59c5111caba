import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { clearYamlCache, DeferredFunction, loadYaml, locateKey } from './yaml-loader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-yaml-'));
  clearYamlCache();
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

async function caught(promise: Promise<unknown>): Promise<AssayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AssayError);
  return error as AssayError;
}

describe('loadYaml', () => {
  it('merges include chains: included keys first, later includes over earlier, local keys last', async () => {
    await write('base.yaml', 'a: base\nb: base\nc: base\ntask_list: [x]\n');
    await write('mid.yaml', 'include: base.yaml\nb: mid\n');
    await write('other.yaml', 'c: other\nd: other\n');
    const file = await write('task.yaml', 'include: [mid.yaml, other.yaml]\ntask: t\nd: local\n');
    const loaded = await loadYaml(file);
    expect(loaded.config).toEqual({ a: 'base', b: 'mid', c: 'other', d: 'local', task: 't' });
    expect(loaded.files).toEqual([
      file,
      path.join(dir, 'mid.yaml'),
      path.join(dir, 'base.yaml'),
      path.join(dir, 'other.yaml'),
    ]);
    expect(loaded.keyFiles.get('a')).toBe(path.join(dir, 'base.yaml'));
    expect(loaded.keyFiles.get('b')).toBe(path.join(dir, 'mid.yaml'));
    expect(loaded.keyFiles.get('d')).toBe(file);
  });

  it('resolves includes relative to the including file, not the current directory', async () => {
    await write('shared.yaml', 'output_type: multiple_choice\n');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(dir, 'sub'));
    const file = await write('sub/task.yaml', 'include: ../shared.yaml\ntask: t\n');
    expect((await loadYaml(file)).config).toEqual({ output_type: 'multiple_choice', task: 't' });
  });

  it('keeps !function unresolved, bound to the YAML it was written in', async () => {
    const file = await write('task.yaml', 'task: t\nprocess_docs: !function utils.process_docs\n');
    const { config } = await loadYaml(file);
    expect(config.process_docs).toEqual(new DeferredFunction('utils.process_docs', file));
  });

  it('reports an include cycle with the chain and the include line', async () => {
    await write('a.yaml', 'task: a\ninclude: b.yaml\n');
    await write('b.yaml', 'x: 1\ninclude: a.yaml\n');
    const error = await caught(loadYaml(path.join(dir, 'a.yaml')));
    expect(error.code).toBe('include_cycle');
    expect(error.message).toBe('include cycle: a.yaml → b.yaml → a.yaml');
    expect(error.location).toEqual({ file: path.join(dir, 'b.yaml'), line: 2, column: 1 });
  });

  it('points a missing include at the include entry', async () => {
    const file = await write('task.yaml', 'task: t\ninclude:\n  - exists.yaml\n  - missing.yaml\n');
    await write('exists.yaml', 'a: 1\n');
    const error = await caught(loadYaml(file));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe(
      `include missing.yaml: cannot read ${path.join(dir, 'missing.yaml')}: file not found`,
    );
    expect(error.location).toEqual({ file, line: 4, column: 5 });
  });

  it('reports malformed YAML as yaml_syntax with file:line:col', async () => {
    const file = await write('bad.yaml', 'task: t\nmetric_list:\n  - metric: acc\n    aggregation mean\n');
    const error = await caught(loadYaml(file));
    expect(error.code).toBe('yaml_syntax');
    expect(error.location).toEqual({ file, line: 4, column: 5 });
    expect(error.format()).toBe(
      `${file}:4:5: malformed YAML: Implicit map keys need to be followed by map values`,
    );
  });

  it('rejects a file whose top level is not a mapping', async () => {
    const file = await write('list.yaml', '- a\n- b\n');
    const error = await caught(loadYaml(file));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe(`expected a YAML mapping (key: value) at the top level of ${file}`);
  });

  it('parses as YAML 1.1, like PyYAML', async () => {
    const file = await write('t.yaml', 'task: t\nflag: yes\nother: off\n');
    expect((await loadYaml(file)).config).toEqual({ task: 't', flag: true, other: false });
  });

  it('re-reads a file after a failed parse (failures are not cached)', async () => {
    const file = await write('t.yaml', 'task: [\n');
    await caught(loadYaml(file));
    await write('t.yaml', 'task: fixed\n');
    expect((await loadYaml(file)).config).toEqual({ task: 'fixed' });
  });
});

describe('locateKey', () => {
  it('finds nested keys and list items', async () => {
    const file = await write(
      't.yaml',
      'task: t\nmetric_list:\n  - metric: acc\n  - metric: f1\n    aggregation: mean\n',
    );
    expect(await locateKey(file, ['metric_list', 1, 'aggregation'])).toEqual({ file, line: 5, column: 5 });
    expect(await locateKey(file, ['task'])).toEqual({ file, line: 1, column: 1 });
  });
});
