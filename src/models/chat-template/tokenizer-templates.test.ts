import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatTemplates } from './chat-templates.js';
import { findChatTemplates } from './find-templates.js';
import { readTokenizerTemplates } from './tokenizer-templates.js';

/** transformers' layouts of a saved tokenizer (tokenization_utils_base.py `_from_pretrained`, `save_pretrained`). */
function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'assay-tokenizer-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}
const rules = { variables: {}, retryWithoutSystem: false, backend: 'local-completions' };

describe('chat templates of a tokenizer folder', () => {
  it('reads chat_template of tokenizer_config.json, special tokens as strings (an AddedToken by its content)', () => {
    const dir = folder({
      'tokenizer_config.json': {
        chat_template: '{{ bos_token }}x',
        added_tokens_decoder: {},
        bos_token: { __type: 'AddedToken', content: '<s>', lstrip: false },
        eos_token: '</s>',
        pad_token: null,
        additional_special_tokens: ['<a>', { content: '<b>' }],
      },
    });
    expect(readTokenizerTemplates(dir)).toEqual({
      origin: path.join(dir, 'tokenizer_config.json'),
      templates: { default: '{{ bos_token }}x' },
      specialTokens: { bos_token: '<s>', eos_token: '</s>', additional_special_tokens: ['<a>', '<b>'] },
    });
  });

  it('chat_template.jinja replaces the config template; chat_templates/NAME.jinja adds named ones', () => {
    const dir = folder({
      'tokenizer_config.json': { chat_template: 'old', eos_token: '</s>' },
      'chat_template.jinja': 'new',
      'chat_templates/tool_use.jinja': 'tools',
    });
    const source = readTokenizerTemplates(dir);
    expect(source?.templates).toEqual({ default: 'new', tool_use: 'tools' });
    expect(source?.origin).toBe(path.join(dir, 'chat_template.jinja'));
    const templates = new ChatTemplates(source as NonNullable<typeof source>, rules);
    expect(templates.chatTemplate()).toBe('new');
    expect(templates.chatTemplate('tool_use')).toBe('tools');
  });

  it('a list of named templates without "default" needs a name, and says which there are', () => {
    const dir = folder({
      'tokenizer_config.json': {
        chat_template: [
          { name: 'rag', template: 'R' },
          { name: 'tool_use', template: 'T' },
        ],
      },
    });
    const templates = new ChatTemplates(readTokenizerTemplates(dir) as never, rules);
    expect(() => templates.chatTemplate()).toThrow(
      'has several chat templates and none named "default"; name one with applyChatTemplate ("rag", "tool_use")',
    );
    expect(templates.chatTemplate('rag')).toBe('R');
    expect(() => templates.chatTemplate('default')).toThrow(
      'has no chat template of that name; it has "rag", "tool_use"',
    );
  });

  it('special_tokens_map.json wins only in the legacy layout (a config without added_tokens_decoder)', () => {
    const legacy = folder({
      'tokenizer_config.json': { chat_template: 'x', bos_token: '<old>', eos_token: '</s>' },
      'special_tokens_map.json': { bos_token: { content: '<new>' } },
    });
    expect(readTokenizerTemplates(legacy)?.specialTokens).toEqual({ bos_token: '<new>', eos_token: '</s>' });
    const modern = folder({
      'tokenizer_config.json': { chat_template: 'x', added_tokens_decoder: {}, bos_token: '<old>' },
      'special_tokens_map.json': { bos_token: '<new>' },
    });
    expect(readTokenizerTemplates(modern)?.specialTokens).toEqual({ bos_token: '<old>' });
  });

  it('a folder without a template gives none; a broken config names its file', () => {
    expect(
      readTokenizerTemplates(folder({ 'tokenizer_config.json': { eos_token: '</s>' } })),
    ).toBeUndefined();
    const broken = folder({ 'tokenizer_config.json': '{"chat_template": ' });
    expect(() => readTokenizerTemplates(broken)).toThrow(
      `${path.join(broken, 'tokenizer_config.json')}: not valid JSON`,
    );
    const wrong = folder({ 'tokenizer_config.json': { chat_template: 3 } });
    expect(() => readTokenizerTemplates(wrong)).toThrow(/tokenizer_config\.json: chat_template: /);
  });
});

describe("finding a backend's templates", () => {
  it('a broken tokenizer folder does not stop the backend: it is the reason a chat-templated run stops', () => {
    const broken = folder({ 'tokenizer_config.json': '{"chat_template": ' });
    const lookup = findChatTemplates([{ name: broken, namedBy: 'model' }], rules);
    // The JSON error's wording is Node's.
    expect('missing' in lookup && lookup.missing).toMatch(
      new RegExp(
        `^model=${broken}: ${path.join(broken, 'tokenizer_config.json')}: not valid JSON: .+; name a tokenizer folder that has one with tokenizer=$`,
      ),
    );
  });

  it('the first candidate with a template wins: the tokenizer named, then the model', () => {
    const empty = folder({ 'tokenizer_config.json': { eos_token: '</s>' } });
    const model = folder({ 'chat_template.jinja': 'T' });
    const lookup = findChatTemplates(
      [
        { name: empty, namedBy: 'tokenizer' },
        { name: model, namedBy: 'pretrained' },
      ],
      rules,
    );
    expect('templates' in lookup && lookup.templates.chatTemplate()).toBe('T');
  });
});

describe('a folder the tokenizer code resolved', () => {
  it('is read as given, whatever the name says', () => {
    const resolved = folder({ 'chat_template.jinja': 'R' });
    const lookup = findChatTemplates([{ name: 'org/model', namedBy: 'model', folder: resolved }], rules);
    expect('templates' in lookup && lookup.templates.source.origin).toBe(
      path.join(resolved, 'chat_template.jinja'),
    );
  });
});
