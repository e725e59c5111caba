import { AssayError, closestNames } from '../errors.js';
import type { AnyVersionBackend, ModelBackend } from './backend.js';
import { apiClientBackendError, inProcessBackendError } from './lm-eval-backends.js';

/**
 * Backends by name: the built-in ones, an exhaustive record over their names, and those a program
 * registers (`registerBackend`). `evaluate({ model })` and `assay run --model` look names up here; an
 * unknown name lists the valid ones, and lm-eval's in-process backends (`hf`, …) name what to run instead.
 */
export type BuiltInModelName =
  | 'dummy'
  | 'gguf'
  | 'demo'
  | 'vllm'
  | 'sglang'
  | import('./http/create.js').HttpModelName;

/** What a run gives every backend besides its model args. */
export interface BackendContext {
  /**
   * `useCache` (`--use_cache PATH`), for a backend registered with `responseCache: 'inside'`; the others
   * get the cache as a wrapper around the whole backend and never see the path.
   */
  cachePath?: string;
  /** The run's output folder, when it writes one: managed servers keep their log there. */
  outputDirectory?: string;
  /** Progress of slow starts (a managed server loading its model). */
  listener?: import('../events.js').RunListener;
  warn?: (message: string) => void;
}

export interface BackendDefinition {
  /**
   * Checks the model args before anything is loaded or sent (names, types, required ones) and throws an
   * AssayError naming the bad one. A run calls it before it loads tasks.
   */
  checkArgs?(args: Record<string, unknown>): void | Promise<void>;
  /**
   * Builds the backend; it must implement backend spec v2, or v1 (checked when it is created; a v1
   * backend is adapted to v2).
   */
  create(
    args: Record<string, unknown>,
    context: BackendContext,
  ): AnyVersionBackend | Promise<AnyVersionBackend>;
  /**
   * How `useCache` applies: `wrap` (the default) puts the response cache in front of the whole backend, as
   * lm-eval's CachingLM does; `inside` hands the path to `create` in `context.cachePath`, for a backend
   * that stores each response as it arrives (the HTTP backends).
   */
  responseCache?: 'wrap' | 'inside';
}

const http = (name: import('./http/create.js').HttpModelName): BackendDefinition => ({
  checkArgs: async (args) => {
    const { validateHttpModelArgs } = await import('./http/create.js');
    validateHttpModelArgs(name, args);
  },
  create: async (args, context) => {
    const { openHttpBackend } = await import('./http/create.js');
    return openHttpBackend(name, args, context.cachePath);
  },
  responseCache: 'inside',
});

const ggufCheck = async (args: Record<string, unknown>): Promise<void> => {
  const { parseGgufModelArgs } = await import('./gguf/gguf-backend.js');
  parseGgufModelArgs(args);
};

/** A server assay starts for the run and stops after it (or, with base_url=, one already running). */
const managed = (kind: 'vllm' | 'sglang'): BackendDefinition => ({
  checkArgs: async (args) => {
    const { checkManagedArgs } = await import('./managed-server/managed-backend.js');
    await checkManagedArgs(kind, args);
  },
  create: async (args, context) => {
    const { createManagedBackend } = await import('./managed-server/managed-backend.js');
    return createManagedBackend(kind, args, context);
  },
  responseCache: 'inside',
});

/** Backends load lazily so that `assay --help` never pays for an engine it does not use. */
const BUILT_IN: Record<BuiltInModelName, BackendDefinition> = {
  'local-completions': http('local-completions'),
  'openai-completions': http('openai-completions'),
  'local-chat-completions': http('local-chat-completions'),
  'openai-chat-completions': http('openai-chat-completions'),
  vllm: managed('vllm'),
  sglang: managed('sglang'),
  gguf: {
    checkArgs: ggufCheck,
    create: async (args) => {
      const { createGgufBackend } = await import('./gguf/create.js');
      return createGgufBackend(args);
    },
  },
  /** The built-in demo GGUF (a bigram model built and cached on first use): `--model gguf` without `model=`. */
  demo: {
    checkArgs: async (args) => {
      if (args.model !== undefined) {
        throw new AssayError(
          'bad_model_args',
          '`modelArgs` for demo: the built-in demo model takes no model=; for a GGUF file use `model` gguf `modelArgs` model=FILE',
        );
      }
      await ggufCheck(args);
    },
    create: async (args) => {
      const { createGgufBackend } = await import('./gguf/create.js');
      return createGgufBackend({ ...args, model: undefined });
    },
  },
  dummy: {
    checkArgs: async (args) => {
      const { parseDummyModelArgs } = await import('./dummy/dummy-backend.js');
      parseDummyModelArgs(args);
    },
    create: async (args) => {
      const { DummyBackend, parseDummyModelArgs } = await import('./dummy/dummy-backend.js');
      return new DummyBackend(parseDummyModelArgs(args));
    },
  },
};

const registered = new Map<string, BackendDefinition>();

function builtIn(name: string): BackendDefinition | undefined {
  return Object.hasOwn(BUILT_IN, name) ? BUILT_IN[name as BuiltInModelName] : undefined;
}

/**
 * Registers a backend under a name, for `evaluate({ model: name })` and, in the same process, the CLI's
 * `--model name`. A built-in name or one already registered is refused (unregister it first).
 */
export function registerBackend(name: string, definition: BackendDefinition): void {
  if (!/^[A-Za-z0-9][\w.:/-]*$/.test(name)) {
    throw new AssayError(
      'bad_option',
      `registerBackend: ${JSON.stringify(name)} is not a backend name (letters, digits and _ . : / -, starting with a letter or digit)`,
    );
  }
  if (builtIn(name)) {
    throw new AssayError('bad_option', `registerBackend: "${name}" is a built-in backend`);
  }
  if (registered.has(name)) {
    throw new AssayError(
      'bad_option',
      `registerBackend: "${name}" is already registered (unregisterBackend("${name}") first to replace it)`,
    );
  }
  if (typeof definition?.create !== 'function') {
    throw new AssayError('bad_option', `registerBackend: "${name}" has no create function`);
  }
  if (definition.responseCache !== undefined && !['wrap', 'inside'].includes(definition.responseCache)) {
    throw new AssayError(
      'bad_option',
      `registerBackend: "${name}": responseCache is ${JSON.stringify(definition.responseCache)}, not "wrap" or "inside"`,
    );
  }
  registered.set(name, definition);
}

/** Removes a registered backend; true when there was one. Built-in backends stay. */
export function unregisterBackend(name: string): boolean {
  return registered.delete(name);
}

/** Every name a run accepts: the built-in backends, then the registered ones in registration order. */
export function backendNames(): string[] {
  return [...Object.keys(BUILT_IN), ...registered.keys()];
}

function definitionOf(name: string, args: Record<string, unknown>): BackendDefinition {
  const definition = registered.get(name) ?? builtIn(name);
  if (definition && !(name === 'gguf' && args.base_url !== undefined)) return definition;
  const apiClient = apiClientBackendError(name, args);
  if (apiClient) throw apiClient;
  if (definition) return definition;
  const inProcess = inProcessBackendError(name, args);
  if (inProcess) throw inProcess;
  const names = backendNames();
  const close = closestNames(name, names);
  throw new AssayError(
    'unknown_model',
    `unknown model "${name}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; valid models: ${names.join(', ')}`,
  );
}

/** Checks a backend's name and model args without creating it (no model loaded, no request sent). */
export async function checkModelArgs(name: string, args: Record<string, unknown>): Promise<void> {
  await definitionOf(name, args).checkArgs?.(args);
}

/**
 * Creates a backend by name, checks that it implements a backend spec this assay accepts (adapting a v1
 * backend to v2), and puts the response cache in front of it when `context.cachePath` is set (unless the
 * backend keeps the cache inside).
 */
export async function createBackend(
  name: string,
  args: Record<string, unknown>,
  context: BackendContext = {},
): Promise<ModelBackend> {
  const definition = definitionOf(name, args);
  await definition.checkArgs?.(args);
  const inside = definition.responseCache === 'inside';
  const backend: unknown = await definition.create(
    args,
    inside ? context : { ...context, cachePath: undefined },
  );
  // The spec's checks load with the first backend: the help text and the listings name backends only.
  const spec: typeof import('./backend.js') = await import('./backend.js');
  try {
    spec.checkBackendSpec(backend, name);
  } catch (error) {
    try {
      await (backend as Partial<ModelBackend> | null)?.close?.();
    } catch {
      // The spec error is the one to report.
    }
    throw error;
  }
  const current = spec.toCurrentSpec(backend);
  if (inside || !context.cachePath) return current;
  const [{ withResponseCache }, { SqliteResponseCache }] = await Promise.all([
    import('./caching-backend.js'),
    import('../cache/sqlite-response-cache.js'),
  ]);
  return withResponseCache(current, new SqliteResponseCache(context.cachePath), args);
}
