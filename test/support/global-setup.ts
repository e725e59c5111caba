/**
 * vitest globalSetup, run once per `vitest run` before any test file. A GGUF backend runs llama.cpp in a
 * worker process; from the TypeScript sources that worker starts under tsx, which costs about 1.3 s more
 * CPU per start than the compiled worker (tsx's loader hooks see every module node-llama-cpp imports), and
 * the suite starts some twenty of them. When dist/ was built after the last change to any source file
 * (as `npm test` does: build, typecheck, then vitest), the tests use dist's compiled worker instead; the
 * worker speaks the same protocol because it is built from the same sources. Otherwise nothing changes.
 * "Built after" reads the build's own record, dist/tsconfig.build.tsbuildinfo, which `tsc -b` rewrites on
 * every build that saw a change: the worker's own file keeps its old time when its output did not change.
 *
 * The fake `vllm serve` / sglang (test/fakes/inference-server.ts, which the managed-server and
 * cluster tests start about a dozen times) is likewise compiled here, with vite's esbuild, from the
 * sources as they are now, into a temporary folder that the teardown removes; ASSAY_TEST_FAKE_SERVER
 * names it, and inference-server-bin.ts runs it with plain node instead of under tsx (about 0.2 CPU s less per
 * start).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { transformWithEsbuild } from 'vite';
import { repoRoot } from './helpers.js';

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    // Test files are not part of the build (tsconfig.build.json excludes them): editing one leaves dist/ current.
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

function pickCompiledEngineWorker(): void {
  if (process.env.ASSAY_GGUF_WORKER) return;
  const worker = path.join(repoRoot, 'dist', 'models', 'gguf', 'engine-worker.js');
  const buildInfo = path.join(repoRoot, 'dist', 'tsconfig.build.tsbuildinfo');
  if (!existsSync(worker) || !existsSync(buildInfo)) return;
  if (statSync(buildInfo).mtimeMs >= newestSource(path.join(repoRoot, 'src'))) {
    process.env.ASSAY_GGUF_WORKER = worker;
  }
}

/** The fake inference server and the one module it imports, as ES modules in a folder of their own. */
async function compileFakeServer(): Promise<string> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'assay-fake-server-'));
  writeFileSync(path.join(folder, 'package.json'), '{"type":"module"}\n');
  for (const name of ['inference-server', 'openai-server']) {
    const source = path.join(repoRoot, 'test', 'fakes', `${name}.ts`);
    const { code } = await transformWithEsbuild(readFileSync(source, 'utf8'), source, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
    });
    writeFileSync(path.join(folder, `${name}.js`), code);
  }
  return folder;
}

export default async function setup(): Promise<() => void> {
  pickCompiledEngineWorker();
  if (process.env.ASSAY_TEST_FAKE_SERVER) return () => {};
  const folder = await compileFakeServer();
  process.env.ASSAY_TEST_FAKE_SERVER = path.join(folder, 'inference-server.js');
  return () => {
    delete process.env.ASSAY_TEST_FAKE_SERVER;
    rmSync(folder, { recursive: true, force: true });
  };
}
