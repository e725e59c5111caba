import { AssayError, closestNames } from '../errors.js';
import type { ModelBackend } from './backend.js';

export type ModelName = 'dummy' | 'gguf' | 'demo';

/** What a run gives every backend besides its model args. */
export interface BackendContext {
  /** `--use_cache PATH`: backends that make requests keep a response cache there. */
  cachePath?: string;
}

type Factory = (args: Record<string, unknown>, context: BackendContext) => Promise<ModelBackend>;

const http =
  (name: import('./http/create.js').HttpModelName): Factory =>
  async (args, context) => {
    const { createHttpBackend } = await import('./http/create.js');
    return createHttpBackend(name, args, context.cachePath);
  };

/**
 * In-process backends get `--use_cache` as a wrapper around the whole backend (lm-eval's CachingLM);
 * served backends keep the cache inside their HTTP client.
 */
const inProcess =
  (create: (args: Record<string, unknown>) => Promise<ModelBackend>): Factory =>
  async (args, context) => {
    const backend = await create(args);
    if (!context.cachePath) return backend;
    const [{ withResponseCache }, { SqliteResponseCache }] = await Promise.all([
      import('../cache/caching-backend.js'),
      import('../cache/sqlite-response-cache.js'),
    ]);
    return withResponseCache(backend, new SqliteResponseCache(context.cachePath), args);
  };

/** Backends load lazily so that `assay --help` never pays for an engine it does not use. */
const MODELS: Record<ModelName | import('./http/create.js').HttpModelName, Factory> = {
  'local-completions': http('local-completions'),
  'openai-completions': http('openai-completions'),
  'local-chat-completions': http('local-chat-completions'),
  'openai-chat-completions': http('openai-chat-completions'),
  gguf: inProcess(async (args) => {
    const { createGgufBackend } = await import('./gguf/create.js');
    return createGgufBackend(args);
  }),
  /** The built-in demo GGUF (a bigram model built and cached on first use): `--model gguf` without `model=`. */
  demo: inProcess(async (args) => {
    const { createGgufBackend } = await import('./gguf/create.js');
    return createGgufBackend({ ...args, model: undefined });
  }),
  dummy: inProcess(async (args) => {
    const { DummyBackend } = await import('./dummy/dummy-backend.js');
    const seed = args.seed === undefined ? undefined : Number(args.seed);
    return new DummyBackend({ seed });
  }),
};

export const MODEL_NAMES = Object.keys(MODELS) as ModelName[];

export async function createBackend(
  name: string,
  args: Record<string, unknown>,
  context: BackendContext = {},
): Promise<ModelBackend> {
  const factory = (MODELS as Record<string, Factory | undefined>)[name];
  if (!factory) {
    const close = closestNames(name, MODEL_NAMES);
    throw new AssayError(
      'unknown_model',
      `unknown model "${name}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; valid models: ${MODEL_NAMES.join(', ')}`,
    );
  }
  return factory(args, context);
}
