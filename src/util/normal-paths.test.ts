import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeNormal, resolveNormal } from './normal-paths.js';

// Paths of every shape: normal ones (the root, dotted names, names sharing a prefix) and not normal ones
// (empty, `.` and `..` segments, a trailing separator, relative), so that each answer is either path's or
// undefined.
const PATHS = [
  '/',
  '/srv',
  '/srv/project',
  '/srv/project/tasks',
  '/srv/project/tasks/mmlu/default',
  '/srv/projectx',
  '/srv/proj',
  '/home/u/.venv/lib/python3.11/site-packages/lm_eval/tasks',
  '/home/u/.venv/lib',
  '/a..b/c.',
  '/srv//project',
  '/srv/./project',
  '/srv/project/..',
  '/srv/project/',
  'srv/project',
  '',
];
const ENTRIES = [
  '_template_yaml',
  '../_template_yaml',
  '../../default/_default_template_yaml',
  './a/./b.yaml',
  'a//b.yaml',
  'a/',
  '..',
  '.',
  '../../../../../../../../x.yaml',
  '.hidden/..x/y',
  '/abs/t.yaml',
  '',
];

function isNormalAbsolute(candidate: string): boolean {
  if (candidate === '/') return true;
  return (
    candidate.startsWith('/') && !candidate.endsWith('/') && path.posix.normalize(candidate) === candidate
  );
}

describe('normal paths', () => {
  it('resolves an entry against a normal folder as path.resolve does, and answers nothing for the rest', () => {
    for (const folder of PATHS)
      for (const entry of ENTRIES) {
        const resolved = resolveNormal(folder, entry);
        if (isNormalAbsolute(folder) && !entry.startsWith('/'))
          expect(resolved, `${folder} + ${entry}`).toBe(path.posix.resolve(folder, entry));
        else expect(resolved, `${folder} + ${entry}`).toBeUndefined();
      }
  });

  it('gives one normal path relative to another as path.relative does, and nothing for the rest', () => {
    for (const from of PATHS)
      for (const to of PATHS) {
        const relative = relativeNormal(from, to);
        if (isNormalAbsolute(from) && isNormalAbsolute(to))
          expect(relative, `${from} → ${to}`).toBe(path.posix.relative(from, to));
        else expect(relative, `${from} → ${to}`).toBeUndefined();
      }
  });
});
