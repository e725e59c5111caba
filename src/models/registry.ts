import { AssayError, closestNames } from '../errors.js';
import type { ModelBackend } from './backend.js';

export type ModelName = 'dummy';

type Factory = (args: Record<string, unknown>) => Promise<ModelBackend>;

/** Backends load lazily so that `assay --help` never pays for an engine it does not use. */
const MODELS: Record<ModelName, Factory> = {
  dummy: async (args) => {
    const { DummyBackend } = await import('./dummy/dummy-backend.js');
    const seed = args.seed === undefined ? undefined : Number(args.seed);
    return new DummyBackend({ seed });
  },
};

export const MODEL_NAMES = Object.keys(MODELS) as ModelName[];

export async function createBackend(name: string, args: Record<string, unknown>): Promise<ModelBackend> {
  const factory = (MODELS as Record<string, Factory | undefined>)[name];
  if (!factory) {
    const close = closestNames(name, MODEL_NAMES);
    throw new AssayError(
      'unknown_model',
      `unknown model "${name}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; valid models: ${MODEL_NAMES.join(', ')}`,
    );
  }
  return factory(args);
}
