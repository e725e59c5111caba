import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import { expandIncludePath } from './lm-eval-tree.js';

const hasPython = requireComponent('python3', spawnSync('python3', ['-c', '0']).status === 0);

const saved = { cwd: process.cwd(), pythonPath: process.env.PYTHONPATH };
afterEach(() => {
  process.chdir(saved.cwd);
  if (saved.pythonPath === undefined) delete process.env.PYTHONPATH;
  else process.env.PYTHONPATH = saved.pythonPath;
});

describe.skipIf(!hasPython)('--include_path lm_eval', () => {
  it('means the task folder of the lm_eval package python3 imports, when no such folder exists', async () => {
    const site = await mkdtemp(path.join(os.tmpdir(), 'assay-site-'));
    // A stand-in lm_eval package: importable, with a tasks/ folder.
    await mkdir(path.join(site, 'lm_eval', 'tasks'), { recursive: true });
    await writeFile(path.join(site, 'lm_eval', '__init__.py'), '');
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'assay-cwd-'));
    process.chdir(elsewhere);
    process.env.PYTHONPATH = site;
    const realSite = await import('node:fs').then((fs) => fs.realpathSync(site));
    expect(
      expandIncludePath(['other', 'lm_eval'], 'python3').map((dir) => dir.replace(realSite, site)),
    ).toEqual(['other', path.join(site, 'lm_eval', 'tasks')]);
    // A folder named lm_eval in the working directory is that folder.
    await mkdir(path.join(elsewhere, 'lm_eval'));
    expect(expandIncludePath(['lm_eval'], 'python3')).toEqual(['lm_eval']);
  });

  it('fails with the reason when the package cannot be imported', async () => {
    process.chdir(await mkdtemp(path.join(os.tmpdir(), 'assay-cwd-')));
    process.env.PYTHONPATH = await mkdtemp(path.join(os.tmpdir(), 'assay-empty-'));
    expect(() => expandIncludePath(['lm_eval'], 'python3')).toThrow(
      /^`includePath` lm_eval: there is no folder lm_eval here, and python3 cannot import lm_eval \(ModuleNotFoundError: No module named 'lm_eval'\); install lm-eval for that interpreter or set ASSAY_PYTHON to one that has it$/,
    );
  });
});
