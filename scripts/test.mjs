#!/usr/bin/env node
/**
 * `npm test` after the build: the type check of the tests (`tsc -b tsconfig.test.json`) and the suite
 * (`vitest run`, with any arguments given to npm test) at the same time. The type check is one
 * single-threaded process of 1-14 s (warm or clean); the suite keeps both cores busy for two minutes and
 * does not need its answer, so running it alongside costs the suite little and saves its whole length
 * in wall time. Both outputs are kept: vitest's as it runs, tsc's (errors only) once it ends. Either one
 * failing fails `npm test`, with the exit code of the first that failed.
 */
import { spawn } from 'node:child_process';
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

const typecheck = run(bin('tsc'), ['-b', 'tsconfig.test.json'], { stdio: ['ignore', 'pipe', 'pipe'] });
const suite = run(bin('vitest'), ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const [types, tests] = await Promise.all([typecheck, suite]);
if (types.code !== 0) {
  process.stderr.write(`\ntype check of the tests (tsc -b tsconfig.test.json) failed:\n${types.output}`);
} else {
  process.stdout.write('type check of the tests (tsc -b tsconfig.test.json): no errors\n');
}
process.exitCode = tests.code !== 0 ? tests.code : types.code;
