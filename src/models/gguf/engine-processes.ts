/**
 * The engine processes of this process: started here, and kept for the next GgufBackend once a backend
 * has closed its model cleanly. Starting one costs about 1.5 CPU s before any model is read: Node,
 * node-llama-cpp's module graph (0.5 s), and the child node-llama-cpp forks to test its prebuilt binary
 * before its first Llama of a process (0.5 s wall, 0.7 CPU s; it has no option to skip it). A kept
 * process has done all that, so a second model in the same script, or the next test file, loads at once.
 *
 * A kept process is idle: it has closed its model (llama.cpp's memory released) and holds only Node and
 * the llama.cpp binding. It does not keep this process alive (its handles are unref'd), it leaves
 * after IDLE_MS unused, and it exits when this process does (its IPC channel closes; engine-worker.ts).
 * At most IDLE_LIMIT are kept; one that dies while idle is dropped. A process whose model failed to load,
 * or whose close failed, is never kept: GgufBackend kills it. A kept process keeps the environment it was
 * started with (node-llama-cpp reads its variables once, at import).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { packagePath } from '../../util/package-root.js';

/** Two: a comparison of two scorers (or two models) holds two backends at once. */
const IDLE_LIMIT = 2;
const IDLE_MS = 60_000;

interface Idle {
  child: ChildProcess;
  timer: NodeJS.Timeout;
  onExit: () => void;
}

const idle: Idle[] = [];

/**
 * The worker entry: the compiled .js in dist, or the .ts source under tsx (tests, bench).
 * ASSAY_GGUF_WORKER names a compiled worker to use instead: the test suite points it at dist's when dist
 * is newer than every source file, since a worker under tsx costs about 1.3 s more CPU to start.
 */
function workerEntry(): { file: string; execArgv: string[] } {
  const override = process.env.ASSAY_GGUF_WORKER;
  if (override) return { file: override, execArgv: [] };
  // This module runs from src/ (tsx), from dist/ or from a chunk of the bundled CLI (dist/bundle/); the
  // worker is always tsc's dist/ file, or the source under tsx when this module is the source.
  const compiled = packagePath('dist', 'models', 'gguf', 'engine-worker.js');
  if (!import.meta.url.endsWith('.ts') && existsSync(compiled)) return { file: compiled, execArgv: [] };
  return { file: packagePath('src', 'models', 'gguf', 'engine-worker.ts'), execArgv: ['--import', 'tsx'] };
}

/** Handles that would keep this process alive while the engine process idles. */
function handles(child: ChildProcess): Array<{ ref(): unknown; unref(): unknown }> {
  const list: Array<{ ref(): unknown; unref(): unknown }> = [child];
  if (child.channel) list.push(child.channel);
  if (child.stderr && 'unref' in child.stderr) list.push(child.stderr as never);
  return list;
}

/** An engine process with no model loaded: a kept one if there is one, else a new one. */
export function takeEngineProcess(): ChildProcess {
  for (let kept = idle.pop(); kept; kept = idle.pop()) {
    clearTimeout(kept.timer);
    kept.child.off('exit', kept.onExit);
    if (kept.child.exitCode !== null || kept.child.signalCode !== null || !kept.child.connected) continue;
    for (const handle of handles(kept.child)) handle.ref();
    return kept.child;
  }
  const entry = workerEntry();
  return fork(entry.file, [], {
    // Set before start-up: libuv sizes its pool once, and setting it later in-process does not help.
    env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
    execArgv: entry.execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/**
 * Takes back an engine process whose model was closed cleanly (its close call answered). Returns
 * whether it was kept; the caller ends one that was not.
 */
export function keepEngineProcess(child: ChildProcess): boolean {
  if (child.exitCode !== null || child.signalCode !== null || !child.connected) return false;
  if (idle.length >= IDLE_LIMIT) return false;
  const drop = () => {
    const at = idle.indexOf(entry);
    if (at >= 0) idle.splice(at, 1);
    clearTimeout(entry.timer);
    child.off('exit', entry.onExit);
  };
  const entry: Idle = {
    child,
    timer: setTimeout(() => {
      drop();
      if (child.connected) child.disconnect();
    }, IDLE_MS),
    onExit: drop,
  };
  entry.timer.unref();
  child.once('exit', entry.onExit);
  for (const handle of handles(child)) handle.unref();
  idle.push(entry);
  return true;
}

/** How many engine processes are kept idle now (for tests). */
export function idleEngineProcesses(): number {
  return idle.length;
}
