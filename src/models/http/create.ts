import { SqliteResponseCache } from '../../cache/sqlite-response-cache.js';
import { findTokenizer } from '../tokenizers/find-tokenizer.js';
import { HfTokenizer } from '../tokenizers/hf-tokenizer.js';
import { ChatBackend } from './chat-backend.js';
import { CompletionsBackend, type CompletionsSettings } from './completions-backend.js';
import type { HttpClientOptions } from './http-client.js';
import { type HttpModelArgs, parseHttpModelArgs } from './model-args.js';

export type HttpModelName =
  | 'local-completions'
  | 'openai-completions'
  | 'local-chat-completions'
  | 'openai-chat-completions';

const DEFAULTS: Record<HttpModelName, { defaultBaseUrl?: string; requireKey: boolean; chat: boolean }> = {
  'local-completions': { requireKey: false, chat: false },
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

/** A completions backend with a local tokenizer reads it; the file is found (not read) when args are checked. */
function localTokenizerFiles(name: HttpModelName, args: HttpModelArgs) {
  if (DEFAULTS[name].chat || args.tokenizerBackend !== 'huggingface') return undefined;
  const tokenizer = args.tokenizer ?? args.model;
  return { name: tokenizer, ...findTokenizer(tokenizer, args.revision) };
}

/** Checks `--model_args` of an HTTP backend as creating it would, without creating it. */
export function validateHttpModelArgs(
  name: HttpModelName,
  raw: Record<string, unknown>,
  /** The backend the messages name (`vllm` for the client of a managed server). */
  label: string = name,
): void {
  localTokenizerFiles(name, parseHttpModelArgs(raw, { ...DEFAULTS[name], backend: label }));
}

type CompletionsName = 'local-completions' | 'openai-completions';
type ChatName = 'local-chat-completions' | 'openai-chat-completions';

/** Builds an HTTP backend, reading its local tokenizer when it has one (tokenizer_backend=huggingface). */
export async function openHttpBackend(
  name: CompletionsName,
  raw: Record<string, unknown>,
  cachePath?: string,
  settings?: CompletionsSettings,
): Promise<CompletionsBackend>;
export async function openHttpBackend(
  name: ChatName,
  raw: Record<string, unknown>,
  cachePath?: string,
): Promise<ChatBackend>;
export async function openHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
): Promise<CompletionsBackend | ChatBackend>;
export async function openHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
  /** A completions backend's settings (managed SGLang: stop strings on the server with think_end_token). */
  settings: CompletionsSettings = {},
): Promise<CompletionsBackend | ChatBackend> {
  const defaults = DEFAULTS[name];
  const args = parseHttpModelArgs(raw, { backend: name, ...defaults });
  const files = localTokenizerFiles(name, args);
  const tokenizer = files ? await HfTokenizer.load(files) : undefined;
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat
    ? new ChatBackend(name, args, cache)
    : new CompletionsBackend(name, args, cache, tokenizer, settings);
}

/**
 * Builds an HTTP backend whose tokenizer, if any, is the server's; `cachePath` (`--use_cache`) puts a
 * SQLite response cache inside its client. A local tokenizer needs `openHttpBackend`, which reads it.
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
  const args = parseHttpModelArgs(raw, { backend: name, ...defaults });
  if (localTokenizerFiles(name, args)) {
    throw new Error('createHttpBackend: a local tokenizer is read by openHttpBackend');
  }
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat
    ? new ChatBackend(name, args, cache, clientOptions)
    : new CompletionsBackend(name, args, cache, undefined, clientOptions);
}
