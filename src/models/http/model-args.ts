import { z } from 'zod';
import { AssayError } from '../../errors.js';
import { TEMPLATE_VARIABLE_ARGS } from '../chat-template/template-variables.js';
import {
  batchSizeArg,
  integerArg,
  nonNegativeNumber,
  parseModelArgs,
  positiveInteger,
  positiveNumber,
} from '../model-arg-values.js';
import { thinkEndTokenSchema } from '../thinking.js';

/**
 * `--model_args` of the HTTP backends, validated once here. Names follow lm-eval's TemplateAPI where it has
 * one (`base_url`, `num_concurrent`, `max_retries`, `timeout`, `batch_size`, `max_length`, `tokenized_requests`).
 */
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(',')).map((item) => item.trim()).filter(Boolean),
  );
const positiveInt = positiveInteger();
const nonNegative = nonNegativeNumber();

const schema = z
  .object({
    model: z.string().optional(),
    pretrained: z.string().optional(),
    base_url: list.optional(),
    api_key: z.string().optional(),
    /** Name of an environment variable that holds the key (for providers other than OpenAI). */
    api_key_env: z.string().optional(),
    num_concurrent: positiveInt.default(1),
    /** Attempts in all, as lm-eval's tenacity `stop_after_attempt(max_retries)`: 3 means 2 retries. */
    max_retries: positiveInt.default(3),
    /** Seconds per attempt, the body included. */
    timeout: positiveNumber().default(300),
    /**
     * Seconds of Retry-After waits (429/503) one request may spend before it fails; these waits do not
     * count against max_retries.
     */
    max_retry_wait: nonNegative.default(300),
    /** First retry delay in seconds; later ones double, capped at 10 s, with full jitter. */
    retry_backoff: nonNegative.default(0.5),
    /** Prompts per HTTP request. */
    batch_size: batchSizeArg(1, /^auto$/).default(1),
    max_length: positiveInt.default(2048),
    max_gen_toks: positiveInt.default(256),
    /**
     * lm-eval's tokenizer_backend: huggingface (a tokenizer.json: `tokenizer`, else the model's name, from
     * a path or the Hub), remote (the server's /tokenize), none (text prompts only) or auto
     * (local-completions' default, as lm-eval's LocalCompletionsAPI: remote when the server answers
     * /tokenizer_info and /tokenize, else huggingface). openai-completions defaults to text prompts.
     */
    // `none` and `None` arrive as null from k=v parsing (lm-eval's spelling).
    tokenizer_backend: z.enum(['huggingface', 'remote', 'none', 'auto']).nullable().optional(),
    /** A tokenizer.json, a model folder, or a Hub id (downloaded into the Hugging Face cache). */
    tokenizer: z.string().optional(),
    /** The Hub revision `tokenizer` is read at (lm-eval's TemplateAPI `revision`, default main). */
    revision: z.string().optional(),
    /** Token-id prompts; default true with a tokenizer (lm-eval's default); false sends text. */
    tokenized_requests: z.boolean().optional(),
    /** BOS (the tokenizer's special tokens) on token-id prompts; the default is the backend's (see BosRule). */
    add_bos_token: z.boolean().optional(),
    /** JSON object or `Name: value; Name2: value` pairs. */
    headers: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
    max_requests_per_minute: nonNegative.optional(),
    max_tokens_per_minute: nonNegative.optional(),
    price_input_per_million: nonNegative.optional(),
    price_output_per_million: nonNegative.optional(),
    seed: integerArg().default(1234),
    /**
     * Loglikelihood from vLLM's `prompt_logprobs` instead of echo: auto (local-completions' default) asks
     * for both in the first request and keeps whichever the server answered; false never asks.
     */
    prompt_logprobs: z.union([z.boolean(), z.literal('auto')]).optional(),
    /** Ask for the generated tokens' log-probabilities and record them in the sample log (gen_logprobs). */
    gen_logprobs: z.boolean().optional(),
    /**
     * Reasoning models: the text (or token id) that ends the thinking; each generation keeps only what
     * follows its last occurrence (lm-eval's postprocess_generated_text), and the stop strings apply after.
     */
    think_end_token: thinkEndTokenSchema.optional(),
    ...TEMPLATE_VARIABLE_ARGS,
  })
  .strict();

/** The names `--model_args` of an HTTP backend may use. */
export const HTTP_MODEL_ARGS = Object.keys(schema.shape);

export type HttpModelArgs = Omit<
  z.output<typeof schema>,
  'tokenized_requests' | 'tokenizer_backend' | 'add_bos_token'
> & {
  model: string;
  tokenized_requests: boolean;
  /**
   * Which tokenizer gives the token ids of tokenized_requests ('none': text prompts); 'auto' is settled
   * by asking the server (openHttpBackend) before the backend is built.
   */
  tokenizerBackend: 'huggingface' | 'remote' | 'none' | 'auto';
  /** Whether token-id prompts get the tokenizer's special tokens (BOS), and why. */
  bos: BosRule;
  baseUrls: string[];
  apiKey?: string;
  headerMap: Record<string, string>;
};

export interface EndpointDefaults {
  backend: string;
  /** Used when `base_url` is not given (the openai-* backends). */
  defaultBaseUrl?: string;
  /** openai-* backends require a key; local-* backends send one only when given. */
  requireKey: boolean;
  /** Chat endpoints: the server renders the prompt, and no tokenizer is at hand. */
  chat?: boolean;
  /**
   * Without tokenizer_backend, tokenizer or tokenized_requests: `auto` (local-completions, as lm-eval's)
   * or text prompts (openai-completions: lm-eval's tiktoken, which assay does not have).
   */
  tokenizerDefault?: 'auto' | 'text';
  /** add_bos_token when not given: lm-eval's default for the backend of this name (BOS_DEFAULTS). */
  bosDefault?: BosDefault;
}

/**
 * Whether token-id prompts start with the tokenizer's special tokens (BOS for Llama and Gemma, nothing
 * for GPT-2), as lm-eval's backend of the same name decides it. Recorded in the manifest.
 */
export interface BosRule {
  add: boolean;
  /** model_args: add_bos_token was given; default: the backend's default (`rule` says which). */
  source: 'model_args' | 'default';
  rule: string;
}

export interface BosDefault {
  add: boolean;
  rule: string;
}

/** lm-eval's TemplateAPI (local-completions, openai-completions): `add_bos_token: bool = False`. */
export const TEMPLATE_API_BOS: BosDefault = {
  add: false,
  rule: "lm-eval's local-completions (TemplateAPI add_bos_token=False): no special tokens",
};

export function parseHttpModelArgs(raw: Record<string, unknown>, defaults: EndpointDefaults): HttpModelArgs {
  const args = parseModelArgs(defaults.backend, schema, raw);
  // lm-eval lets `model` win silently, while results.json names the model by `pretrained` first.
  if (args.model !== undefined && args.pretrained !== undefined && args.model !== args.pretrained) {
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${defaults.backend}: model=${args.model} and pretrained=${args.pretrained} name different models; give one of them`,
    );
  }
  const model = args.model ?? args.pretrained;
  if (!model)
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${defaults.backend}: model=<name the server knows> is required`,
    );
  const baseUrls = args.base_url ?? (defaults.defaultBaseUrl ? [defaults.defaultBaseUrl] : []);
  if (baseUrls.length === 0) {
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${defaults.backend}: base_url is required (the full URL, e.g. http://127.0.0.1:8000/v1/completions)`,
    );
  }
  for (const url of baseUrls) {
    try {
      new URL(url);
    } catch {
      throw new AssayError(
        'bad_model_args',
        `\`modelArgs\` for ${defaults.backend}: base_url "${url}" is not a URL`,
      );
    }
  }
  const apiKey =
    args.api_key ??
    (args.api_key_env ? process.env[args.api_key_env] : undefined) ??
    process.env.OPENAI_API_KEY;
  if (defaults.requireKey && !apiKey) {
    throw new AssayError(
      'missing_credentials',
      `${defaults.backend} needs an API key: set OPENAI_API_KEY or pass api_key / api_key_env`,
    );
  }
  const tokenizer = tokenizerChoice(args, defaults);
  // A token id is read as its text by the run's tokenizer, which only token-id requests have.
  if (typeof args.think_end_token === 'number' && (defaults.chat || !tokenizer.tokenized_requests)) {
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${defaults.backend}: think_end_token=${args.think_end_token} is a token id, which needs a tokenizer to read it (${defaults.chat ? 'a chat endpoint has none' : "tokenized_requests=true, with the server's /tokenize or tokenizer="}); or give its text (e.g. think_end_token=</think>)`,
    );
  }
  const bosDefault = defaults.bosDefault ?? TEMPLATE_API_BOS;
  return {
    ...args,
    ...tokenizer,
    bos:
      args.add_bos_token === undefined
        ? { ...bosDefault, source: 'default' }
        : {
            add: args.add_bos_token,
            source: 'model_args',
            rule: `add_bos_token=${args.add_bos_token ? 'true' : 'false'}`,
          },
    model,
    baseUrls,
    apiKey,
    headerMap: parseHeaders(args.headers, defaults.backend),
  };
}

/**
 * tokenizer_backend and tokenized_requests settled together; a contradiction is named, never guessed away.
 * lm-eval's defaults: tokenized_requests=True with a tokenizer, and for local-completions the tokenizer
 * `auto` picks (openai_completions.py LocalCompletionsAPI). tokenized_requests=false alone sends text,
 * which needs no tokenizer in assay (the continuation is found by its characters).
 */
function tokenizerChoice(
  args: z.output<typeof schema>,
  defaults: EndpointDefaults,
): Pick<HttpModelArgs, 'tokenizerBackend' | 'tokenized_requests'> {
  const backend = defaults.backend;
  const given = args.tokenizer_backend === null ? 'none' : args.tokenizer_backend;
  const chosen =
    args.tokenizer !== undefined && (given === undefined || given === 'auto')
      ? 'huggingface'
      : (given ??
        (args.tokenized_requests === false || defaults.tokenizerDefault !== 'auto' ? 'text' : 'auto'));
  if (chosen === 'text' || (chosen === 'auto' && args.tokenized_requests === false))
    return { tokenizerBackend: 'remote', tokenized_requests: args.tokenized_requests ?? false };
  const fail = (message: string) => {
    throw new AssayError('bad_model_args', `\`modelArgs\` for ${backend}: ${message}`);
  };
  if (chosen === 'none') {
    if (args.tokenized_requests === true)
      fail('tokenizer_backend=none sends text prompts, so tokenized_requests=true has no tokenizer');
    if (args.tokenizer !== undefined)
      fail('tokenizer_backend=none uses no tokenizer, yet tokenizer= names one');
    return { tokenizerBackend: 'none', tokenized_requests: false };
  }
  if (chosen === 'remote') {
    if (args.tokenizer !== undefined)
      fail(
        `tokenizer=${args.tokenizer} names a local tokenizer, but tokenizer_backend=remote uses the server's /tokenize; drop one`,
      );
    return { tokenizerBackend: 'remote', tokenized_requests: args.tokenized_requests ?? true };
  }
  if (chosen === 'auto') return { tokenizerBackend: 'auto', tokenized_requests: true };
  if (args.tokenized_requests === false)
    fail(
      'a local tokenizer (tokenizer_backend=huggingface) is used for token-id requests, and tokenized_requests=false sends text; drop one',
    );
  return { tokenizerBackend: 'huggingface', tokenized_requests: true };
}

function parseHeaders(
  value: string | Record<string, string> | undefined,
  backend: string,
): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      return z.record(z.string(), z.string()).parse(JSON.parse(text));
    } catch (error) {
      throw new AssayError(
        'bad_model_args',
        `\`modelArgs\` for ${backend}: headers must be a JSON object of strings`,
        { cause: error },
      );
    }
  }
  const headers: Record<string, string> = {};
  for (const pair of text.split(';')) {
    const colon = pair.indexOf(':');
    if (colon <= 0) continue;
    headers[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return headers;
}

/** The model args as results.json records them: never the key. */
export function redactModelArgs(raw: Record<string, unknown>): Record<string, unknown> {
  const { api_key: apiKey, ...rest } = raw;
  return apiKey === undefined ? rest : { ...rest, api_key: '<redacted>' };
}
