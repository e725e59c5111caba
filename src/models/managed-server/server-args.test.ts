import { describe, expect, it } from 'vitest';
import { parseManagedServerArgs } from './server-args.js';

describe('lm-eval model args → server flags', () => {
  it('passes unknown names through as --kebab-case, JSON for objects, --no- for vLLM false', () => {
    const parsed = parseManagedServerArgs('vllm', {
      pretrained: 'org/m',
      speculative_config: { method: 'ngram', num_speculative_tokens: 3 },
      enable_chunked_prefill: false,
      disable_log_stats: true,
      swap_space: 4,
      max_gen_toks: 64,
      num_concurrent: 8,
      trust_remote_code: false,
      served_model_name: 'short',
    });
    expect(parsed.serverArgs).toEqual([
      'serve',
      'org/m',
      '--speculative-config',
      '{"method":"ngram","num_speculative_tokens":3}',
      '--no-enable-chunked-prefill',
      '--disable-log-stats',
      '--served-model-name',
      'short',
    ]);
    expect(parsed.servedModel).toBe('short');
    // The server's own /tokenize, named: local-completions' default is lm-eval's tokenizer_backend=auto.
    expect(parsed.client).toEqual({
      num_concurrent: 8,
      prompt_logprobs: true,
      tokenized_requests: true,
      tokenizer_backend: 'remote',
      max_gen_toks: 64,
    });
    expect(parsed.ignored).toEqual(['swap_space= is no longer a vLLM option (lm-eval drops it too)']);
    expect(parsed.executable).toBe('vllm');
  });

  it("serves lm-eval's LoRA adapter as `finetuned`, and max_length sizes both the server and the client", () => {
    const parsed = parseManagedServerArgs('vllm', {
      pretrained: 'org/base',
      lora_local_path: '/adapters/a',
      max_lora_rank: 32,
      max_length: 1024,
      executable: '/opt/vllm/bin/vllm',
    });
    expect(parsed.serverArgs).toEqual([
      'serve',
      'org/base',
      '--max-lora-rank',
      '32',
      '--max-model-len',
      '1024',
      '--enable-lora',
      '--lora-modules',
      'finetuned=/adapters/a',
    ]);
    expect(parsed.servedModel).toBe('finetuned');
    expect(parsed.client.max_length).toBe(1024);
    expect(parsed.executable).toBe('/opt/vllm/bin/vllm');
  });

  it('SGLang drops false switches (they have no negation) and takes python= as its interpreter', () => {
    const parsed = parseManagedServerArgs('sglang', {
      pretrained: 'org/m',
      enable_torch_compile: false,
      enable_metrics: true,
      python: '/venv/bin/python3',
      tokenizer_backend: 'huggingface',
    });
    expect(parsed.serverArgs).toEqual([
      '-m',
      'sglang.launch_server',
      '--model-path',
      'org/m',
      '--enable-metrics',
    ]);
    expect(parsed.executable).toBe('/venv/bin/python3');
    expect(parsed.client).toEqual({
      num_concurrent: 32,
      prompt_logprobs: false,
      tokenized_requests: true,
      tokenizer_backend: 'huggingface',
      tokenizer: 'org/m',
    });
  });

  it('base_url= may be a server root; the model comes from it unless pretrained= names one', () => {
    expect(parseManagedServerArgs('vllm', { base_url: 'http://gpu7:8000' }).baseUrl).toBe(
      'http://gpu7:8000/v1/completions',
    );
    expect(
      parseManagedServerArgs('vllm', { base_url: 'http://gpu7:8000/v1', pretrained: 'm' }),
    ).toMatchObject({
      baseUrl: 'http://gpu7:8000/v1/completions',
      servedModel: 'm',
      serverArgs: [],
    });
    expect(() => parseManagedServerArgs('vllm', { base_url: 'gpu7:8000x' })).toThrow('is not a URL');
    expect(() => parseManagedServerArgs('vllm', { pretrained: 'm', model: 'm' })).toThrow(
      "model: name the model with pretrained= (lm-eval's name for it)",
    );
  });

  it('takes enable_thinking and chat_template_args as chat-template variables for the client, and reads the template where lm-eval does', () => {
    const parsed = parseManagedServerArgs('sglang', {
      pretrained: 'Qwen/Qwen3-8B',
      tokenizer_path: '/models/qwen3-tokenizer',
      revision: 'v2',
      enable_thinking: false,
      chat_template_args: { reasoning_effort: 'low' },
    });
    expect(parsed.client).toMatchObject({
      enable_thinking: false,
      chat_template_args: { reasoning_effort: 'low' },
    });
    expect(parsed.serverArgs).not.toContain('--enable-thinking');
    // lm-eval's get_tokenizer(tokenizer or pretrained): the tokenizer named first, then the model.
    expect(parsed.templateFrom).toEqual([
      { name: '/models/qwen3-tokenizer', namedBy: 'tokenizer_path', revision: 'v2' },
      { name: 'Qwen/Qwen3-8B', namedBy: 'pretrained', revision: 'v2' },
    ]);
  });

  it("vllm's enable_thinking=true needs think_end_token, as lm-eval's VLLM.__init__ requires", () => {
    expect(() =>
      parseManagedServerArgs('vllm', { pretrained: 'Qwen/Qwen3-8B', enable_thinking: true }),
    ).toThrow('enable_thinking=true needs think_end_token');
    expect(
      parseManagedServerArgs('vllm', { pretrained: 'Qwen/Qwen3-8B', enable_thinking: false }).client,
    ).toMatchObject({
      enable_thinking: false,
    });
  });
});
