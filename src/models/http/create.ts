import { SqliteResponseCache } from '../../cache/sqlite-response-cache.js';
import { AssayError } from '../../errors.js';
import type { ChatTemplateRules } from '../chat-template/chat-templates.js';
import { findChatTemplates, type TemplateCandidate } from '../chat-template/find-templates.js';
import { templateVariables } from '../chat-template/template-variables.js';
import { HfTokenizer } from '../tokenizers/hf-tokenizer.js';
import {
  localTokenizerFolder,
  type TokenizerFolder,
  tokenizerFolder,
} from '../tokenizers/tokenizer-folder.js';
import { autoTokenizerBackend } from './auto-tokenizer.js';
import { ChatBackend } from './chat-backend.js';
import { CompletionsBackend, type CompletionsSettings } from './completions-backend.js';
import type { HttpClientOptions } from './http-client.js';
import { type EndpointDefaults, type HttpModelArgs, parseHttpModelArgs } from './model-args.js';

export type HttpModelName =
  | 'local-completions'
  | 'openai-completions'
  | 'local-chat-completions'
  | 'openai-chat-completions';

const DEFAULTS: Record<
  HttpModelName,
  { defaultBaseUrl?: string; requireKey: boolean; chat: boolean; tokenizerDefault?: 'auto' | 'text' }
> = {
  'local-completions': { requireKey: false, chat: false, tokenizerDefault: 'auto' },
  'openai-completions': {
    defaultBaseUrl: 'https://api.openai.com/v1/completions',
    requireKey: true,
    chat: false,
  },
  'local-chat-completions': { requireKey: false, chat: true },
  'openai-chat-completions': {
    defaultBaseUrl: 'https://api.openai.com/v1/chat/completions',
    requireKey: true,
    chat: true,
  },
};

/**
 * What a backend built over local-completions (`vllm`, `sglang`) sets in its place: the name messages use
 * and lm-eval's add_bos_token default for the backend of that name.
 */
export type EndpointOverrides = Partial<Pick<EndpointDefaults, 'backend' | 'bosDefault'>>;

export interface OpenHttpOptions extends EndpointOverrides {
  /** Where a Hub tokenizer is fetched (HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE, HF_HUB_CACHE); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** A completions backend's settings (managed SGLang: stop strings on the server with think_end_token). */
  settings?: CompletionsSettings;
  /** Where a managed server's client reads its chat template, and whose rules apply. */
  templates?: ChatTemplateOrigin;
}

function parseFor(name: HttpModelName, raw: Record<string, unknown>, overrides: EndpointOverrides = {}) {
  return parseHttpModelArgs(raw, { backend: name, ...DEFAULTS[name], ...overrides });
}

/** The name a local tokenizer is read by: `tokenizer=`, else the model's own (lm-eval's AutoTokenizer(model)). */
function tokenizerName(args: HttpModelArgs) {
  return args.tokenizer !== undefined
    ? { name: args.tokenizer, namedBy: 'tokenizer' as const }
    : { name: args.model, namedBy: 'model' as const };
}

/** A chat-completions server renders its own template: template variables have nowhere to go. */
function checkTemplateArgs(name: HttpModelName, args: HttpModelArgs, label: string): void {
  if (!DEFAULTS[name].chat) return;
  const given = (['enable_thinking', 'chat_template_args'] as const).filter((key) => args[key] !== undefined);
  if (given.length) {
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${label}: ${given.join(', ')} are chat-template variables, and a chat-completions server renders its own template; use local-completions (or vllm/sglang), which render the model's template`,
    );
  }
}

/**
 * Checks `--model_args` of an HTTP backend as creating it would, without creating it or reading the
 * network: a local tokenizer path must exist (a Hub id is fetched when the backend is opened).
 */
export function validateHttpModelArgs(
  name: HttpModelName,
  raw: Record<string, unknown>,
  /** The backend the messages name (`vllm` for the client of a managed server). */
  label: string = name,
): void {
  const args = parseFor(name, raw, { backend: label });
  checkTemplateArgs(name, args, label);
  if (!DEFAULTS[name].chat && args.tokenizerBackend === 'huggingface') {
    const { name: tokenizer, namedBy } = tokenizerName(args);
    localTokenizerFolder(tokenizer, namedBy);
  }
}

/**
 * Where a completions backend's chat template is read, and lm-eval's rules around it. local-completions
 * (lm-eval's TemplateAPI): the tokenizer's folder, else the model's name; no retry without the system
 * message. A managed server's client names its own candidates and rules (vllm's, sglang's).
 */
export interface ChatTemplateOrigin {
  candidates: TemplateCandidate[];
  rule: 'vllm' | 'sglang';
}

function templatesFor(
  args: HttpModelArgs,
  origin: ChatTemplateOrigin | undefined,
  /** The tokenizer folder already resolved (or downloaded from the Hub): its candidate reads it. */
  resolved?: TokenizerFolder,
) {
  const named: TemplateCandidate[] = origin?.candidates ?? [
    ...(args.tokenizer !== undefined
      ? [{ name: args.tokenizer, namedBy: 'tokenizer', revision: args.revision }]
      : [{ name: args.model, namedBy: 'model', revision: args.revision }]),
  ];
  const candidates = named.map((candidate) =>
    resolved && candidate.name === resolved.name ? { ...candidate, folder: resolved.folder } : candidate,
  );
  const rules: ChatTemplateRules = {
    variables: templateVariables(args, origin?.rule === 'vllm' ? 'vllm' : 'hf'),
    retryWithoutSystem: origin?.rule === 'vllm',
    backend: origin?.rule ?? 'local-completions',
  };
  return findChatTemplates(candidates, rules);
}

type CompletionsName = 'local-completions' | 'openai-completions';
type ChatName = 'local-chat-completions' | 'openai-chat-completions';

/**
 * Builds an HTTP backend, settling lm-eval's `tokenizer_backend=auto` by asking the server, and reading
 * its local tokenizer when it has one (tokenizer_backend=huggingface: a path, or a Hub id downloaded into
 * the Hugging Face cache).
 */
export async function openHttpBackend(
  name: CompletionsName,
  raw: Record<string, unknown>,
  cachePath?: string,
  options?: OpenHttpOptions,
): Promise<CompletionsBackend>;
export async function openHttpBackend(
  name: ChatName,
  raw: Record<string, unknown>,
  cachePath?: string,
  options?: OpenHttpOptions,
): Promise<ChatBackend>;
export async function openHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
  options?: OpenHttpOptions,
): Promise<CompletionsBackend | ChatBackend>;
export async function openHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
  options: OpenHttpOptions = {},
): Promise<CompletionsBackend | ChatBackend> {
  const defaults = DEFAULTS[name];
  const { env, settings = {}, templates, ...overrides } = options;
  let args = parseFor(name, raw, overrides);
  checkTemplateArgs(name, args, overrides.backend ?? name);
  if (args.tokenizerBackend === 'auto') {
    const headers = { ...args.headerMap, ...(args.apiKey ? { authorization: `Bearer ${args.apiKey}` } : {}) };
    // lm-eval's check_remote_tokenizer_support waits 5 s per request.
    const chosen = await autoTokenizerBackend(args.baseUrls[0], headers, Math.min(5000, args.timeout * 1000));
    args = { ...args, tokenizerBackend: chosen };
  }
  let folder: TokenizerFolder | undefined;
  if (!defaults.chat && args.tokenizerBackend === 'huggingface') {
    const { name: named, namedBy } = tokenizerName(args);
    folder = await tokenizerFolder(named, { revision: args.revision, namedBy, env });
  }
  const tokenizer = folder ? await HfTokenizer.load(folder) : undefined;
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat
    ? new ChatBackend(name, args, cache)
    : new CompletionsBackend(name, args, cache, tokenizer, settings, templatesFor(args, templates, folder));
}

/**
 * Builds an HTTP backend whose tokenizer, if any, is the server's; `cachePath` (`--use_cache`) puts a
 * SQLite response cache inside its client. A local tokenizer, and lm-eval's `tokenizer_backend=auto`
 * (local-completions' default), need `openHttpBackend`.
 */
export function createHttpBackend(
  name: CompletionsName,
  raw: Record<string, unknown>,
  cachePath?: string,
  clientOptions?: Pick<HttpClientOptions, 'sleep'>,
): CompletionsBackend;
export function createHttpBackend(
  name: ChatName,
  raw: Record<string, unknown>,
  cachePath?: string,
  clientOptions?: Pick<HttpClientOptions, 'sleep'>,
): ChatBackend;
export function createHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
  clientOptions?: Pick<HttpClientOptions, 'sleep'>,
): CompletionsBackend | ChatBackend;
export function createHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
  /** Injected into the backend's HTTP clients (a test's recording sleep); see HttpClientOptions. */
  clientOptions: Pick<HttpClientOptions, 'sleep'> = {},
): CompletionsBackend | ChatBackend {
  const defaults = DEFAULTS[name];
  const args = parseFor(name, raw);
  checkTemplateArgs(name, args, name);
  if (!defaults.chat && (args.tokenizerBackend === 'huggingface' || args.tokenizerBackend === 'auto')) {
    throw new Error(
      `createHttpBackend: tokenizer_backend=${args.tokenizerBackend} is settled by openHttpBackend (a local tokenizer, or lm-eval's auto default); give tokenizer_backend=remote|none or tokenized_requests=false`,
    );
  }
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat
    ? new ChatBackend(name, args, cache, clientOptions)
    : new CompletionsBackend(name, args, cache, undefined, clientOptions, templatesFor(args, undefined));
}
