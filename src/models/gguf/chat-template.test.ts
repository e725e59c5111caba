import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGgufBackend } from './create.js';
import type { GgufBackend } from './gguf-backend.js';
import { asciiCharPieces, buildSpmVocab, randomLlamaGguf } from './llama-model.js';
import { writeGguf } from './writer.js';

/**
 * GGUF chat templates: `tokenizer.chat_template` is the default, llama.cpp's `tokenizer.chat_template.NAME`
 * the named ones; the model's BOS/EOS texts and the model args enable_thinking / chat_template_args are
 * template variables; a template that raises on the system message is rendered again without it (lm-eval's
 * hf/vllm rule), with a warning.
 */
const GEMMA_LIKE =
  "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}|{{ enable_thinking }}|{{ extra }}|{{ eos_token }}";
const PLAIN =
  '{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}';

const vocab = buildSpmVocab(asciiCharPieces());
const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-gguf-chat-'));
const modelPath = path.join(directory, 'chat.gguf');
await writeFile(
  modelPath,
  writeGguf(randomLlamaGguf({ seed: 3, chatTemplate: GEMMA_LIKE, namedChatTemplates: { plain: PLAIN } })),
);
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('gguf chat templates from the file metadata', () => {
  let backend: GgufBackend;
  beforeAll(async () => {
    backend = await createGgufBackend({
      model: modelPath,
      threads: 1,
      enable_thinking: false,
      chat_template_args: '{"extra": "from args", "enable_thinking": true}',
    });
  });
  afterAll(() => backend?.close());

  it('declares the capability and records where the templates came from', () => {
    expect(backend.capabilities.chatTemplate).toBe(true);
    expect(backend.info().chatTemplateSource).toBe(
      'the GGUF metadata of chat.gguf (tokenizer.chat_template)',
    );
    expect(backend.chatTemplate()).toBe(GEMMA_LIKE);
    expect(backend.chatTemplate('plain')).toBe(PLAIN);
  });

  it('refuses a template name the file does not have, naming the ones it has', () => {
    expect(() => backend.chatTemplate('tool_use')).toThrow(
      /no chat template of that name; it has "default", "plain"/,
    );
  });

  it('passes BOS/EOS and the model args as variables, the explicit enable_thinking winning', () => {
    const bos = vocab.tokens[vocab.bos];
    const eos = vocab.tokens[vocab.eos];
    expect(backend.applyChatTemplate([{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true })).toBe(
      `${bos}<user>Hi|False|from args|${eos}`,
    );
  });

  it('renders again without the system message when the template raises, and says so', () => {
    const warnings: string[] = [];
    const text = backend.applyChatTemplate(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      { addGenerationPrompt: true, warn: (message) => warnings.push(message) },
    );
    expect(text).toBe(`${vocab.tokens[vocab.bos]}<user>Hi|False|from args|${vocab.tokens[vocab.eos]}`);
    expect(warnings).toEqual([
      'chat template "default" of the GGUF metadata of chat.gguf (tokenizer.chat_template) raised "System role not supported"; rendering again without the system message, as lm-eval\'s hf backend does',
    ]);
  });

  it('renders a named template, ending inside a final assistant message without a generation prompt', () => {
    expect(
      backend.applyChatTemplate(
        [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: 'The answer is' },
        ],
        { addGenerationPrompt: false, templateName: 'plain' },
      ),
    ).toBe('[user] Q\n[assistant] The answer is');
  });

  it('scores a rendered prompt with its special tokens parsed and no second BOS; other texts as before', async () => {
    const bos = vocab.tokens[vocab.bos];
    const eos = vocab.tokens[vocab.eos];
    const prompt = backend.applyChatTemplate([{ role: 'user', content: 'Hi' }], {
      addGenerationPrompt: true,
    });
    expect(prompt.startsWith(bos) && prompt.endsWith(eos)).toBe(true);
    // As a Hugging Face tokenizer reads it: "<s>" is BOS (one, not two), "</s>" is EOS, the rest characters.
    const middle = await backend.tokenize(prompt.slice(bos.length, -eos.length));
    const continuation = await backend.tokenize(' yes');
    const context = [vocab.bos, ...middle, vocab.eos];
    const [reference] = await backend.scoreTokenWindows({
      requests: [{ tokens: [...context, ...continuation], scoreFrom: context.length }],
    });
    const [scored] = await backend.loglikelihood({ requests: [{ context: prompt, continuation: ' yes' }] });
    expect(scored.logprob).toBeCloseTo(
      reference.reduce((a, b) => a + b, 0),
      6,
    );

    // A text no template rendered keeps llama.cpp's plain reading: BOS added, "<s>" as characters.
    const plain = `x${bos}y`;
    const plainTokens = [vocab.bos, ...(await backend.tokenize(plain))];
    const [plainReference] = await backend.scoreTokenWindows({
      requests: [{ tokens: [...plainTokens, ...continuation], scoreFrom: plainTokens.length }],
    });
    const [plainScored] = await backend.loglikelihood({
      requests: [{ context: plain, continuation: ' yes' }],
    });
    expect(plainScored.logprob).toBeCloseTo(
      plainReference.reduce((a, b) => a + b, 0),
      6,
    );
  });
});
