/**
 * `applyChatTemplate` end to end against a loopback OpenAI server that records what it receives: the
 * prompt assay sends for a chat-templated loglikelihood or generation task must equal Python jinja2's
 * rendering (test/fixtures/chat-templates/render_jinja2.py, transformers' settings) of the messages lm-eval
 * builds for the doc (lm_eval/api/task.py `fewshot_context` / `build_qa_turn`, written out here by hand),
 * with the continuation appended for loglikelihood.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';
import { createHttpBackend } from '../src/models/http/create.js';
import { startTestServer, type TestServer } from './fakes/openai-server.js';
import { readJson, tempDir } from './support/helpers.js';
import { requireComponent } from './support/require-component.js';

const fixtures = path.resolve(import.meta.dirname, 'fixtures/chat-templates');
const template = (file: string) => readFileSync(path.join(fixtures, file), 'utf8');

type Message = { role: 'system' | 'user' | 'assistant'; content: string };
interface RenderCase {
  template: string;
  messages: Message[];
  add_generation_prompt: boolean;
  variables: Record<string, unknown>;
  fallback_without_system?: boolean;
}

function pythonWithJinja2(): string | undefined {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(candidate, ['-c', 'import jinja2'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}
const python = pythonWithJinja2();

/** Python jinja2's rendering under transformers' settings (now: the wall clock's date, as assay's). */
function jinja2(cases: RenderCase[]): Array<{ text: string; fallback: boolean }> {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T00:00:00`;
  const output = execFileSync(python as string, [path.join(fixtures, 'render_jinja2.py')], {
    input: JSON.stringify({ now: stamp, cases }),
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

let server: TestServer;
const bodies: Array<{ route: string; body: Record<string, unknown> }> = [];
let root: string;
let mcTask: string;
let genTask: string;
const llama = () => path.join(root, 'llama-3.1');
const qwen3 = () => path.join(root, 'qwen3');
const gemma = () => path.join(root, 'gemma-2');
const bare = () => path.join(root, 'no-template');

beforeAll(async () => {
  server = await startTestServer({}, 1, { onRequest: (route, body) => bodies.push({ route, body }) });
  root = tempDir('assay-chat-template-');
  const data = path.join(root, 'data');
  mkdirSync(data);
  const jsonl = (rows: object[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
  writeFileSync(
    path.join(data, 'train.jsonl'),
    jsonl([{ question: 'What is H2O?', answer: 1, text: 'Water.' }]),
  );
  writeFileSync(
    path.join(data, 'test.jsonl'),
    jsonl([
      { question: 'Which gas do plants release?', answer: 0, text: 'Oxygen.' },
      { question: 'What does «pH» measure?', answer: 0, text: 'Acidity.' },
    ]),
  );
  const common = [
    'dataset_path: json',
    'dataset_kwargs:',
    '  data_files:',
    `    train: ${path.join(data, 'train.jsonl')}`,
    `    test: ${path.join(data, 'test.jsonl')}`,
    'test_split: test',
    'fewshot_split: train',
    'num_fewshot: 1',
    'description: "Pick the letter."',
    'doc_to_text: "Question: {{question}}\\nAnswer:"',
  ];
  mcTask = path.join(root, 'chat_mc.yaml');
  writeFileSync(
    mcTask,
    [
      'task: chat_mc',
      ...common,
      'output_type: multiple_choice',
      'doc_to_choice: ["A", "B"]',
      'doc_to_target: answer',
    ].join('\n'),
  );
  genTask = path.join(root, 'chat_gen.yaml');
  writeFileSync(
    genTask,
    [
      'task: chat_gen',
      ...common,
      'output_type: generate_until',
      'doc_to_target: text',
      'generation_kwargs:',
      '  until: ["\\n\\n"]',
      '  max_gen_toks: 8',
      'metric_list:',
      '  - metric: exact_match',
    ].join('\n'),
  );
  // Three tokenizer folders in transformers' layouts, and one without a template.
  mkdirSync(llama());
  writeFileSync(
    path.join(llama(), 'tokenizer_config.json'),
    JSON.stringify({
      added_tokens_decoder: {},
      bos_token: '<|begin_of_text|>',
      eos_token: { content: '<|eot_id|>', lstrip: false, rstrip: false, normalized: false, special: true },
      pad_token: null,
      chat_template: template('meta-llama-Llama-3.1-8B-Instruct.jinja'),
    }),
  );
  mkdirSync(qwen3());
  writeFileSync(path.join(qwen3(), 'chat_template.jinja'), template('Qwen-Qwen3-0.6B.jinja'));
  writeFileSync(
    path.join(qwen3(), 'tokenizer_config.json'),
    JSON.stringify({
      added_tokens_decoder: {},
      eos_token: '<|im_end|>',
      pad_token: '<|endoftext|>',
      bos_token: null,
    }),
  );
  mkdirSync(gemma());
  writeFileSync(
    path.join(gemma(), 'tokenizer_config.json'),
    JSON.stringify({
      bos_token: '<bos>',
      eos_token: '<eos>',
      chat_template: template('google-gemma-2-2b-it.jinja'),
    }),
  );
  writeFileSync(
    path.join(gemma(), 'special_tokens_map.json'),
    JSON.stringify({ bos_token: { content: '<bos>' } }),
  );
  mkdirSync(bare());
  writeFileSync(path.join(bare(), 'tokenizer_config.json'), JSON.stringify({ eos_token: '</s>' }));
});
afterAll(() => server?.close());

const SYSTEM = 'You are a grader.';
/** lm-eval's messages for doc `index` of these tasks: maybe_delimit(system, description, "\n\n"), one shot, multi-turn. */
function messagesFor(question: string, shotAnswer: string, system = true): Message[] {
  return [
    ...(system ? [{ role: 'system' as const, content: `${SYSTEM}\n\nPick the letter.` }] : []),
    { role: 'user', content: 'Question: What is H2O?\nAnswer:' },
    { role: 'assistant', content: shotAnswer },
    { role: 'user', content: `Question: ${question}\nAnswer:` },
  ];
}

const QUESTIONS = ['Which gas do plants release?', 'What does «pH» measure?'];

/** jinja2's rendering of each test doc's messages under `file` (with a generation prompt). */
function renderedDocs(file: string, shotAnswer: string, variables: Record<string, unknown>, retry = false) {
  return jinja2(
    QUESTIONS.map((question) => ({
      template: template(file),
      messages: messagesFor(question, shotAnswer),
      add_generation_prompt: true,
      variables,
      fallback_without_system: retry,
    })),
  );
}

async function run(model: string, modelArgs: Record<string, unknown>, tasks: string[], extra: object = {}) {
  bodies.length = 0;
  const out = tempDir('assay-chat-out-');
  await evaluate({
    model,
    modelArgs: { base_url: server.completionsUrl, ...modelArgs },
    tasks,
    applyChatTemplate: true,
    fewshotAsMultiturn: true,
    systemInstruction: SYSTEM,
    outputPath: out,
    logSamples: true,
    ...extra,
  });
  return out;
}

/** The prompts the server received on /v1/completions, in any order. */
function sentPrompts(): string[] {
  return bodies
    .filter(({ route }) => route.endsWith('/v1/completions'))
    .flatMap(({ body }) => (Array.isArray(body.prompt) ? body.prompt : [body.prompt]) as string[]);
}

if (requireComponent('python3-jinja2', python !== undefined)) {
  describe('chat-templated prompts equal Python jinja2 under transformers settings', () => {
    it('local-completions, loglikelihood (Llama-3.1 template in tokenizer_config.json): the rendered context, then the choice', async () => {
      const out = await run('local-completions', { model: llama(), tokenized_requests: false }, [mcTask]);
      const contexts = renderedDocs('meta-llama-Llama-3.1-8B-Instruct.jinja', 'B', {
        bos_token: '<|begin_of_text|>',
        eos_token: '<|eot_id|>',
      }).map((result) => result.text);
      // Under a chat template the target delimiter is "" (construct_requests): continuations are "A" and "B".
      const expected = contexts.flatMap((context) => [`${context}A`, `${context}B`]);
      expect([...new Set(sentPrompts())].sort()).toEqual(expected.sort());
      const [file] = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) =>
        /(^|\/)results_[^/]*\.json$/.test(name),
      );
      const results = readJson(path.join(out, file));
      const text = template('meta-llama-Llama-3.1-8B-Instruct.jinja');
      expect(results.chat_template).toBe(text);
      expect(results.chat_template_sha).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      expect(results.model_source).toBe('local-completions');
    });

    it('local-completions, generation (Qwen3 chat_template.jinja, enable_thinking=false): the rendered context and the task until', async () => {
      await run('local-completions', { model: qwen3(), tokenized_requests: false, enable_thinking: false }, [
        genTask,
      ]);
      const expected = renderedDocs('Qwen-Qwen3-0.6B.jinja', 'Water.', {
        eos_token: '<|im_end|>',
        pad_token: '<|endoftext|>',
        enable_thinking: false,
      }).map((result) => result.text);
      expect(expected[0]).toContain('<think>\n\n</think>\n\n');
      expect(sentPrompts().sort()).toEqual(expected.sort());
      const stops = bodies
        .filter(({ route }) => route.endsWith('/v1/completions'))
        .map(({ body }) => body.stop);
      expect(stops).toEqual([['\n\n'], ['\n\n']]);
    });

    it('vllm, generation with enable_thinking=true and think_end_token: the template sees enable_thinking', async () => {
      await run(
        'vllm',
        {
          base_url: server.url,
          pretrained: qwen3(),
          tokenizer_backend: null,
          enable_thinking: true,
          think_end_token: '</think>',
        },
        [genTask],
      );
      const expected = renderedDocs('Qwen-Qwen3-0.6B.jinja', 'Water.', {
        eos_token: '<|im_end|>',
        pad_token: '<|endoftext|>',
        enable_thinking: true,
      }).map((result) => result.text);
      expect(sentPrompts().sort()).toEqual(expected.sort());
    });

    it('vllm: a template that raises on the system message is rendered again without it, with a warning', async () => {
      const warnings: string[] = [];
      await run('vllm', { base_url: server.url, pretrained: gemma(), tokenizer_backend: null }, [mcTask], {
        listener: (event: { type: string; message?: string }) =>
          event.type === 'warning' && warnings.push(event.message as string),
      });
      const results = renderedDocs(
        'google-gemma-2-2b-it.jinja',
        'B',
        { bos_token: '<bos>', eos_token: '<eos>' },
        true,
      );
      expect(results.map((result) => result.fallback)).toEqual([true, true]);
      const expected = results.flatMap(({ text }) => [`${text}A`, `${text}B`]);
      expect([...new Set(sentPrompts())].sort()).toEqual(expected.sort());
      expect(warnings.filter((message) => message.includes('System role not supported'))).toHaveLength(1);
    });
  });
}

describe('chat-template refusals stop the run before any request', () => {
  it('local-completions does not retry a template that raises on the system message (lm-eval TemplateAPI)', async () => {
    await expect(
      run('local-completions', { model: gemma(), tokenized_requests: false }, [mcTask]),
    ).rejects.toThrow(
      /raised: System role not supported \(lm-eval's local-completions backend does not retry without the system message\)/,
    );
    expect(sentPrompts()).toEqual([]);
  });

  it('enable_thinking=true with a loglikelihood task is refused, naming the task', async () => {
    await expect(
      run('local-completions', { model: qwen3(), tokenized_requests: false, enable_thinking: true }, [
        mcTask,
        genTask,
      ]),
    ).rejects.toThrow(
      /enable_thinking=true is not compatible with loglikelihood tasks.*Triggered by task\(s\): chat_mc$/,
    );
    expect(bodies).toEqual([]);
  });

  it('enable_thinking=true is taken with multiple-choice asked by generation (mcMode generate)', async () => {
    await run(
      'local-completions',
      { model: qwen3(), tokenized_requests: false, enable_thinking: true },
      [mcTask],
      {
        mcMode: 'generate',
      },
    );
    const prompts = sentPrompts();
    expect(prompts).toHaveLength(2);
    // Qwen3 with thinking on: no empty <think></think> block after the generation prompt.
    for (const prompt of prompts) expect(prompt.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('a model without a chat template names where it looked', async () => {
    await expect(
      run('local-completions', { model: bare(), tokenized_requests: false }, [mcTask]),
    ).rejects.toThrow(
      `model local-completions has no chat template: model=${bare()}: no chat template in ${path.join(bare(), 'chat_template.jinja')}, ${path.join(bare(), 'chat_templates', '*.jinja')}, ${path.join(bare(), 'tokenizer_config.json')}`,
    );
    expect(sentPrompts()).toEqual([]);
  });

  it('a template name the model does not have lists the ones it has', async () => {
    await expect(
      run('local-completions', { model: llama(), tokenized_requests: false }, [mcTask], {
        applyChatTemplate: 'tool_use',
      }),
    ).rejects.toThrow(`has a single chat template, no named ones`);
    expect(sentPrompts()).toEqual([]);
  });

  it('a chat-completions backend refuses template variables: its server renders its own template', () => {
    expect(() =>
      createHttpBackend('local-chat-completions', {
        model: 'm',
        base_url: server.chatUrl,
        enable_thinking: false,
      }),
    ).toThrow(
      'enable_thinking are chat-template variables, and a chat-completions server renders its own template',
    );
  });
});
