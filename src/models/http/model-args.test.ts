import { describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import {
  type EndpointDefaults,
  HTTP_MODEL_ARGS,
  parseHttpModelArgs,
  redactModelArgs,
  TEMPLATE_API_BOS,
} from './model-args.js';

const local: EndpointDefaults = { backend: 'local-completions', requireKey: false, tokenizerDefault: 'auto' };
const openaiCompletions: EndpointDefaults = {
  backend: 'openai-completions',
  defaultBaseUrl: 'https://api.openai.com/v1/completions',
  requireKey: true,
};
const chat: EndpointDefaults = { backend: 'local-chat-completions', requireKey: false, chat: true };
const url = 'http://127.0.0.1:8000/v1/completions';

function failure(run: () => unknown): AssayError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AssayError);
    return error as AssayError;
  }
  throw new Error('expected an AssayError');
}

describe('parseHttpModelArgs', () => {
  it("has lm-eval TemplateAPI's defaults", () => {
    const args = parseHttpModelArgs({ model: 'm', base_url: url }, local);
    // lm_eval/models/api_models.py TemplateAPI.__init__: num_concurrent=1, max_retries=3, max_gen_toks=256,
    // batch_size=1, seed=1234, max_length=2048, add_bos_token=False, timeout=300.
    expect(args).toMatchObject({
      model: 'm',
      baseUrls: [url],
      num_concurrent: 1,
      max_retries: 3,
      max_gen_toks: 256,
      batch_size: 1,
      seed: 1234,
      max_length: 2048,
      timeout: 300,
      headerMap: {},
    });
    expect(args.bos).toEqual({ ...TEMPLATE_API_BOS, source: 'default' });
    expect(args.bos.add).toBe(false);
  });

  it('reads k=v strings as numbers, base_url lists, and batch_size=auto', () => {
    const args = parseHttpModelArgs(
      {
        model: 'm',
        base_url: `${url}, http://127.0.0.1:8001/v1/completions`,
        num_concurrent: '8',
        batch_size: 'auto',
      },
      local,
    );
    expect(args.baseUrls).toEqual([url, 'http://127.0.0.1:8001/v1/completions']);
    expect(args.num_concurrent).toBe(8);
    expect(args.batch_size).toBe(1);
  });

  it('takes pretrained when model is absent, and rejects two different names', () => {
    expect(parseHttpModelArgs({ pretrained: 'p', base_url: url }, local).model).toBe('p');
    expect(parseHttpModelArgs({ model: 'p', pretrained: 'p', base_url: url }, local).model).toBe('p');
    const both = failure(() => parseHttpModelArgs({ model: 'a', pretrained: 'b', base_url: url }, local));
    expect(both.code).toBe('bad_model_args');
    expect(both.message).toContain('model=a and pretrained=b name different models');
  });

  it('requires a model and a base_url that is a URL, naming the backend', () => {
    expect(failure(() => parseHttpModelArgs({ base_url: url }, local)).message).toBe(
      '`modelArgs` for local-completions: model=<name the server knows> is required',
    );
    expect(failure(() => parseHttpModelArgs({ model: 'm' }, local)).message).toContain(
      'base_url is required',
    );
    expect(failure(() => parseHttpModelArgs({ model: 'm', base_url: 'not a url' }, local)).message).toContain(
      'base_url "not a url" is not a URL',
    );
  });

  it('uses the default base_url of the openai backends, with a key', () => {
    const args = parseHttpModelArgs({ model: 'gpt', api_key: 'sk-x' }, openaiCompletions);
    expect(args.baseUrls).toEqual(['https://api.openai.com/v1/completions']);
    expect(args.apiKey).toBe('sk-x');
    // openai-completions defaults to text prompts (lm-eval's tiktoken is not available).
    expect(args.tokenized_requests).toBe(false);
  });

  it('refuses an openai backend without a key, falling back to OPENAI_API_KEY as lm-eval does', () => {
    const raw = { model: 'gpt', api_key_env: 'ASSAY_TEST_NO_SUCH_KEY_VAR' };
    const fromEnv = process.env.OPENAI_API_KEY;
    // The process environment is read, never written (test files share a process): both outcomes are checked.
    if (fromEnv) {
      expect(parseHttpModelArgs(raw, openaiCompletions).apiKey).toBe(fromEnv);
    } else {
      expect(failure(() => parseHttpModelArgs(raw, openaiCompletions)).code).toBe('missing_credentials');
    }
    // A local backend needs none.
    expect(() => parseHttpModelArgs({ model: 'm', base_url: url }, local)).not.toThrow();
  });

  it('rejects bad values and unknown names before any request', () => {
    expect(
      failure(() => parseHttpModelArgs({ model: 'm', base_url: url, num_concurrent: 0 }, local)).message,
    ).toContain('num_concurrent');
    expect(
      failure(() => parseHttpModelArgs({ model: 'm', base_url: url, timeout: 'abc' }, local)).message,
    ).toContain('timeout');
    expect(
      failure(() => parseHttpModelArgs({ model: 'm', base_url: url, max_retries: 1.5 }, local)).message,
    ).toContain('max_retries');
    expect(
      failure(() => parseHttpModelArgs({ model: 'm', base_url: url, num_concurent: 2 }, local)).code,
    ).toBe('bad_model_args');
  });

  it('settles tokenizer_backend and tokenized_requests together', () => {
    const parse = (extra: Record<string, unknown>, defaults = local) =>
      parseHttpModelArgs({ model: 'm', base_url: url, ...extra }, defaults);
    const pick = (extra: Record<string, unknown>, defaults = local) => {
      const args = parse(extra, defaults);
      return [args.tokenizerBackend, args.tokenized_requests];
    };
    expect(pick({})).toEqual(['auto', true]);
    expect(pick({ tokenizer: '/t/tokenizer.json' })).toEqual(['huggingface', true]);
    expect(pick({ tokenizer_backend: 'remote' })).toEqual(['remote', true]);
    expect(pick({ tokenizer_backend: 'remote', tokenized_requests: false })).toEqual(['remote', false]);
    expect(pick({ tokenizer_backend: null })).toEqual(['none', false]);
    expect(pick({ tokenizer_backend: 'none' })).toEqual(['none', false]);
    expect(pick({ tokenized_requests: false })).toEqual(['remote', false]);
    expect(pick({ tokenizer_backend: 'auto', tokenized_requests: false })).toEqual(['remote', false]);
    expect(pick({}, chat)[1]).toBe(false);
    expect(() => parse({ tokenizer_backend: 'none', tokenized_requests: true })).toThrow(/has no tokenizer/);
    expect(() => parse({ tokenizer_backend: 'none', tokenizer: 't' })).toThrow(/yet tokenizer= names one/);
    expect(() => parse({ tokenizer_backend: 'remote', tokenizer: 't' })).toThrow(/drop one/);
    expect(() => parse({ tokenizer: 't', tokenized_requests: false })).toThrow(
      /tokenized_requests=false sends text/,
    );
  });

  it('records add_bos_token given in model_args, else the backend default', () => {
    expect(parseHttpModelArgs({ model: 'm', base_url: url, add_bos_token: true }, local).bos).toEqual({
      add: true,
      source: 'model_args',
      rule: 'add_bos_token=true',
    });
    const vllm = { ...local, backend: 'vllm', bosDefault: { add: true, rule: 'vllm default' } };
    expect(parseHttpModelArgs({ model: 'm', base_url: url }, vllm).bos).toEqual({
      add: true,
      rule: 'vllm default',
      source: 'default',
    });
  });

  it('refuses a think_end_token id without a tokenizer to read it', () => {
    expect(() => parseHttpModelArgs({ model: 'm', base_url: url, think_end_token: 151668 }, chat)).toThrow(
      /a chat endpoint has none/,
    );
    expect(() =>
      parseHttpModelArgs(
        { model: 'm', base_url: url, think_end_token: 151668, tokenized_requests: false },
        local,
      ),
    ).toThrow(/is a token id/);
    expect(
      parseHttpModelArgs({ model: 'm', base_url: url, think_end_token: '</think>' }, chat).think_end_token,
    ).toBe('</think>');
  });

  it('reads headers as a JSON object or Name: value pairs', () => {
    const parse = (headers: unknown) =>
      parseHttpModelArgs({ model: 'm', base_url: url, headers }, local).headerMap;
    expect(parse('{"X-A": "1", "X-B": "two"}')).toEqual({ 'X-A': '1', 'X-B': 'two' });
    expect(parse('X-A: 1; Authorization: Bearer a:b ;')).toEqual({ 'X-A': '1', Authorization: 'Bearer a:b' });
    expect(parse({ 'X-C': '3' })).toEqual({ 'X-C': '3' });
    expect(() => parse('{"X-A": 1}')).toThrow(/headers must be a JSON object of strings/);
    expect(() => parse('{not json')).toThrow(/headers must be a JSON object of strings/);
  });
});

describe('HTTP_MODEL_ARGS and redactModelArgs', () => {
  it("lists lm-eval TemplateAPI's names", () => {
    for (const name of [
      'model',
      'pretrained',
      'base_url',
      'num_concurrent',
      'max_retries',
      'timeout',
      'batch_size',
      'max_length',
      'tokenized_requests',
      'tokenizer_backend',
      'add_bos_token',
      'seed',
    ])
      expect(HTTP_MODEL_ARGS).toContain(name);
  });

  it('never keeps the key', () => {
    expect(redactModelArgs({ model: 'm', api_key: 'sk-secret' })).toEqual({
      model: 'm',
      api_key: '<redacted>',
    });
    expect(redactModelArgs({ model: 'm' })).toEqual({ model: 'm' });
  });
});
