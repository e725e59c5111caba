import { readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCliInProcess } from '../../test/support/cli-in-process.js';
import { writeIn } from '../../test/support/helpers.js';
import { sourcesUnchanged } from '../tasks/index-cache.js';
import { clearYamlCache } from '../tasks/yaml-loader.js';
import { commandLine } from './command-line.js';
import { KEPT_RECORDS, replayListing } from './listing-replay.js';

// process.env (ASSAY_CACHE_DIR) and process.chdir: listed in vitest.config.ts `isolated`.
let dir: string;
let cacheDir: string;
let root: string;
const previousCache = process.env.ASSAY_CACHE_DIR;
const previousCwd = process.cwd();

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'assay-listing-'));
  process.env.ASSAY_CACHE_DIR = path.join(dir, 'cache');
  cacheDir = path.join(dir, 'cache', 'task-index');
  root = path.join(dir, 'tree');
  process.chdir(dir);
});

afterEach(() => {
  process.chdir(previousCwd);
  if (previousCache === undefined) delete process.env.ASSAY_CACHE_DIR;
  else process.env.ASSAY_CACHE_DIR = previousCache;
  rmSync(dir, { recursive: true, force: true });
});

/** Backdated a minute: files changed in the last seconds are not cached (their mtime could repeat). */
function settle(files: string[], secondsAgo = 60): void {
  const past = new Date(Date.now() - secondsAgo * 1000);
  for (const file of files) utimesSync(file, past, past);
}

/** A tree of 60 tasks (over the cache's 50-file floor) including a template outside it, settled. */
async function tree(): Promise<string[]> {
  const files = [await writeIn(dir, 'shared/_template.yaml', 'output_type: multiple_choice\n')];
  for (let i = 0; i < 60; i++)
    files.push(
      await writeIn(
        root,
        `t${String(i).padStart(2, '0')}.yaml`,
        `include: ../shared/_template.yaml\ntask: t${i}\n`,
      ),
    );
  // Two files defining one name: a warning on stderr, which a replay must give back too.
  files.push(await writeIn(root, 'z_duplicate.yaml', 'task: t0\n'));
  settle([...files, root, path.join(dir, 'shared')]);
  return files;
}

/** Whether the command line would be replayed now, its writes captured (and not shown). */
function replays(argv: string[]): boolean {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const previous = process.exitCode;
  try {
    return replayListing(commandLine(argv));
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = previous;
  }
}

const records = () => {
  try {
    return readdirSync(cacheDir).filter((name) => name.startsWith('listing-'));
  } catch {
    return [];
  }
};

/** A row of `ls tasks`' table: its cells padded to their columns' widths. */
const row = (...cells: string[]) =>
  new RegExp(`^\\|${cells.map((cell) => `${cell.replace(/[.\\/]/g, '\\$&')}\\s*`).join('\\|')}\\|$`, 'm');

describe('a listing replayed from its record', () => {
  it('gives back stdout, stderr and the exit code of the command that wrote it, for each listing command', async () => {
    await tree();
    const commands = [
      ['ls', 'tasks'],
      ['ls', 'groups'],
      ['ls', 'tags'],
      ['ls', 'tasks', '--overrides'],
      ['run', '--tasks', 'list'],
      ['run', '--tasks', 'list_subtasks'],
    ];
    for (const command of commands) {
      const argv = [...command, '--include_path', root];
      expect(replays(argv)).toBe(false);
      const listed = await runCliInProcess(argv);
      expect(listed.status).toBe(0);
      expect(replays(argv)).toBe(true);
      expect(await runCliInProcess(argv)).toEqual(listed);
    }
    expect(records()).toHaveLength(commands.length);
    const tasks = await runCliInProcess(['ls', 'tasks', '--include_path', root]);
    expect(tasks.stdout).toMatch(row('t59', path.join('tree', 't59.yaml'), 'multiple_choice'));
    expect(tasks.stderr).toContain('duplicate task name "t0"');
    // The option spelt in kebab case is the same command line.
    expect(replays(['ls', 'tasks', '--include-path', root])).toBe(true);
  });

  it('is not replayed once a file is edited in place (same size, new mtime), added or removed, or an include changes', async () => {
    const files = await tree();
    const argv = ['ls', 'tasks', '--include_path', root];
    await runCliInProcess(argv);
    expect(replays(argv)).toBe(true);

    // Edited in place: the same size, another name, a new (settled) mtime.
    writeFileSync(files[1], 'include: ../shared/_template.yaml\ntask: tX\n');
    settle([files[1]], 30);
    expect(statSync(files[1]).size).toBe(statSync(files[2]).size);
    expect(replays(argv)).toBe(false);
    let listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('tX', path.join('tree', 't00.yaml'), 'multiple_choice'));
    expect(replays(argv)).toBe(true);

    // Added (the folder's mtime changes).
    settle([await writeIn(root, 'added.yaml', 'task: added\n'), root], 20);
    expect(replays(argv)).toBe(false);
    listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('added', path.join('tree', 'added.yaml'), 'generate_until'));
    expect(replays(argv)).toBe(true);

    // Removed.
    rmSync(files[3]);
    settle([root], 10);
    expect(replays(argv)).toBe(false);
    listed = await runCliInProcess(argv);
    expect(listed.stdout).not.toMatch(row('t2', path.join('tree', 't02.yaml'), 'multiple_choice'));
    expect(listed.stdout).toMatch(row('t3', path.join('tree', 't03.yaml'), 'multiple_choice'));
    expect(replays(argv)).toBe(true);

    // The template outside the tree, which every task includes.
    writeFileSync(files[0], 'output_type: generate_until\n');
    settle([files[0]], 5);
    expect(replays(argv)).toBe(false);
    clearYamlCache(); // this process's parse memo, which a new command does not have
    listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('t5', path.join('tree', 't05.yaml'), 'generate_until'));
  });

  it('is not replayed once a file is edited in place with its size and mtime put back (touch -d, cp -p, a tar or npm package)', async () => {
    const files = await tree();
    // A whole second: a time that a file system keeps exactly, so that it can be put back exactly.
    const mtime = new Date(Math.floor(Date.now() / 1000 - 60) * 1000);
    utimesSync(files[1], mtime, mtime);
    const argv = ['ls', 'tasks', '--include_path', root];
    await runCliInProcess(argv);
    expect(replays(argv)).toBe(true);
    const { size } = statSync(files[1]);
    writeFileSync(files[1], 'include: ../shared/_template.yaml\ntask: tX\n');
    utimesSync(files[1], mtime, mtime);
    expect(statSync(files[1])).toMatchObject({ size, mtimeMs: mtime.getTime() });
    expect(replays(argv)).toBe(false);
    const listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('tX', path.join('tree', 't00.yaml'), 'multiple_choice'));
    expect(listed.stdout).not.toMatch(row('t0', path.join('tree', 't00.yaml'), 'multiple_choice'));
  });

  it('is not replayed once a symlinked task folder points at another with the same names, sizes and mtimes', async () => {
    await tree();
    // A copy of the tree whose tasks are named u0… instead of t0… (the same sizes), its times put back.
    const copy = path.join(dir, 'copy');
    for (const name of readdirSync(root)) {
      const from = path.join(root, name);
      const { atime, mtime } = statSync(from);
      const to = await writeIn(copy, name, readFileSync(from, 'utf8').replace(/task: t/, 'task: u'));
      utimesSync(to, atime, mtime);
    }
    utimesSync(copy, statSync(root).atime, statSync(root).mtime);
    const link = path.join(dir, 'link');
    symlinkSync(root, link);
    const argv = ['ls', 'tasks', '--include_path', link];
    expect((await runCliInProcess(argv)).stdout).toMatch(
      row('t5', path.join('link', 't05.yaml'), 'multiple_choice'),
    );
    expect(replays(argv)).toBe(true);
    rmSync(link);
    symlinkSync(copy, link);
    expect(replays(argv)).toBe(false);
    const listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('u5', path.join('link', 't05.yaml'), 'multiple_choice'));
    expect(listed.stdout).not.toMatch(row('t5', path.join('link', 't05.yaml'), 'multiple_choice'));
  });

  it('is not replayed once an include that was not found is created, or one that did not parse is fixed', async () => {
    const files = await tree();
    const missing = path.join(dir, 'shared', '_missing.yaml');
    const broken = await writeIn(dir, 'shared/_broken.yaml', 'output_type: [unclosed\n');
    const including = [
      await writeIn(root, 'inc_missing.yaml', 'include: ../shared/_missing.yaml\ntask: inc_missing\n'),
      await writeIn(root, 'inc_broken.yaml', 'include: ../shared/_broken.yaml\ntask: inc_broken\n'),
    ];
    settle([...including, broken, root, path.dirname(files[0])]);
    const argv = ['ls', 'tasks', '--include_path', root];
    let listed = await runCliInProcess(argv);
    expect(listed.stderr).toContain(`cannot read ${missing}`);
    expect(listed.stdout).not.toMatch(/inc_/);
    expect(replays(argv)).toBe(true);

    await writeIn(dir, 'shared/_missing.yaml', 'output_type: loglikelihood\n');
    settle([missing, path.dirname(missing)]);
    expect(replays(argv)).toBe(false);
    listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('inc_missing', path.join('tree', 'inc_missing.yaml'), 'loglikelihood'));
    expect(replays(argv)).toBe(true);

    writeFileSync(broken, 'output_type: multiple_choice\n');
    settle([broken]);
    expect(replays(argv)).toBe(false);
    listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('inc_broken', path.join('tree', 'inc_broken.yaml'), 'multiple_choice'));
    expect(listed.stderr).not.toContain('_broken');
  });

  it("lists a --config file's include_path, and is not replayed once the file changes", async () => {
    await tree();
    const other = path.join(dir, 'other');
    const otherFiles = [];
    for (let i = 0; i < 60; i++)
      otherFiles.push(
        await writeIn(
          other,
          `o${String(i).padStart(2, '0')}.yaml`,
          `task: o${i}\noutput_type: multiple_choice\n`,
        ),
      );
    settle([...otherFiles, other]);
    const config = await writeIn(dir, 'run.yaml', `include_path: ${root}\n`);
    settle([config]);
    const argv = ['run', '--tasks', 'list', '--config', config];
    let listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('t59', path.join('tree', 't59.yaml'), 'multiple_choice'));
    expect(replays(argv)).toBe(true);

    writeFileSync(config, `include_path: ${other}\n`);
    settle([config]);
    expect(replays(argv)).toBe(false);
    listed = await runCliInProcess(argv);
    expect(listed.stdout).toMatch(row('o59', path.join('other', 'o59.yaml'), 'multiple_choice'));
    expect(listed.stdout).not.toMatch(/\|t59 /);
  });

  it('is kept per command line and current folder (paths are shown relative to it)', async () => {
    await tree();
    await runCliInProcess(['ls', 'tasks', '--include_path', root]);
    expect(replays(['ls', 'tasks', '--include_path', root])).toBe(true);
    expect(replays(['ls', 'groups', '--include_path', root])).toBe(false);
    expect(replays(['ls', 'tasks', '--include_path', root, '--overrides'])).toBe(false);
    process.chdir(root);
    expect(replays(['ls', 'tasks', '--include_path', root])).toBe(false);
    expect((await runCliInProcess(['ls', 'tasks', '--include_path', root])).stdout).toMatch(
      row('t59', 't59.yaml', 'multiple_choice'),
    );
  });

  it('is not kept for a failed command, nor from files changed in the last seconds', async () => {
    await tree();
    expect((await runCliInProcess(['ls', 'bogus', '--include_path', root])).status).toBe(2);
    expect((await runCliInProcess(['ls', 'tasks', '--include_path', path.join(dir, 'missing')])).status).toBe(
      2,
    );
    expect(records()).toEqual([]);
    // Just written: its scan is not cached, so neither is a listing made from it.
    await writeIn(root, 'fresh.yaml', 'task: fresh\n');
    const argv = ['ls', 'tasks', '--include_path', root];
    expect((await runCliInProcess(argv)).stdout).toMatch(
      row('fresh', path.join('tree', 'fresh.yaml'), 'generate_until'),
    );
    expect(records()).toEqual([]);
    expect(replays(argv)).toBe(false);
  });

  it('a record whose bytes do not add up to its writes is not replayed', async () => {
    await tree();
    const argv = ['ls', 'tags', '--include_path', root];
    const listed = await runCliInProcess(argv);
    const [record] = records();
    writeFileSync(path.join(cacheDir, record), readFileSync(path.join(cacheDir, record)).subarray(0, -1));
    expect(replays(argv)).toBe(false);
    expect(await runCliInProcess(argv)).toEqual(listed);
    expect(replays(argv)).toBe(true);
  });
});

describe('the records kept', () => {
  it('are at most KEPT_RECORDS, those written longest ago removed first', async () => {
    await tree();
    const argv = ['ls', 'tasks', '--include_path', root];
    await runCliInProcess(argv);
    const [first] = records();
    // Records of other command lines, written an hour ago and later, one a second apart.
    const header = readFileSync(path.join(cacheDir, first));
    const hourAgo = Date.now() / 1000 - 3600;
    for (let i = 0; i < KEPT_RECORDS; i++) {
      const file = path.join(cacheDir, `listing-old${String(i).padStart(2, '0')}.bin`);
      writeFileSync(file, header);
      utimesSync(file, hourAgo + i, hourAgo + i);
    }
    utimesSync(path.join(cacheDir, first), hourAgo - 1, hourAgo - 1);
    await runCliInProcess(['ls', 'groups', '--include_path', root]);
    const kept = records();
    expect(kept).toHaveLength(KEPT_RECORDS);
    // The new record and the 15 most recent old ones; the first and old00 were the oldest.
    expect(kept).not.toContain(first);
    expect(kept).not.toContain('listing-old00.bin');
    expect(kept).toContain('listing-old01.bin');
    expect(kept).toContain(`listing-old${KEPT_RECORDS - 1}.bin`);
    expect(replays(['ls', 'groups', '--include_path', root])).toBe(true);
    expect(replays(argv)).toBe(false);
  });
});

describe('sourcesUnchanged', () => {
  it("holds while every other file keeps its stamp (size, mtime, ctime, inode), and a scan's id is the recorded one", async () => {
    const file = await writeIn(dir, 'compared.yaml', 'task: a\n');
    settle([file]);
    const { size, mtimeMs, ctimeMs, ino } = statSync(file);
    const sources = (stamp: [number, number, number, number]) => ({
      roots: [],
      files: [[file, ...stamp] as [string, number, number, number, number]],
    });
    expect(sourcesUnchanged(cacheDir, sources([size, mtimeMs, ctimeMs, ino]))).toBe(true);
    expect(sourcesUnchanged(cacheDir, sources([size, mtimeMs + 1, ctimeMs, ino]))).toBe(false);
    expect(sourcesUnchanged(cacheDir, sources([size + 1, mtimeMs, ctimeMs, ino]))).toBe(false);
    expect(sourcesUnchanged(cacheDir, sources([size, mtimeMs, ctimeMs - 1, ino]))).toBe(false);
    expect(sourcesUnchanged(cacheDir, sources([size, mtimeMs, ctimeMs, ino + 1]))).toBe(false);
    rmSync(file);
    expect(sourcesUnchanged(cacheDir, sources([size, mtimeMs, ctimeMs, ino]))).toBe(false);
    // A root whose cached scan is another one (or none).
    await tree();
    await runCliInProcess(['ls', 'tasks', '--include_path', root]);
    expect(
      sourcesUnchanged(cacheDir, { roots: [{ dir: root, recursive: true, scan: 'another' }], files: [] }),
    ).toBe(false);
  });
});
