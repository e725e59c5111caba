/**
 * The child process that owns the llama.cpp engine. GgufBackend starts it with UV_THREADPOOL_SIZE=1
 * (node-llama-cpp's concurrent sequence scoring returns wrong values otherwise) and talks to it over
 * IPC. Calls run one at a time: they share the context's sequences. A `cancel` is handled as soon as
 * it arrives: a queued call is answered at once and skipped, a running one is aborted between steps.
 * A `close` releases the model and leaves the process ready for another `init` (a kept engine process,
 * engine-processes.ts); the process ends when its parent disconnects or goes away.
 */
import { AssayError } from '../../errors.js';
import { compareWindows, prepareComparison } from './distributions.js';
import { CancelledError, GgufEngine } from './engine.js';
import { promptLogprobs } from './prompt-logprobs.js';
import type { WorkerCall, WorkerReply } from './protocol.js';
import { scoreTokenWindows } from './token-windows.js';

let engine: GgufEngine | undefined;
let chain: Promise<void> = Promise.resolve();
/** Calls received and not yet answered, with the controller that aborts each. */
const open = new Map<number, { controller: AbortController; started: boolean }>();

function send(reply: WorkerReply): void {
  process.send?.(reply);
}

async function handle(call: WorkerCall, signal: AbortSignal): Promise<unknown> {
  if (call.method === 'init') {
    if (engine) throw new Error('engine already initialised');
    engine = await GgufEngine.load(call.params);
    return engine.info;
  }
  // assay kld's calls open their own two models; a close with nothing loaded has nothing to release.
  if (call.method === 'prepareComparison') return prepareComparison(call.params.files, call.params.text);
  if (call.method === 'compareWindows') return compareWindows(call.params.files, call.params.windows);
  if (call.method === 'close' && !engine) return null;
  if (!engine) throw new Error('engine not initialised');
  let done = 0;
  const progress = () => send({ id: call.id, kind: 'progress', done: ++done });
  switch (call.method) {
    case 'loglikelihood':
      return engine.loglikelihood(call.params, progress);
    case 'rolling':
      return engine.loglikelihoodRolling(call.params, progress);
    case 'generate':
      return engine.generate(call.params, progress, signal);
    case 'scoreTokenWindows':
      return scoreTokenWindows(engine, call.params, progress);
    case 'generateTokens':
      return engine.generateTokens(call.params, signal);
    case 'tokenize':
      return engine.tokenize(call.params.text, call.params.withBos, call.params.special);
    case 'detokenize':
      return call.params.special
        ? engine.detokenizeSpecial(call.params.tokens)
        : engine.detokenize(call.params.tokens);
    case 'promptLogprobs':
      return promptLogprobs(engine, call.params, signal);
    case 'close':
      await engine.close();
      engine = undefined;
      return null;
    case 'cancel':
      return null;
  }
}

function fail(id: number, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  const code = (failure as { code?: unknown }).code;
  send({
    id,
    kind: 'error',
    message: failure.message,
    stack: failure.stack,
    ...(typeof code === 'string' ? { code } : {}),
    ...(failure instanceof AssayError
      ? { assay: { code: failure.code, file: failure.location.file, exitCode: failure.exitCode } }
      : {}),
  });
}

function cancel(target: number): void {
  const call = open.get(target);
  if (!call) return;
  call.controller.abort();
  if (call.started) return;
  // Not started: answer now, so the caller is free at once; the chain skips it later.
  open.delete(target);
  fail(target, new CancelledError('cancelled before it started'));
}

process.on('message', (call: WorkerCall) => {
  if (call.method === 'cancel') {
    cancel(call.params.id);
    return;
  }
  const entry = { controller: new AbortController(), started: false };
  open.set(call.id, entry);
  chain = chain.then(async () => {
    if (!open.has(call.id)) return;
    entry.started = true;
    try {
      const result = await handle(call, entry.controller.signal);
      // After a close the process stays, with no model, for the next backend's init (engine-processes.ts).
      send({ id: call.id, kind: 'result', result });
    } catch (error) {
      fail(call.id, error);
    } finally {
      open.delete(call.id);
    }
  });
});
// The parent going away (crash, Ctrl-C) must not leave an orphaned engine holding memory.
process.on('disconnect', () => process.exit(0));
