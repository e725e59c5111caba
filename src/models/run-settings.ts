/**
 * Run-wide model settings: lm-eval's `simple_evaluate(device=, max_batch_size=)` and `--trust_remote_code`,
 * which lm-eval hands every model's constructor beside its model args (`create_from_arg_obj(args,
 * {batch_size, max_batch_size, device})`, `model_args.trust_remote_code = True`). lm-eval's API backends
 * swallow the ones they do not use; here each backend says what a setting means to it, and a setting
 * that would mean nothing is refused with the reason rather than ignored.
 */
import { AssayError } from '../errors.js';

export interface RunModelSettings {
  /** lm-eval's device (`cuda`, `cuda:0`, `cpu`, `mps`): gguf's `gpu=`, SGLang's `--device`. */
  device?: string;
  /** lm-eval's max_batch_size: the sequences a managed server batches (vLLM --max-num-seqs, SGLang --max-running-requests). */
  maxBatchSize?: number;
  /** lm-eval's trust_remote_code: given to the servers assay starts; assay itself runs no code from the Hub. */
  trustRemoteCode?: boolean;
}

const GGUF = new Set(['gguf', 'demo']);
const MANAGED = new Set(['vllm', 'sglang']);

function refuse(field: string, message: string): AssayError {
  return new AssayError('not_supported', message, { location: { field } });
}

/** A value the model args already hold must agree with the run-wide setting. */
function merged(
  args: Record<string, unknown>,
  key: string,
  value: unknown,
  field: string,
): Record<string, unknown> {
  if (args[key] !== undefined && args[key] !== value && String(args[key]) !== String(value)) {
    throw new AssayError(
      'bad_option',
      `\`${field}\` says ${key}=${String(value)} but \`modelArgs\` says ${key}=${String(args[key])}; give one`,
      { location: { field } },
    );
  }
  return { ...args, [key]: value };
}

/** gguf's gpu= for a device: llama.cpp picks the GPU itself, so only "a GPU" or "the CPU" can be asked. */
function ggufGpu(device: string): 'auto' | false {
  const normalized = device.trim().toLowerCase();
  if (normalized === 'cpu') return false;
  const match = /^(cuda|gpu|mps|metal|vulkan|auto)(?::(\d+))?$/.exec(normalized);
  if (!match) {
    throw new AssayError(
      'bad_option',
      `\`device\` ${device}: the gguf backend takes cpu, or a GPU (cuda, cuda:0, mps, metal, vulkan, auto)`,
      { location: { field: 'device' } },
    );
  }
  if (match[2] !== undefined && match[2] !== '0') {
    throw refuse(
      'device',
      `\`device\` ${device}: llama.cpp uses the first GPU it sees; choose it with CUDA_VISIBLE_DEVICES=${match[2]} and \`device\` cuda`,
    );
  }
  return 'auto';
}

/** The model args a backend is created with: its own, with the run-wide settings it takes merged in. */
export function withRunSettings(
  model: string,
  modelArgs: Record<string, unknown>,
  settings: RunModelSettings,
): Record<string, unknown> {
  if (!modelArgs || typeof modelArgs !== 'object' || Array.isArray(modelArgs)) {
    throw new AssayError('bad_option', '`modelArgs` must be an object of model args', {
      location: { field: 'modelArgs' },
    });
  }
  let args = modelArgs;
  if (settings.device !== undefined) {
    if (GGUF.has(model)) args = merged(args, 'gpu', ggufGpu(settings.device), 'device');
    else if (model === 'sglang') args = merged(args, 'device', settings.device, 'device');
    else if (model === 'vllm') {
      throw refuse(
        'device',
        `\`device\` does not apply to vLLM (lm-eval ignores it too): the server assay starts uses the GPUs CUDA_VISIBLE_DEVICES shows it; set that before running assay`,
      );
    } else {
      throw refuse(
        'device',
        `\`device\` does not apply to model ${model}: ${model === 'dummy' ? 'it runs no model' : 'the server it talks to chooses its own devices'}; it applies to gguf (gpu=) and sglang`,
      );
    }
  }
  if (settings.maxBatchSize !== undefined) {
    if (!Number.isInteger(settings.maxBatchSize) || settings.maxBatchSize < 1) {
      throw new AssayError(
        'bad_option',
        `\`maxBatchSize\` must be an integer of at least 1, got ${settings.maxBatchSize}`,
        { location: { field: 'maxBatchSize' } },
      );
    }
    if (!MANAGED.has(model)) {
      throw refuse(
        'maxBatchSize',
        `\`maxBatchSize\` bounds lm-eval's batch_size=auto search, which assay does not run; model ${model} batches as its \`modelArgs\` say (batch_size=N${GGUF.has(model) || model === 'dummy' ? '' : ', num_concurrent=N'}); it applies to vllm and sglang (the sequences the server batches)`,
      );
    }
    args = merged(args, 'max_batch_size', settings.maxBatchSize, 'maxBatchSize');
  }
  // Datasets come from the Hub's parquet conversion and tokenizers from tokenizer.json: neither runs code,
  // so only a server assay starts has remote code to trust.
  if (settings.trustRemoteCode === true && MANAGED.has(model))
    args = merged(args, 'trust_remote_code', true, 'trustRemoteCode');
  return args;
}

/** After the backend loaded: a GPU asked for but not found is said, since llama.cpp falls back to the CPU. */
export function deviceWarning(
  model: string,
  device: string | undefined,
  info: Record<string, unknown>,
): string | undefined {
  if (device === undefined || !GGUF.has(model) || ggufGpu(device) === false) return undefined;
  return info.gpu === false
    ? `\`device\` ${device}: llama.cpp found no usable GPU, so the model runs on the CPU (manifest: gpu false)`
    : undefined;
}
