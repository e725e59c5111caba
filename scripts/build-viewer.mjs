#!/usr/bin/env node
/**
 * `npm run build:viewer`: type-checks the viewer app and bundles it into dist/viewer with Vite, unless
 * dist/viewer is newer than everything it is built from. The app imports modules of src/ (the viewer
 * API's types, the results matrix, search), so "everything" is conservative: every file under viewer/,
 * every non-test source file under src/, and package-lock.json (Vite's version). `--force` rebuilds.
 * Vite has no incremental mode, and the bundle takes ~5 CPU s, which `npm test` paid on every run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'dist', 'viewer', 'index.html');

function newest(directory, keep) {
  let time = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) time = Math.max(time, newest(file, keep));
    else if (keep(entry.name)) time = Math.max(time, statSync(file).mtimeMs);
  }
  return time;
}

const inputs = Math.max(
  newest(path.join(root, 'viewer'), () => true),
  newest(path.join(root, 'src'), (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')),
  statSync(path.join(root, 'package-lock.json')).mtimeMs,
);
if (!process.argv.includes('--force') && existsSync(output) && statSync(output).mtimeMs > inputs) {
  console.log('viewer: dist/viewer is up to date');
} else {
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  for (const [command, args] of [
    [bin('tsc'), ['-p', 'viewer/tsconfig.json']],
    [bin('vite'), ['build', '--config', 'viewer/vite.config.ts']],
  ]) {
    const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
