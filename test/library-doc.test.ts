/**
 * docs/library.md runs as written: every ```ts FILE block is written to an empty folder where 'assay'
 * resolves to this package (dist/, so `npm run build` first), the files run in the page's order in one
 * tsx process, and each prints exactly the ```text block shown under it. The numbers on the page come
 * from the toy model's construction (15 of 20 right, a superset of answers) and from textbook values
 * (Wilson, McNemar exact, Holm), not from assay's output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { repoRoot, tempDir } from './support/helpers.js';

interface Example {
  file: string;
  code: string;
  output?: string;
}

function examples(): Example[] {
  const page = readFileSync(path.join(repoRoot, 'docs', 'library.md'), 'utf8');
  const found: Example[] = [];
  for (const block of page.matchAll(/```(ts (\S+)|text)\n([\s\S]*?)```/g)) {
    if (block[2]) found.push({ file: block[2], code: block[3] });
    else found[found.length - 1].output = block[3];
  }
  return found;
}

const MARK = '\u0000example:';

describe('docs/library.md', () => {
  it('runs every example in order, each printing what the page shows', () => {
    const list = examples();
    expect(list.map((example) => example.file)).toEqual([
      'toy.ts',
      'runs.ts',
      'registry.ts',
      'scripted.ts',
      'read.ts',
      'stats.ts',
      'compare.ts',
      'gate.ts',
      'merge.ts',
      'errors.ts',
    ]);
    const folder = tempDir('assay-library-doc-');
    writeFileSync(path.join(folder, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(folder, 'node_modules'));
    symlinkSync(repoRoot, path.join(folder, 'node_modules', 'assay'));
    for (const example of list) writeFileSync(path.join(folder, example.file), example.code);
    const runnable = list.filter((example) => example.output !== undefined);
    writeFileSync(
      path.join(folder, 'run-all.ts'),
      runnable
        .map(
          (example) =>
            `process.stdout.write(${JSON.stringify(`${MARK}${example.file}\n`)});\nawait import('./${example.file}');\n`,
        )
        .join(''),
    );
    // tsx's loader in the one process (tsx's CLI would start a second node process to run the file).
    const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs');
    const result = spawnSync(process.execPath, ['--import', tsx, 'run-all.ts'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    const printed = Object.fromEntries(
      result.stdout
        .split(MARK)
        .slice(1)
        .map((part) => [part.slice(0, part.indexOf('\n')), part.slice(part.indexOf('\n') + 1)]),
    );
    expect(printed).toEqual(Object.fromEntries(runnable.map((example) => [example.file, example.output])));
  });

  it('lists every error code with its meaning, as ERROR_CODES has them', () => {
    const page = readFileSync(path.join(repoRoot, 'docs', 'library.md'), 'utf8');
    const table = page.slice(page.indexOf('### Error codes'));
    const rows = [...table.matchAll(/^\| `(\w+)` \| (.*) \|$/gm)].map((row) => [
      row[1],
      row[2].replaceAll('\\|', '|'),
    ]);
    expect(Object.fromEntries(rows)).toEqual(ERROR_CODES);
  });
});
