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

/**
 * lm-eval's clients of hosted APIs and servers that assay has no client for, each with what works instead
 * (lm_eval/models/__init__.py at 4e7e0d47). Refused by name so that a user does not read a bare list of
 * assay's models and guess.
 */
const API_CLIENT_ANSWERS: Record<string, string> = {
  'anthropic-completions':
    "a client of Anthropic's API; assay has none. Anthropic documents an OpenAI-compatible chat endpoint: use `model` openai-chat-completions `modelArgs` model=MODEL,base_url=https://api.anthropic.com/v1/chat/completions with the key in OPENAI_API_KEY (generation tasks only: it returns no logprobs)",
  'anthropic-chat':
    "a client of Anthropic's API; assay has none. Anthropic documents an OpenAI-compatible chat endpoint: use `model` openai-chat-completions `modelArgs` model=MODEL,base_url=https://api.anthropic.com/v1/chat/completions with the key in OPENAI_API_KEY (generation tasks only: it returns no logprobs)",
  'anthropic-chat-completions':
    "a client of Anthropic's API; assay has none. Anthropic documents an OpenAI-compatible chat endpoint: use `model` openai-chat-completions `modelArgs` model=MODEL,base_url=https://api.anthropic.com/v1/chat/completions with the key in OPENAI_API_KEY (generation tasks only: it returns no logprobs)",
  'azure-openai-chat-completions':
    "a client of an Azure OpenAI deployment; assay has no Azure client. Use `model` openai-chat-completions (or local-chat-completions) `modelArgs` model=DEPLOYMENT,base_url=<your deployment's OpenAI-compatible /v1/chat/completions URL>",
  litellm:
    'a client of the LiteLLM library; assay runs no Python model code. Run a LiteLLM proxy and use `model` local-chat-completions `modelArgs` model=MODEL,base_url=http://HOST:4000/v1/chat/completions (or local-completions for its /v1/completions)',
  textsynth:
    "a client of TextSynth's API; assay has none. If your provider offers an OpenAI-compatible endpoint, use `model` local-completions `modelArgs` model=MODEL,base_url=<its /v1/completions URL>",
  watsonx_llm:
    'a client of IBM watsonx.ai; assay has none. If your deployment offers an OpenAI-compatible endpoint, use `model` local-chat-completions `modelArgs` model=MODEL,base_url=<its /v1/chat/completions URL>',
  'sglang-generate':
    "a client of a running SGLang server's /generate; use `model` sglang `modelArgs` base_url=http://HOST:PORT (a server already running) or pretrained=MODEL (assay starts one)",
  ggml: "a client of a llama.cpp server (`base_url=`); assay's `model` gguf loads a GGUF file in process (`modelArgs` model=FILE.gguf); for a running llama-server use `model` local-completions `modelArgs` base_url=http://HOST:PORT/v1/completions",
};

/**
 * The error for one of lm-eval's API clients assay lacks, or for lm-eval's `gguf` usage (a llama.cpp
 * server given by `base_url=`) under assay's in-process `gguf`; undefined otherwise.
 */
export function apiClientBackendError(name: string, args: Record<string, unknown>): AssayError | undefined {
  const answer = Object.hasOwn(API_CLIENT_ANSWERS, name)
    ? API_CLIENT_ANSWERS[name]
    : name === 'gguf' && args.base_url !== undefined
      ? API_CLIENT_ANSWERS.ggml
      : undefined;
  if (answer === undefined) return undefined;
  return new AssayError('unknown_model', `lm-eval's \`model\` ${name} is ${answer}`);
}
