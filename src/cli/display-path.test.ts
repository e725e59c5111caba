import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { displayPath } from './display-path.js';

describe('displayPath', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // The per-folder shortcut must give path.relative's answer (or the file itself for the current folder).
  const cwds = ['/', '/srv/project', '/srv/project/sub', '/srv/project/sub/deep', '/srv/proj'];
  const files = [
    '/srv/project/tasks/a.yaml',
    '/srv/project/tasks/b.yaml',
    '/srv/project',
    '/srv/project/',
    '/srv/project/a.yaml',
    '/srv/projectx/a.yaml',
    '/srv/a.yaml',
    '/a.yaml',
    '/srv/project/sub/../tasks/c.yaml',
    '/srv/project/./d.yaml',
    '/srv//assay/e.yaml',
    '/srv/project/tasks/..',
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
