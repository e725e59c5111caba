/**
 * Nothing test-only is compiled into dist/: tsconfig.build.json compiles every src/**\/*.ts except
 * *.test.ts, so a fixture, a test helper or a suite left in src/ would ship. Fixtures live in
 * test/fixtures/; the only test code that ships is the conformance suites of `assay/testing`
 * (src/testing/, with vitest as a peer dependency). And the Python that assay runs from src/ (the
 * bridge's worker, the sandbox's checker and runners) ships in the package, as npm packs it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/helpers.js';

const buildConfig = JSON.parse(readFileSync(path.join(repoRoot, 'tsconfig.build.json'), 'utf8')) as {
  include: string[];
  exclude: string[];
};

function built(): string[] {
  const source = path.join(repoRoot, 'src');
  return (readdirSync(source, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
}

describe('what npm run build compiles', () => {
  it('is src/ without its tests', () => {
    expect(buildConfig).toMatchObject({ include: ['src/**/*.ts'], exclude: ['src/**/*.test.ts'] });
  });

  it('holds no fixtures, and test code only in src/testing/', () => {
    const files = built();
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => /fixture/i.test(file))).toEqual([]);
    const testCode = files.filter((file) =>
      /from ['"]vitest['"]/.test(readFileSync(path.join(repoRoot, 'src', file), 'utf8')),
    );
    expect(testCode.filter((file) => !file.startsWith('testing/'))).toEqual([]);
    expect(testCode.length).toBeGreaterThan(0);
  });

  it('leaves no fixture JSON beside the sources', () => {
    const json = (readdirSync(path.join(repoRoot, 'src'), { recursive: true }) as string[]).filter((file) =>
      /fixture.*\.json$/i.test(file),
    );
    expect(json).toEqual([]);
  });
});

describe('what npm pack ships', () => {
  it('holds every .py file of src/ (the worker package, the sandbox), and no bytecode', () => {
    const python = (readdirSync(path.join(repoRoot, 'src'), { recursive: true }) as string[])
      .map((file) => `src/${file.split(path.sep).join('/')}`)
      .filter((file) => file.endsWith('.py') && !file.includes('__pycache__'));
    expect(python).toContain('src/python/worker.py');
    expect(python).toContain('src/python/assay_worker/main.py');
    expect(python).toContain('src/sandbox/checker.py');
    // npm's own file list (package.json `files`), without building: what `npm publish` would upload.
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const shipped = packed.files.map((file) => file.path);
    expect(shipped.filter((file) => file.endsWith('.py')).sort()).toEqual(python.sort());
    expect(shipped.filter((file) => /__pycache__|\.pyc$/.test(file))).toEqual([]);
  });
});
