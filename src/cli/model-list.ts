/** What `assay run --help` says about each backend, and the examples it shows. */

/** One line per built-in backend, in the order help lists them. */
export const MODEL_HELP: Record<string, string> = {
  demo: 'the built-in demo GGUF (a small bigram model, built on first use): try assay without a model',
  dummy: 'random answers, no model: for checking tasks and pipelines',
  gguf: 'a GGUF file run by llama.cpp in process (model=FILE.gguf[,n_ctx=…,gpu=auto])',
  vllm: 'a vLLM server assay starts for the run and stops (pretrained=HUB_ID[,tensor_parallel_size=…]), or base_url= of one running',
  sglang: 'the same with SGLang (python -m sglang.launch_server)',
  'local-completions': 'any OpenAI-compatible /v1/completions server (model=NAME,base_url=URL)',
  'local-chat-completions': 'its /v1/chat/completions (generation and --mc_mode generate only)',
  'openai-completions': "OpenAI's completions API (OPENAI_API_KEY)",
  'openai-chat-completions': "OpenAI's chat completions API (OPENAI_API_KEY)",
};

export const RUN_EXAMPLES = [
  ['try it, no model needed', 'assay run --model demo --tasks examples/tasks/arithmetic.jsonl --limit 10'],
  [
    'a local GGUF, every sample logged',
    'assay run --model gguf --model_args model=model.gguf --tasks hellaswag --output_path out/ --log_samples',
  ],
  [
    'a vLLM server assay starts and stops',
    'assay run --model vllm --model_args pretrained=meta-llama/Llama-3.1-8B-Instruct,tensor_parallel_size=2 --tasks mmlu --apply_chat_template --output_path out/',
  ],
] as const;

/** The text after `assay run --help`'s flags: every model in `names`, then the examples. */
export function runHelpText(names: readonly string[]): string {
  const ordered = [
    ...Object.keys(MODEL_HELP).filter((name) => names.includes(name)),
    ...names.filter((name) => !(name in MODEL_HELP)),
  ];
  const width = Math.max(...ordered.map((name) => name.length));
  const models = ordered.map(
    (name) => `  ${name.padEnd(width)}  ${MODEL_HELP[name] ?? 'a registered backend'}`,
  );
  const examples = RUN_EXAMPLES.flatMap(([what, command]) => [`  # ${what}`, `  ${command}`]);
  return `\nModels (--model):\n${models.join('\n')}\n  lm-eval's in-process backends (hf, openvino, …) are refused with the command to run instead.\n\nExamples:\n${examples.join('\n')}\n`;
}
