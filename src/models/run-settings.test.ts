/** lm-eval's run-wide device, max_batch_size and trust_remote_code: what each backend makes of them. */
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { withRunSettings } from './run-settings.js';

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AssayError);
    return { code: (error as AssayError).code, message: (error as AssayError).message };
  }
  throw new Error('expected a refusal');
}

describe('withRunSettings', () => {
  it('device: gguf gpu= (cpu is false, any first GPU is auto), SGLang --device as given', () => {
    expect(withRunSettings('gguf', { model: 'm.gguf' }, { device: 'cpu' })).toEqual({
      model: 'm.gguf',
      gpu: false,
    });
    for (const device of ['cuda', 'cuda:0', 'MPS', 'auto'])
      expect(withRunSettings('demo', {}, { device })).toEqual({ gpu: 'auto' });
    expect(withRunSettings('sglang', { pretrained: 'x' }, { device: 'xpu' })).toEqual({
      pretrained: 'x',
      device: 'xpu',
    });
  });

  it('device: refused with the reason where it would mean nothing or cannot be honoured', () => {
    expect(refusal(() => withRunSettings('gguf', {}, { device: 'cuda:1' }))).toEqual({
      code: 'not_supported',
      message:
        '`device` cuda:1: llama.cpp uses the first GPU it sees; choose it with CUDA_VISIBLE_DEVICES=1 and `device` cuda',
    });
    expect(refusal(() => withRunSettings('gguf', {}, { device: 'tpu' })).code).toBe('bad_option');
    expect(refusal(() => withRunSettings('vllm', {}, { device: 'cuda' })).message).toMatch(
      /^`device` does not apply to vLLM .*CUDA_VISIBLE_DEVICES/,
    );
    expect(refusal(() => withRunSettings('local-completions', {}, { device: 'cuda' })).message).toBe(
      '`device` does not apply to model local-completions: the server it talks to chooses its own devices; it applies to gguf (gpu=) and sglang',
    );
  });

  it('maxBatchSize: the managed servers only; a model arg saying otherwise is a conflict', () => {
    expect(withRunSettings('vllm', { pretrained: 'x' }, { maxBatchSize: 64 })).toEqual({
      pretrained: 'x',
      max_batch_size: 64,
    });
    expect(withRunSettings('sglang', { max_batch_size: 64 }, { maxBatchSize: 64 })).toEqual({
      max_batch_size: 64,
    });
    expect(refusal(() => withRunSettings('sglang', { max_batch_size: 32 }, { maxBatchSize: 64 }))).toEqual({
      code: 'bad_option',
      message: '`maxBatchSize` says max_batch_size=64 but `modelArgs` says max_batch_size=32; give one',
    });
    expect(refusal(() => withRunSettings('local-completions', {}, { maxBatchSize: 8 })).message).toContain(
      'batch_size=N, num_concurrent=N',
    );
    expect(refusal(() => withRunSettings('vllm', {}, { maxBatchSize: 0 })).code).toBe('bad_option');
  });

  it('trustRemoteCode: given to the servers assay starts, nothing to others', () => {
    expect(withRunSettings('vllm', {}, { trustRemoteCode: true })).toEqual({ trust_remote_code: true });
    expect(withRunSettings('gguf', { model: 'm.gguf' }, { trustRemoteCode: true })).toEqual({
      model: 'm.gguf',
    });
    expect(withRunSettings('sglang', {}, { trustRemoteCode: false })).toEqual({});
  });
});
