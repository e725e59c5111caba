import { SqliteResponseCache } from '../../cache/sqlite-response-cache.js';
import type { ModelBackend } from '../backend.js';
import { ChatBackend } from './chat-backend.js';
import { CompletionsBackend } from './completions-backend.js';
import { parseHttpModelArgs } from './model-args.js';

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

/** Checks `--model_args` of an HTTP backend as creating it would, without creating it. */
export function validateHttpModelArgs(name: HttpModelName, raw: Record<string, unknown>): void {
  parseHttpModelArgs(raw, { backend: name, ...DEFAULTS[name] });
}

/** Builds an HTTP backend; `cachePath` (`--use_cache`) puts a SQLite response cache inside its client. */
export function createHttpBackend(
  name: HttpModelName,
  raw: Record<string, unknown>,
  cachePath?: string,
): ModelBackend {
  const defaults = DEFAULTS[name];
  const args = parseHttpModelArgs(raw, { backend: name, ...defaults });
  const cache = cachePath ? new SqliteResponseCache(cachePath) : undefined;
  return defaults.chat ? new ChatBackend(name, args, cache) : new CompletionsBackend(name, args, cache);
}
