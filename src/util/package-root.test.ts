import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagePath, packageRoot } from './package-root.js';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('packageRoot', () => {
  it("is the folder of assay's package.json, two levels above src/util/", () => {
    expect(packageRoot()).toBe(checkout);
    expect(JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')).name).toBe('assay');
  });

  it('joins paths inside the package: the built-in tasks, the Python worker', () => {
    expect(packagePath('tasks')).toBe(path.join(checkout, 'tasks'));
    expect(existsSync(packagePath('src', 'python', 'worker.py'))).toBe(true);
  });
});
