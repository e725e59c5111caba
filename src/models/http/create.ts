import { SqliteResponseCache } from '../../cache/sqlite-response-cache.js';
import { AssayError } from '../../errors.js';
import type { ChatTemplateRules } from '../chat-template/chat-templates.js';
import { findChatTemplates, type TemplateCandidate } from '../chat-template/find-templates.js';
import { templateVariables } from '../chat-template/template-variables.js';
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

/** Checks `--model_args` of an HTTP backend as creating it would, without creating it. */
export function validateHttpModelArgs(
  name: HttpModelName,
  raw: Record<string, unknown>,
  /** The backend the messages name (`vllm` for the client of a managed server). */
  label: string = name,
): void {
  const args = parseHttpModelArgs(raw, { ...DEFAULTS[name], backend: label });
  checkTemplateArgs(name, args, label);
  localTokenizerFiles(name, args);
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

function templatesFor(args: HttpModelArgs, origin: ChatTemplateOrigin | undefined) {
  const candidates: TemplateCandidate[] = origin?.candidates ?? [
    ...(args.tokenizer !== undefined
      ? [{ name: args.tokenizer, namedBy: 'tokenizer', revision: args.revision }]
      : [{ name: args.model, namedBy: 'model', revision: args.revision }]),
  ];
  const rules: ChatTemplateRules = {
    variables: templateVariables(args, origin?.rule === 'vllm' ? 'vllm' : 'hf'),
    retryWithoutSystem: origin?.rule === 'vllm',
    backend: origin?.rule ?? 'local-completions',
  };
  return findChatTemplates(candidates, rules);
}

type CompletionsName = 'local-completions' | 'openai-completions';
type ChatName = 'local-chat-completions' | 'openai-chat-completions';

/** Builds an HTTP backend, reading its local tokenizer when it has one (tokenizer_backend=huggingface). */
export async function openHttpBackend(
  name: CompletionsName,
  raw: Record<string, unknown>,
  cachePath?: string,
  settings?: CompletionsSettings,
  templates?: ChatTemplateOrigin,
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
  settings?: CompletionsSettings,
  templates?: ChatTemplateOrigin,
): Promise<CompletionsBackend | ChatBackend>;
export async function openHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
  /** A completions backend's settings (managed SGLang: stop strings on the server with think_end_token). */
  settings: CompletionsSettings = {},
  /** Where a managed server's client reads its chat template, and whose rules apply. */
  templates?: ChatTemplateOrigin,
): Promise<CompletionsBackend | ChatBackend> {
  const defaults = DEFAULTS[name];
  const args = parseHttpModelArgs(raw, { backend: name, ...defaults });
  checkTemplateArgs(name, args, name);
  const files = localTokenizerFiles(name, args);
  const tokenizer = files ? await HfTokenizer.load(files) : undefined;
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat
    ? new ChatBackend(name, args, cache)
    : new CompletionsBackend(name, args, cache, tokenizer, settings, templatesFor(args, templates));
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
  checkTemplateArgs(name, args, name);
  if (localTokenizerFiles(name, args)) {
    throw new Error('createHttpBackend: a local tokenizer is read by openHttpBackend');
  }
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat
    ? new ChatBackend(name, args, cache, clientOptions)
    : new CompletionsBackend(name, args, cache, undefined, clientOptions, templatesFor(args, undefined));
}
