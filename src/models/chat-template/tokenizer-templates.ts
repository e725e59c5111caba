/**
 * The chat templates and special tokens of a tokenizer folder, read as transformers'
 * `AutoTokenizer.from_pretrained` reads them (tokenization_utils_base.py `_from_pretrained`):
 *   - `chat_template.jinja` (transformers ≥ 4.43 saves the template there) replaces any `chat_template`
 *     of tokenizer_config.json, which is a string or a list of `{name, template}`;
 *   - `chat_templates/NAME.jinja` add named templates, the single one becoming `default`;
 *   - special tokens (`bos_token`, `eos_token`, `unk_token`, `sep_token`, `pad_token`, `cls_token`,
 *     `mask_token`, `additional_special_tokens`) from tokenizer_config.json, a string or an AddedToken
 *     object's `content`; a config without `added_tokens_decoder` (the legacy layout) takes
 *     special_tokens_map.json's values over its own. A token the tokenizer class defaults but neither file
 *     names is not set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AssayError } from '../../errors.js';
import type { ChatTemplateSource } from './chat-templates.js';

const SPECIAL_TOKENS = [
  'bos_token',
  'eos_token',
  'unk_token',
  'sep_token',
  'pad_token',
  'cls_token',
  'mask_token',
] as const;

const token = z.union([z.string(), z.object({ content: z.string() }).passthrough(), z.null()]);
const tokenFile = z
  .object({
    chat_template: z
      .union([z.string(), z.array(z.object({ name: z.string(), template: z.string() })), z.null()])
      .optional(),
    added_tokens_decoder: z.unknown().optional(),
    additional_special_tokens: z.array(token).nullable().optional(),
    ...Object.fromEntries(SPECIAL_TOKENS.map((name) => [name, token.optional()])),
  })
  .passthrough();
type TokenFile = z.infer<typeof tokenFile>;

function readJson(file: string): TokenFile | undefined {
  if (!existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AssayError('bad_model_file', `${file}: not valid JSON: ${(error as Error).message}`, {
      cause: error,
      location: { file },
    });
  }
  const parsed = tokenFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AssayError('bad_model_file', `${file}: ${issue.path.join('.')}: ${issue.message}`, {
      location: { file, field: issue.path.join('.') },
    });
  }
  return parsed.data;
}

function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'content' in value) return String(value.content);
  return undefined;
}

function specialTokens(
  config: TokenFile | undefined,
  map: TokenFile | undefined,
): Record<string, string | string[]> {
  const sources = config?.added_tokens_decoder === undefined ? [config, map] : [config];
  const out: Record<string, string | string[]> = {};
  for (const source of sources) {
    if (!source) continue;
    for (const name of SPECIAL_TOKENS) {
      if (!(name in source)) continue;
      const text = tokenText(source[name]);
      if (text === undefined) delete out[name];
      else out[name] = text;
    }
    if (Array.isArray(source.additional_special_tokens)) {
      out.additional_special_tokens = source.additional_special_tokens
        .map(tokenText)
        .filter((text): text is string => text !== undefined);
    }
  }
  return out;
}

/** Where templates are looked for in a folder, in transformers' order; for messages. */
export function templateFilesOf(folder: string): string[] {
  return [
    path.join(folder, 'chat_template.jinja'),
    path.join(folder, 'chat_templates', '*.jinja'),
    path.join(folder, 'tokenizer_config.json'),
  ];
}

/** The folder's chat templates, or undefined when it has none. */
export function readTokenizerTemplates(folder: string): ChatTemplateSource | undefined {
  const configFile = path.join(folder, 'tokenizer_config.json');
  const config = readJson(configFile);
  const map = readJson(path.join(folder, 'special_tokens_map.json'));
  const templates: Record<string, string> = {};
  let origin = configFile;
  const single = path.join(folder, 'chat_template.jinja');
  if (existsSync(single)) {
    templates.default = readFileSync(single, 'utf8');
    origin = single;
  } else if (typeof config?.chat_template === 'string') {
    templates.default = config.chat_template;
  } else if (Array.isArray(config?.chat_template)) {
    for (const entry of config.chat_template) templates[entry.name] = entry.template;
  }
  const named = path.join(folder, 'chat_templates');
  if (existsSync(named)) {
    for (const file of readdirSync(named).sort()) {
      if (!file.endsWith('.jinja')) continue;
      templates[file.slice(0, -'.jinja'.length)] = readFileSync(path.join(named, file), 'utf8');
      if (origin === configFile) origin = named;
    }
  }
  if (Object.keys(templates).length === 0) return undefined;
  return { origin, templates, specialTokens: specialTokens(config, map) };
}
