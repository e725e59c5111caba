/**
 * Issue 32 item 6 through the real CLI, run from a project folder: an `--include_path` folder that defines
 * built-in tasks again is silent where the config is the same and summed up in one line where it
 * differs; `assay ls tasks --overrides` lists them; every listing (`ls`, `--tasks list`) shows paths
 * relative to the current folder.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { repoRoot, tempDir } from './support/helpers.js';

let work = '';
let env: Record<string, string> = {};
const builtin = (file: string) => path.join(repoRoot, 'tasks', file);

beforeAll(() => {
  work = tempDir('assay-overrides-');
  env = { ASSAY_CACHE_DIR: path.join(work, '.cache') };
  mkdirSync(path.join(work, 'mytasks'));
  // arc_easy as the built-in has it, without its header comment: the same config.
  const arc = readFileSync(builtin('arc/arc_easy.yaml'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');
  writeFileSync(path.join(work, 'mytasks', 'arc_easy.yaml'), arc);
  // boolq with a different num_fewshot.
  writeFileSync(
    path.join(work, 'mytasks', 'boolq.yaml'),
    `${readFileSync(builtin('boolq/boolq.yaml'), 'utf8')}\nnum_fewshot: 3\n`,
  );
});

describe('--include_path over built-in tasks', () => {
  it('is silent for the same config, and one line for those that differ', () => {
    const run = runCli(['ls', 'tasks', '--include_path', 'mytasks'], { cwd: work, env });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      'assay: warning: 1 built-in task is replaced by the version in mytasks, whose config differs: boolq; `assay ls tasks --overrides` lists them\n',
    );
  });

  it('assay ls tasks --overrides lists both, the one used, the one replaced and what differs, paths relative', () => {
    const run = runCli(['ls', 'tasks', '--overrides', '--include_path', 'mytasks'], { cwd: work, env });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const rows = run.stdout
      .trim()
      .split('\n')
      .slice(2)
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const relative = (file: string) => path.relative(work, builtin(file));
    expect(rows).toEqual([
      [
        'boolq',
        'task',
        'mytasks/boolq.yaml',
        `${relative('boolq/boolq.yaml')} (built-in)`,
        'differs: num_fewshot',
      ],
      ['arc_easy', 'task', 'mytasks/arc_easy.yaml', `${relative('arc/arc_easy.yaml')} (built-in)`, 'same'],
    ]);
  });
});

describe('paths in listings are relative to the current folder', () => {
  it('--tasks list, as assay ls does', () => {
    const list = runCli(['run', '--tasks', 'list', '--include_path', 'mytasks'], { cwd: work, env });
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^\|\s*boolq\s*\|\s*mytasks\/boolq\.yaml\s*\|/m);
    expect(list.stdout).toMatch(
      new RegExp(
        `^\\|\\s*piqa\\s*\\|\\s*${path.relative(work, builtin('piqa/piqa.yaml')).replaceAll('.', '\\.')}\\s*\\|`,
        'm',
      ),
    );
    expect(list.stdout).not.toContain(work);
    const ls = runCli(['ls', 'tasks', '--include_path', 'mytasks'], { cwd: work, env });
    expect(ls.stdout).toMatch(/^\|boolq\s*\|mytasks\/boolq\.yaml\s*\|/m);
    expect(ls.stdout).not.toContain(work);
  });
});
