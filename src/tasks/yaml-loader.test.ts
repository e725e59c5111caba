import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { caught } from '../../test/support/caught.js';
import { writeIn } from '../../test/support/helpers.js';
import { fileStamp } from '../util/file-stamp.js';
import {
  clearYamlCache,
  DeferredFunction,
  loadYaml,
  loadYamlSync,
  locateKey,
  memoizedParse,
} from './yaml-loader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-yaml-'));
  clearYamlCache();
});

const write = (name: string, text: string) => writeIn(dir, name, text);

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

  it('names an included file by its resolved path however the include and the file are spelled', async () => {
    const shared = await write('shared.yaml', 'output_type: multiple_choice\n');
    await write('sub/a.yaml', 'include: ../shared.yaml\ntask: a\n');
    await write('b.yaml', 'include: ./shared.yaml\ntask: b\n');
    await write('c.yaml', 'include: shared.yaml\ntask: c\n');
    await write('sub/d.yaml', 'include: .././sub/..//shared.yaml\ntask: d\n');
    for (const spelled of ['sub/a.yaml', 'b.yaml', 'c.yaml', 'sub/./d.yaml', 'sub/../c.yaml']) {
      for (const keys of [undefined, ['task', 'output_type']]) {
        clearYamlCache();
        // Spelled as given (path.join would normalize it).
        const loaded = loadYamlSync(`${dir}/${spelled}`, keys ? { keys } : {});
        expect(loaded.files[0]).toBe(path.resolve(dir, spelled));
        expect(loaded.files[1]).toBe(shared);
        expect(loaded.config.output_type).toBe('multiple_choice');
      }
    }
  });

  it('reports, for a file read both for keys and whole, the stamp of the read a keyed load used', async () => {
    // A keyed load (the index) and a whole load in one process, the shared template edited in between:
    // what the next keyed load builds and the stamp the index caches it under must come from one read.
    const keys = ['task', 'output_type'];
    for (const wholeLoad of ['b.yaml', 't.yaml']) {
      clearYamlCache();
      const base = await write('b.yaml', 'output_type: old\n');
      await write('t.yaml', 'include: b.yaml\nx: 1\n');
      const x = await write('x.yaml', 'include: t.yaml\ntask: x\n');
      const y = await write('y.yaml', 'include: t.yaml\ntask: y\n');
      expect(loadYamlSync(x, { keys }).config).toEqual({ task: 'x', output_type: 'old' });
      const before = memoizedParse(base)?.stamp;
      expect(before).toEqual(fileStamp(base));
      await write('b.yaml', 'output_type: generate_until\n');
      expect(loadYamlSync(path.join(dir, wholeLoad)).config.output_type).toBe('generate_until');
      const keyed = loadYamlSync(y, { keys }).config;
      // The keyed load keeps what it read before; so must the stamp reported for it (the next command
      // then sees the file changed), not the newer read's, which would make a stale cache look current.
      expect(keyed).toEqual({ task: 'y', output_type: 'old' });
      expect(memoizedParse(base)?.stamp).toEqual(before);
      expect(memoizedParse(base)?.stamp).not.toEqual(fileStamp(base));
    }
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

describe('PyYAML semantics (lm-eval reads task files with PyYAML)', () => {
  it('types plain scalars as PyYAML 6 does: YAML 1.1 booleans, octal, sexagesimal, later duplicate wins', async () => {
    const file = await write(
      't.yaml',
      [
        'a: yes',
        'b: No',
        'c: on',
        'd: OFF',
        'e: y',
        'f: n',
        'g: 010',
        'h: 09',
        'i: 0o10',
        'j: 1e5',
        'k: 1.0e+5',
        'l: 1.5e5',
        'm: 1:30',
        'n: 0x1F',
        'o: ~',
        'p: null',
        'q: 1_000',
        'r: .5',
        's: -.5',
        't: +12',
        'u: 0b101',
        'v: 12:30:00',
        'w: .inf',
        'x: 2024-01-01',
        'dup: first',
        'dup: second',
        '',
      ].join('\n'),
    );
    // yaml.load(text, Loader=yaml.CSafeLoader) under PyYAML 6.0.3, except x, which PyYAML makes a
    // datetime.date and assay keeps as the string written (no task file has a date).
    expect((await loadYaml(file)).config).toEqual({
      a: true,
      b: false,
      c: true,
      d: false,
      e: 'y',
      f: 'n',
      g: 8,
      h: '09',
      i: '0o10',
      j: '1e5',
      k: 100000,
      l: '1.5e5',
      m: 90,
      n: 31,
      o: null,
      p: null,
      q: 1000,
      r: 0.5,
      s: '-.5',
      t: 12,
      u: 5,
      v: 45000,
      w: Number.POSITIVE_INFINITY,
      x: '2024-01-01',
      dup: 'second',
    });
  });

  it('reads a quoted scalar whose continuation line is less indented (xnli_eu, acp_just_bool)', async () => {
    const file = await write(
      'xnli_like.yaml',
      [
        'task: xnli_like',
        `doc_to_choice: '{{[premise+", ezta? Bai, "+hypothesis,premise+", ezta? Gainera,`,
        `"+hypothesis]}}'`,
        'fewshot_config:',
        '  samples:',
        "  - context: 'There are several cities. The goal is",
        "  to reach l1-0.'",
        '    answer: "Step 1: valid.',
        '  Step 2: done."',
        '',
      ].join('\n'),
    );
    // PyYAML's value (the `yaml` package rejects both scalars: "Missing closing quote").
    expect((await loadYaml(file)).config).toEqual({
      task: 'xnli_like',
      doc_to_choice: '{{[premise+", ezta? Bai, "+hypothesis,premise+", ezta? Gainera, "+hypothesis]}}',
      fewshot_config: {
        samples: [
          {
            context: 'There are several cities. The goal is to reach l1-0.',
            answer: 'Step 1: valid. Step 2: done.',
          },
        ],
      },
    });
  });

  it('refuses an alias bomb quickly, naming the file and the first alias line', async () => {
    const levels = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    // 9^9 = 387,420,489 strings once expanded; the `yaml` package (maxAliasCount -1) spent 60 s and
    // 4.3 GB on this before V8 aborted.
    const file = await write('bomb.yaml', `task: bomb\n${levels.join('\n')}\n`);
    const started = performance.now();
    const error = await caught(loadYaml(file));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error.code).toBe('yaml_syntax');
    expect(error.exitCode).toBe(2);
    expect(error.format()).toBe(
      `${file}:3: YAML aliases expand to more than 100,000 values (an alias bomb?); a task config is far smaller, and lm-eval's use no aliases`,
    );
  });

  it('keeps aliases that expand to a small value', async () => {
    const file = await write('alias.yaml', 'task: t\nbase: &b {x: 1}\nother: *b\n');
    expect((await loadYaml(file)).config).toEqual({ task: 't', base: { x: 1 }, other: { x: 1 } });
  });
});
