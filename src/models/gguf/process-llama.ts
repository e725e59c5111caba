/**
 * The node-llama-cpp `Llama` of this process, one per set of options. node-llama-cpp loads its binding
 * once per process, but every `getLlama` call on Linux with a prebuilt binary first forks a child that
 * imports node-llama-cpp and loads the binary, to check that this machine can run it: 0.5-0.6 s and
 * about 0.7 CPU s per call, measured here (three calls in one process forked three children). Asking
 * here instead pays that once per process. llama.cpp's log reaches the first instance's logger only, so
 * every instance is given `llamaErrors`' logger (see llama-errors.ts). The instance lives as long as the
 * process: nothing that asks for it disposes of it.
 */
import { getLlama, type Llama, LlamaLogLevel } from 'node-llama-cpp';
import { llamaErrors } from './llama-errors.js';

export interface ProcessLlamaOptions {
  /** false (the default) for the CPU only; 'auto' lets node-llama-cpp pick a GPU. */
  gpu?: false | 'auto';
  maxThreads?: number;
}

const instances = new Map<string, Promise<Llama>>();

export function processLlama(options: ProcessLlamaOptions = {}): Promise<Llama> {
  const gpu = options.gpu ?? false;
  const key = JSON.stringify([gpu, options.maxThreads ?? null]);
  let instance = instances.get(key);
  if (!instance) {
    instance = getLlama({
      gpu,
      build: 'never',
      ...(options.maxThreads === undefined ? {} : { maxThreads: options.maxThreads }),
      logLevel: LlamaLogLevel.error,
      logger: llamaErrors.logger,
      progressLogs: false,
    });
    // A failed start is not kept: the next caller tries again and sees the reason itself.
    instance.catch(() => instances.delete(key));
    instances.set(key, instance);
  }
  return instance;
}
