/**
 * The child process that owns the llama.cpp engine. GgufBackend starts it with UV_THREADPOOL_SIZE=1
 * (node-llama-cpp's concurrent sequence scoring returns wrong values otherwise) and talks to it over
 * IPC. Calls run one at a time: they share the context's sequences.
 */
import { GgufEngine } from './engine.js';
import { promptLogprobs } from './prompt-logprobs.js';
import type { WorkerCall, WorkerReply } from './protocol.js';
import { scoreTokenWindows } from './token-windows.js';

let engine: GgufEngine | undefined;
let chain: Promise<void> = Promise.resolve();

function send(reply: WorkerReply): void {
  process.send?.(reply);
}

async function handle(call: WorkerCall): Promise<unknown> {
  if (call.method === 'init') {
    engine = await GgufEngine.load(call.params);
    return engine.info;
  }
  if (!engine) throw new Error('engine not initialised');
  let done = 0;
  const progress = () => send({ id: call.id, kind: 'progress', done: ++done });
  switch (call.method) {
    case 'loglikelihood':
      return engine.loglikelihood(call.params, progress);
    case 'rolling':
      return engine.loglikelihoodRolling(call.params, progress);
    case 'generate':
      return engine.generate(call.params, progress);
    case 'scoreTokenWindows':
      return scoreTokenWindows(engine, call.params, progress);
    case 'tokenize':
      return engine.tokenize(call.params.text, call.params.withBos);
    case 'detokenize':
      return engine.detokenize(call.params);
    case 'promptLogprobs':
      return promptLogprobs(engine, call.params);
    case 'close':
      await engine.close();
      engine = undefined;
      return null;
  }
}

process.on('message', (call: WorkerCall) => {
  chain = chain.then(async () => {
    try {
      const result = await handle(call);
      send({ id: call.id, kind: 'result', result });
      if (call.method === 'close') process.disconnect();
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      const code = (failure as { code?: unknown }).code;
      send({
        id: call.id,
        kind: 'error',
        message: failure.message,
        stack: failure.stack,
        ...(typeof code === 'string' ? { code } : {}),
      });
    }
  });
});
// The parent going away (crash, Ctrl-C) must not leave an orphaned engine holding memory.
process.on('disconnect', () => process.exit(0));
