import { AssayError, closestNames } from '../errors.js';
import type { ModelBackend } from './backend.js';
import { inProcessBackendError } from './lm-eval-backends.js';
import { checkModelArgKeys } from './model-arg-keys.js';

export type ModelName = 'dummy' | 'gguf' | 'demo' | 'vllm' | 'sglang';

/** What a run gives every backend besides its model args. */
export interface BackendContext {
  /** `--use_cache PATH`: backends that make requests keep a response cache there. */
  cachePath?: string;
  /** The run's output folder, when it writes one: managed servers keep their log there. */
  outputDirectory?: string;
  /** Progress of slow starts (a managed server loading its model). */
  listener?: import('../events.js').RunListener;
  warn?: (message: string) => void;
}

type Factory = (args: Record<string, unknown>, context: BackendContext) => Promise<ModelBackend>;

const http =
  (name: import('./http/create.js').HttpModelName): Factory =>
  async (args, context) => {
    const { openHttpBackend } = await import('./http/create.js');
    return openHttpBackend(name, args, context.cachePath);
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
      import('./caching-backend.js'),
      import('../cache/sqlite-response-cache.js'),
    ]);
    return withResponseCache(backend, new SqliteResponseCache(context.cachePath), args);
  };

/** What each backend checks of its args before anything is loaded or sent: names, types, required ones. */
type Check = (args: Record<string, unknown>) => Promise<void>;

const httpCheck =
  (name: import('./http/create.js').HttpModelName): Check =>
  async (args) => {
    const { validateHttpModelArgs } = await import('./http/create.js');
    validateHttpModelArgs(name, args);
  };

const ggufCheck: Check = async (args) => {
  const { parseGgufModelArgs } = await import('./gguf/gguf-backend.js');
  parseGgufModelArgs(args);
};

/** A server assay starts for the run and stops after it (or, with base_url=, one already running). */
function managed(kind: 'vllm' | 'sglang'): { check: Check; create: Factory } {
  return {
    check: async (args) => {
      const { checkManagedArgs } = await import('./managed-server/managed-backend.js');
      checkManagedArgs(kind, args);
    },
    create: async (args, context) => {
      const { createManagedBackend } = await import('./managed-server/managed-backend.js');
      return createManagedBackend(kind, args, context);
    },
  };
}

/** Backends load lazily so that `assay --help` never pays for an engine it does not use. */
const MODELS: Record<
  ModelName | import('./http/create.js').HttpModelName,
  { check: Check; create: Factory }
> = {
  'local-completions': { check: httpCheck('local-completions'), create: http('local-completions') },
  'openai-completions': { check: httpCheck('openai-completions'), create: http('openai-completions') },
  'local-chat-completions': {
    check: httpCheck('local-chat-completions'),
    create: http('local-chat-completions'),
  },
  'openai-chat-completions': {
    check: httpCheck('openai-chat-completions'),
    create: http('openai-chat-completions'),
  },
  vllm: managed('vllm'),
  sglang: managed('sglang'),
  gguf: {
    check: ggufCheck,
    create: inProcess(async (args) => {
      const { createGgufBackend } = await import('./gguf/create.js');
      return createGgufBackend(args);
    }),
  },
  /** The built-in demo GGUF (a bigram model built and cached on first use): `--model gguf` without `model=`. */
  demo: {
    check: async (args) => {
      if (args.model !== undefined) {
        throw new AssayError(
          'bad_model_args',
          '`modelArgs` for demo: the built-in demo model takes no model=; for a GGUF file use `model` gguf `modelArgs` model=FILE',
        );
      }
      await ggufCheck(args);
    },
    create: inProcess(async (args) => {
      const { createGgufBackend } = await import('./gguf/create.js');
      return createGgufBackend({ ...args, model: undefined });
    }),
  },
  dummy: {
    check: async (args) => checkModelArgKeys('dummy', args, ['seed']),
    create: inProcess(async (args) => {
      const { DummyBackend } = await import('./dummy/dummy-backend.js');
      const seed = args.seed === undefined ? undefined : Number(args.seed);
      return new DummyBackend({ seed });
    }),
  },
};

export const MODEL_NAMES = Object.keys(MODELS) as ModelName[];

function entryOf(name: string, args: Record<string, unknown>): { check: Check; create: Factory } {
  const entry = (MODELS as Record<string, { check: Check; create: Factory } | undefined>)[name];
  if (!entry) {
    const inProcess = inProcessBackendError(name, args);
    if (inProcess) throw inProcess;
    const close = closestNames(name, MODEL_NAMES);
    throw new AssayError(
      'unknown_model',
      `unknown model "${name}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; valid models: ${MODEL_NAMES.join(', ')}`,
    );
  }
  return entry;
}

/** Checks a backend's name and model args without creating it (no model loaded, no request sent). */
export async function checkModelArgs(name: string, args: Record<string, unknown>): Promise<void> {
  await entryOf(name, args).check(args);
}

export async function createBackend(
  name: string,
  args: Record<string, unknown>,
  context: BackendContext = {},
): Promise<ModelBackend> {
  const entry = entryOf(name, args);
  await entry.check(args);
  return entry.create(args, context);
}
