import { AssayError } from '../errors.js';

/**
 * lm-eval's backends that run the model inside its own Python process (lm_eval/models/__init__.py's
 * MODEL_MAPPING: transformers, optimum, NeMo, Megatron, TensorRT-LLM, …). assay runs no PyTorch, so each
 * of these names gets one line naming what to run instead, with the user's own model in it.
 */
export const IN_PROCESS_LM_EVAL_BACKENDS = [
  'hf',
  'hf-auto',
  'huggingface',
  'hf-multimodal',
  'hf-audiolm-qwen',
  'hf-mistral3',
  'steered',
  'mamba_ssm',
  'megatron_lm',
  'nemo_lm',
  'neuronx',
  'neuron',
  'openvino',
  'ipex',
  'habana',
  'onnxruntime-genai',
  'trtllm',
  'winml',
  'vllm-vlm',
] as const;

/** Model args of lm-eval's HF backend that `--model vllm` takes under the same name. */
const CARRIED = ['revision', 'dtype', 'trust_remote_code', 'max_length'];

function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** The error for `--model hf` and its kind, or undefined for any other name. */
export function inProcessBackendError(name: string, args: Record<string, unknown>): AssayError | undefined {
  if (!(IN_PROCESS_LM_EVAL_BACKENDS as readonly string[]).includes(name)) return undefined;
  const model = typeof args.pretrained === 'string' ? args.pretrained : 'MODEL';
  const carried = CARRIED.filter((key) => args[key] !== undefined).map(
    (key) => `${key}=${String(args[key])}`,
  );
  const vllm = shellWord([`pretrained=${model}`, ...carried].join(','));
  const local = shellWord(`model=${model},base_url=http://127.0.0.1:8000/v1/completions`);
  return new AssayError(
    'unknown_model',
    `\`model\` ${name} is lm-eval's in-process ${name.startsWith('hf') || name === 'huggingface' ? 'Hugging Face transformers' : name} backend, which assay does not have (it runs no PyTorch); instead use \`model\` vllm \`modelArgs\` ${vllm} (assay starts a vLLM server for the run and stops it), \`model\` local-completions \`modelArgs\` ${local} (any OpenAI-compatible server you run), or \`model\` gguf \`modelArgs\` model=FILE.gguf (llama.cpp in process)`,
  );
}
