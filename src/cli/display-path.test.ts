import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { displayPath } from './display-path.js';

describe('displayPath', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // The per-folder shortcut must give path.relative's answer (or the file itself for the current folder).
  const cwds = ['/', '/work/assay', '/work/assay/sub', '/work/assay/sub/deep', '/work/ass'];
  const files = [
    '/work/assay/tasks/a.yaml',
    '/work/assay/tasks/b.yaml',
    '/work/assay',
    '/work/assay/',
    '/work/assay/a.yaml',
    '/work/assayx/a.yaml',
    '/work/a.yaml',
    '/a.yaml',
    '/work/assay/sub/../tasks/c.yaml',
    '/work/assay/./d.yaml',
    '/work//assay/e.yaml',
    '/work/assay/tasks/..',
    'relative/f.yaml',
  ];
  for (const cwd of cwds) {
    test(`equals path.relative from ${cwd}, called twice`, () => {
      vi.spyOn(process, 'cwd').mockReturnValue(cwd);
      for (let round = 0; round < 2; round++) {
        for (const file of files) expect(displayPath(file), file).toBe(path.relative(cwd, file) || file);
      }
    });
  }
});
