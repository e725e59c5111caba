#!/usr/bin/env node
/**
 * `npm test` after the build: the type check of the tests (`tsc -b tsconfig.test.json`) and the suite
 * (`vitest run`, with any arguments given to npm test) at the same time. The type check is one
 * single-threaded process of 1-14 s (warm or clean); the suite keeps both cores busy for two minutes and
 * does not need its answer, so running it alongside costs the suite little and saves its whole length
 * in wall time. Both outputs are kept: vitest's as it runs, tsc's (errors only) once it ends. Either one
 * failing fails `npm test`, with the exit code of the first that failed.
 *
 * The suite's temporary folders (every test's, the CLI's and Python's it starts) go in one folder of this
 * run (TMPDIR, which os.tmpdir() and Python's tempfile read), removed when the run ends: files that do not
 * remove their own, or that a timeout kills first, no longer pile up in the system's folder (a machine
 * that ran the suite often held 28,000 of them).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, ...options });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const temporary = mkdtempSync(path.join(os.tmpdir(), 'assay-test-run-'));
const typecheck = run(bin('tsc'), ['-b', 'tsconfig.test.json'], { stdio: ['ignore', 'pipe', 'pipe'] });
const suite = run(bin('vitest'), ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: temporary },
});
const [types, tests] = await Promise.all([typecheck, suite]);
rmSync(temporary, { recursive: true, force: true });
if (types.code !== 0) {
  process.stderr.write(`\ntype check of the tests (tsc -b tsconfig.test.json) failed:\n${types.output}`);
} else {
  process.stdout.write('type check of the tests (tsc -b tsconfig.test.json): no errors\n');
}
process.exitCode = tests.code !== 0 ? tests.code : types.code;
