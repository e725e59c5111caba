import { AssayError } from '../../errors.js';
import { templateVariables } from '../chat-template/template-variables.js';
import { GgufBackend, parseGgufModelArgs } from './gguf-backend.js';

/**
 * `--model gguf --model_args model=…` from raw model args. Without `model=` it is the built-in demo
 * model, built and cached on first use.
 */
export async function createGgufBackend(raw: Record<string, unknown>): Promise<GgufBackend> {
  const args = parseGgufModelArgs(raw);
  let modelPath = args.model;
  if (modelPath === undefined) {
    const { ensureDemoModel } = await import('./demo-model.js');
    modelPath = await ensureDemoModel();
  }
  if (modelPath === '') throw new AssayError('bad_model_args', '`modelArgs` for gguf: model= is empty');
  return GgufBackend.create(
    {
      modelPath,
      nCtx: args.n_ctx,
      threads: args.threads,
      gpu: args.gpu,
      sequences: args.batch_size,
      flashAttention: args.flash_attention,
      kvCacheType: args.kv_cache_type,
      scorer: args.scorer,
    },
    { variables: templateVariables(args, 'hf') },
  );
}
