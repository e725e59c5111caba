import { z } from 'zod';
import { AssayError, editDistance } from '../../errors.js';
import type { TemplateCandidate } from '../chat-template/find-templates.js';
import { templateVariableArgs } from '../chat-template/template-variables.js';
import { HTTP_MODEL_ARGS } from '../http/model-args.js';
import { integerArg, numberArg, positiveInteger, positiveNumber } from '../model-arg-values.js';

/**
 * `--model vllm` / `--model sglang` model args, in lm-eval's names (lm_eval/models/vllm_causallms.py,
 * sglang_causallms.py), split three ways: flags of the server assay starts, args of the local-completions
 * client that talks to it, and args of the launch itself.
 *
 * lm-eval hands every arg it does not know to the engine (`LLM(**kwargs)`, whose fields are `vllm serve`'s
 * flags in snake_case), so assay does the same: an unknown name goes to the server as `--kebab-case`
 * (true → `--flag`, false → `--no-flag` for vLLM, left out for SGLang, whose switches have no negation).
 * The one exception is a name one or two letters from a known one (`tensor_paralel_size`): that is a typo,
 * refused with a did-you-mean before a server spends minutes starting only to reject it.
 */
export type ServerKind = 'vllm' | 'sglang';

export interface ManagedServerArgs {
  kind: ServerKind;
  /** The model the server loads (pretrained=), or undefined with base_url= (no server started). */
  pretrained?: string;
  /** base_url= given: the server to use, started by someone else. */
  baseUrl?: string;
  /** Argument vector after the executable: `serve MODEL --flag …` / `-m sglang.launch_server --model-path …`. */
  serverArgs: string[];
  /** The executable: `vllm`, or the Python interpreter for SGLang. */
  executable: string;
  /** Seconds to wait for the health endpoint before giving up. */
  startTimeoutSeconds: number;
  /** Args for the local-completions client, before base_url and model are added. */
  client: Record<string, unknown>;
  /** The model name the client sends (the LoRA adapter's name when lora_local_path is given). */
  servedModel?: string;
  /** Args lm-eval accepts and ignores (device, swap_space), with why; reported as warnings. */
  ignored: string[];
  /** Where the chat template is read: the tokenizer named, else the model (lm-eval's `tokenizer or pretrained`). */
  templateFrom: TemplateCandidate[];
}

/** lm-eval arg → server flag. `null`: the arg is known but has no flag (handled elsewhere). */
const VLLM_FLAGS: Record<string, string | null> = {
  pretrained: null,
  dtype: '--dtype',
  revision: '--revision',
  trust_remote_code: '--trust-remote-code',
  tokenizer: '--tokenizer',
  tokenizer_mode: '--tokenizer-mode',
  tokenizer_revision: '--tokenizer-revision',
  tensor_parallel_size: '--tensor-parallel-size',
  pipeline_parallel_size: '--pipeline-parallel-size',
  data_parallel_size: '--data-parallel-size',
  quantization: '--quantization',
  max_model_len: '--max-model-len',
  max_length: '--max-model-len',
  seed: '--seed',
  gpu_memory_utilization: '--gpu-memory-utilization',
  enable_prefix_caching: '--enable-prefix-caching',
  max_batch_size: '--max-num-seqs',
  max_num_seqs: '--max-num-seqs',
  kv_cache_dtype: '--kv-cache-dtype',
  enforce_eager: '--enforce-eager',
  max_lora_rank: '--max-lora-rank',
  lora_local_path: null,
};

/** SGLang's server flags, under lm-eval's SGLang names and, for one vocabulary across both, vLLM's. */
const SGLANG_FLAGS: Record<string, string | null> = {
  pretrained: null,
  dtype: '--dtype',
  revision: '--revision',
  trust_remote_code: '--trust-remote-code',
  tokenizer: '--tokenizer-path',
  tokenizer_path: '--tokenizer-path',
  tokenizer_mode: '--tokenizer-mode',
  load_format: '--load-format',
  kv_cache_dtype: '--kv-cache-dtype',
  context_length: '--context-length',
  max_model_len: '--context-length',
  max_length: '--context-length',
  chunked_prefill_size: '--chunked-prefill-size',
  mem_fraction_static: '--mem-fraction-static',
  gpu_memory_utilization: '--mem-fraction-static',
  tp_size: '--tp-size',
  tensor_parallel_size: '--tp-size',
  dp_size: '--dp-size',
  data_parallel_size: '--dp-size',
  pipeline_parallel_size: '--pp-size',
  quantization: '--quantization',
  seed: '--random-seed',
  max_batch_size: '--max-running-requests',
  enable_prefix_caching: null,
  device: '--device',
};

/** Args of the launch itself. */
const LAUNCH_ARGS = ['vllm_args', 'sglang_args', 'base_url', 'executable', 'python', 'server_timeout'];

/** Client args that also tell the server something: both get them. */
const SHARED_WITH_CLIENT = new Set(['seed', 'max_length', 'max_model_len', 'context_length']);

/** lm-eval args with no meaning for a served model, accepted with a warning as lm-eval does. */
const IGNORED: Record<string, string> = {
  device:
    'device= is ignored for vLLM (lm-eval ignores it too): choose GPUs with CUDA_VISIBLE_DEVICES before running assay',
  swap_space: 'swap_space= is no longer a vLLM option (lm-eval drops it too)',
};

/** lm-eval args assay cannot honour: refused with the reason, never ignored. */
const REFUSED: Record<string, string> = {
  prefix_token_id: 'a custom prefix token is not supported; the server tokenizer’s BOS (else EOS) is used',
  custom_prefix_token_id:
    'a custom prefix token is not supported; the server tokenizer’s BOS (else EOS) is used',
  truncation_side: 'only left truncation (lm-eval’s default) is supported',
  model: "name the model with pretrained= (lm-eval's name for it)",
};

const DEFAULT_START_TIMEOUT = 1800;
/** Requests in flight against a managed server: enough to fill vLLM's continuous batching. */
const DEFAULT_CONCURRENCY = 32;

function kebab(name: string): string {
  return `--${name.replaceAll('_', '-')}`;
}

/** Switches that are off unless given, in every vLLM version: false is their default, so nothing is passed. */
const OFF_BY_DEFAULT = new Set(['--trust-remote-code', '--enforce-eager']);

/** true → `--flag`; false → `--no-flag` (vLLM's BooleanOptionalAction) or nothing (SGLang). */
function flagTokens(kind: ServerKind, flag: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (value === true) return [flag];
  if (value === false) return kind === 'vllm' && !OFF_BY_DEFAULT.has(flag) ? [`--no-${flag.slice(2)}`] : [];
  if (typeof value === 'object') return [flag, JSON.stringify(value)];
  return [flag, String(value)];
}

/** `vllm_args` as a string (`--a 1 --b`, spaces or commas between tokens) or an argv list. */
function extraTokens(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  throw new AssayError(
    'bad_model_args',
    `\`modelArgs\`: ${name} must be a string of server flags or a list of them`,
  );
}

function fail(kind: ServerKind, message: string): never {
  throw new AssayError('bad_model_args', `\`modelArgs\` for ${kind}: ${message}`);
}

const fraction = () => numberArg('a fraction in (0, 1]', (n) => n > 0 && n <= 1);
const onOff = () =>
  z.boolean({ error: (issue) => `expected True or False, got ${JSON.stringify(issue.input)}` });

/**
 * The types of the known args that are numbers or switches (lm-eval's types for them). A value of another
 * type would reach the server as a flag it rejects minutes later (`--seed abc`), or be read wrong before
 * (`server_timeout=True` as 1 s). `None` is lm-eval's "not given": the arg is left out. Unknown names go
 * to the server as they are: it is the judge of its own flags.
 */
const TYPED_ARGS: Record<string, z.ZodType> = {
  seed: integerArg(),
  max_model_len: positiveInteger(),
  max_length: positiveInteger(),
  context_length: positiveInteger(),
  tensor_parallel_size: positiveInteger(),
  pipeline_parallel_size: positiveInteger(),
  data_parallel_size: positiveInteger(),
  tp_size: positiveInteger(),
  dp_size: positiveInteger(),
  max_batch_size: positiveInteger(),
  max_num_seqs: positiveInteger(),
  max_lora_rank: positiveInteger(),
  chunked_prefill_size: integerArg(),
  gpu_memory_utilization: fraction(),
  mem_fraction_static: fraction(),
  trust_remote_code: onOff(),
  enforce_eager: onOff(),
  enable_prefix_caching: onOff(),
  server_timeout: positiveNumber(),
};

/** The args with each typed one checked and normalised ("8" → 8), `None` ones left out, order kept. */
function checkTypedArgs(kind: ServerKind, raw: Record<string, unknown>): Record<string, unknown> {
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const type = Object.hasOwn(TYPED_ARGS, name) ? TYPED_ARGS[name] : undefined;
    if (!type) {
      checked[name] = value;
      continue;
    }
    if (value === null || value === undefined) continue;
    const parsed = type.safeParse(value);
    if (!parsed.success) fail(kind, `${name}: ${parsed.error.issues[0].message}`);
    checked[name] = parsed.data;
  }
  return checked;
}

export function parseManagedServerArgs(kind: ServerKind, given: Record<string, unknown>): ManagedServerArgs {
  const raw = checkTypedArgs(kind, given);
  const table = kind === 'vllm' ? VLLM_FLAGS : SGLANG_FLAGS;
  const clientNames = HTTP_MODEL_ARGS.filter(
    (name) => !['model', 'pretrained', 'base_url', 'tokenizer', 'revision'].includes(name),
  );
  const known = [...Object.keys(table), ...clientNames, ...LAUNCH_ARGS];
  const otherExtra = kind === 'vllm' ? 'sglang_args' : 'vllm_args';
  if (raw[otherExtra] !== undefined)
    fail(kind, `${otherExtra} is for \`model\` ${otherExtra.split('_')[0]}; use ${kind}_args`);
  if (raw.max_length !== undefined && (raw.max_model_len !== undefined || raw.context_length !== undefined))
    fail(kind, 'give max_length or max_model_len, not both (lm-eval refuses both too)');

  const serverArgs: string[] = [];
  // Token ids and (vLLM) prompt_logprobs, as lm-eval's in-process vllm backend scores tokens.
  // The server's own /tokenize: the same tokenizer lm-eval's in-process backend loads from the model.
  const client: Record<string, unknown> = {
    num_concurrent: DEFAULT_CONCURRENCY,
    prompt_logprobs: kind === 'vllm',
    ...(raw.tokenizer_backend === null ? {} : { tokenized_requests: true, tokenizer_backend: 'remote' }),
  };
  const ignored: string[] = [];
  const serverFlagsGiven: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (name in REFUSED) fail(kind, `${name}: ${REFUSED[name]}`);
    if (kind === 'vllm' && name in IGNORED) {
      ignored.push(IGNORED[name]);
      continue;
    }
    if (LAUNCH_ARGS.includes(name) || name === 'pretrained') continue;
    if (name in table) {
      const flag = table[name];
      if (SHARED_WITH_CLIENT.has(name)) client[name === 'seed' ? 'seed' : 'max_length'] = value;
      if (name === 'enable_prefix_caching' && kind === 'sglang') {
        if (value === false) serverArgs.push('--disable-radix-cache');
        serverFlagsGiven.push(name);
        continue;
      }
      if (flag) {
        serverArgs.push(...flagTokens(kind, flag, value));
        serverFlagsGiven.push(name);
      }
      continue;
    }
    if (clientNames.includes(name)) {
      client[name] = value;
      continue;
    }
    const near = known.find((candidate) => {
      const distance = editDistance(name.toLowerCase(), candidate);
      return distance > 0 && distance <= (name.length > 6 ? 2 : 1);
    });
    if (near)
      fail(
        kind,
        `unknown argument "${name}"; did you mean "${near}"? (unknown names go to the server as --kebab-case flags, so a typo is refused here)`,
      );
    serverArgs.push(...flagTokens(kind, kebab(name), value));
    serverFlagsGiven.push(name);
  }
  serverArgs.push(...extraTokens(raw[`${kind}_args`], `${kind}_args`));
  if (raw.tokenizer_backend === 'huggingface') {
    // A local tokenizer for the client: the server's own tokenizer files, from the same folder or cache.
    const tokenizer = raw.tokenizer ?? raw.tokenizer_path ?? raw.pretrained;
    if (typeof tokenizer === 'string') client.tokenizer = tokenizer;
    const revision = raw.tokenizer_revision ?? raw.revision;
    if (typeof revision === 'string') client.revision = revision;
  }

  // lm-eval's VLLM.__init__: thinking on needs the token that ends it, or the thinking reaches the answer filters.
  if (
    kind === 'vllm' &&
    templateVariableArgs(raw).enable_thinking === true &&
    raw.think_end_token === undefined
  )
    fail(
      kind,
      'enable_thinking=true needs think_end_token (lm-eval requires it too): the text that ends the thinking section',
    );
  const templateFrom = templateCandidates(raw);

  const timeout = raw.server_timeout === undefined ? DEFAULT_START_TIMEOUT : Number(raw.server_timeout);
  const executable = String(raw.executable ?? raw.python ?? (kind === 'vllm' ? 'vllm' : 'python'));
  if (kind === 'vllm' && raw.python !== undefined)
    fail(kind, 'python= is the interpreter of SGLang; for vLLM give executable=PATH of the vllm command');

  if (typeof raw.base_url === 'string') {
    if (raw.pretrained !== undefined && typeof raw.pretrained !== 'string')
      fail(kind, 'pretrained= must be a model name');
    const flags = serverFlagsGiven.filter((name) => !SHARED_WITH_CLIENT.has(name));
    if (flags.length || raw[`${kind}_args`] !== undefined)
      fail(
        kind,
        `base_url= names a server assay does not start, so server flags (${[...flags, ...(raw[`${kind}_args`] !== undefined ? [`${kind}_args`] : [])].join(', ')}) cannot apply; set them where that server is started`,
      );
    return {
      kind,
      pretrained: typeof raw.pretrained === 'string' ? raw.pretrained : undefined,
      baseUrl: completionsUrl(raw.base_url, kind),
      serverArgs: [],
      executable,
      startTimeoutSeconds: timeout,
      client,
      servedModel: typeof raw.pretrained === 'string' ? raw.pretrained : undefined,
      ignored,
      templateFrom,
    };
  }
  if (raw.base_url !== undefined) fail(kind, 'base_url must be a URL');
  if (typeof raw.pretrained !== 'string' || raw.pretrained === '')
    fail(
      kind,
      `pretrained=<model> is required (a Hub id or a folder ${kind} loads), or base_url=<URL> of a server already running`,
    );
  const pretrained = raw.pretrained;
  // vLLM's --served-model-name (passed through) is the name requests must use.
  let servedModel = typeof raw.served_model_name === 'string' ? raw.served_model_name : pretrained;
  if (kind === 'vllm' && typeof raw.lora_local_path === 'string') {
    // lm-eval's LoRARequest("finetuned", 1, path): requests name the adapter.
    serverArgs.push('--enable-lora', '--lora-modules', `finetuned=${raw.lora_local_path}`);
    servedModel = 'finetuned';
  }
  const head =
    kind === 'vllm' ? ['serve', pretrained] : ['-m', 'sglang.launch_server', '--model-path', pretrained];
  return {
    kind,
    pretrained,
    serverArgs: [...head, ...serverArgs],
    executable,
    startTimeoutSeconds: timeout,
    client,
    servedModel,
    ignored,
    templateFrom,
  };
}

/** The tokenizer named (`tokenizer`, SGLang's `tokenizer_path`), then the model, at their revision. */
function templateCandidates(raw: Record<string, unknown>): TemplateCandidate[] {
  const revision = raw.tokenizer_revision ?? raw.revision;
  const at = typeof revision === 'string' ? { revision } : {};
  const candidates: TemplateCandidate[] = [];
  for (const namedBy of ['tokenizer', 'tokenizer_path', 'pretrained']) {
    const name = raw[namedBy];
    if (typeof name === 'string' && name !== '') candidates.push({ name, namedBy, ...at });
  }
  return candidates;
}

/** A server root (`http://host:8000`) means its /v1/completions, as local-completions needs the full URL. */
function completionsUrl(value: string, kind: ServerKind): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(kind, `base_url "${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(kind, `base_url "${value}" is not a URL (expected http://HOST:PORT)`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/completions';
  else if (url.pathname.replace(/\/$/, '') === '/v1') url.pathname = '/v1/completions';
  return url.toString();
}
