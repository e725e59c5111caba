/**
 * Reasoning models through the served backends, against a loopback stand-in (fakes/reasoning-server.ts):
 * where think_end_token applies and which stop strings the server gets (lm-eval's vllm and sglang
 * backends differ), token ids, reasoning fields of chat answers, and reasoning tokens in usage.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, Generation } from '../src/models/backend.js';
import { createHttpBackend, openHttpBackend } from '../src/models/http/create.js';
import { createManagedBackend } from '../src/models/managed-server/managed-backend.js';
import { checkModelArgs } from '../src/models/registry.js';
import { type ReasoningServer, startReasoningServer } from './fakes/reasoning-server.js';

const UNTIL = ['\n\n', 'Question:'];
const request = (context: string, maxGenToks = 64): GenerateRequest => ({
  context,
  until: UNTIL,
  maxGenToks,
  temperature: 0,
  doSample: false,
  extra: {},
});

// "\n\n" occurs inside the thinking, as it does in real reasoning traces.
const THOUGHT =
  '<think>First 20 + 20 = 40.\n\nThen #### 99? No, plus 2.</think>\n\nThe total is 42.\n\nQuestion: next';
const LONG = `<think>${'counting sheep '.repeat(40)}`;

let server: ReasoningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function outputs(prompt: string): string {
  if (prompt.includes('long')) return LONG;
  if (prompt.includes('plain')) return 'The total is 42.';
  return THOUGHT;
}

describe('think_end_token on completions backends', () => {
  it('local-completions and vllm send no stop strings and cut the answer at them after the thinking', async () => {
    server = await startReasoningServer({ generate: outputs, mode: 'think-tags' });
    for (const make of [
      () =>
        createHttpBackend('local-completions', {
          // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
          tokenized_requests: false,
          model: 'reasoner',
          base_url: server?.completionsUrl,
          think_end_token: '</think>',
        }),
      () =>
        createManagedBackend('vllm', {
          base_url: server?.url,
          pretrained: 'reasoner',
          think_end_token: '</think>',
          tokenizer_backend: null,
        }),
    ]) {
      const backend = await make();
      const before = server.bodies.length;
      const [answer] = (await backend.generate({
        requests: [request('Question: sum?\nAnswer:')],
      })) as string[];
      // lm-eval's vllm rule (vllm_causallms.py generate_until): the server gets no task stops, and
      // postprocess_generated_text strips through the last </think>, left-strips, then cuts at "\n\n".
      expect(answer).toBe('The total is 42.');
      expect(server.bodies.slice(before).map((body) => body.stop)).toEqual([undefined]);
      await backend.close?.();
    }
  });

  it('sglang sends the stop strings to the server, as lm-eval’s sglang backend does', async () => {
    server = await startReasoningServer({ generate: outputs, mode: 'think-tags' });
    const backend = await createManagedBackend('sglang', {
      base_url: server.url,
      pretrained: 'reasoner',
      think_end_token: '</think>',
      tokenizer_backend: null,
    });
    const [answer] = (await backend.generate({ requests: [request('Question: sum?\nAnswer:')] })) as string[];
    expect(server.bodies.at(-1)?.stop).toEqual(UNTIL);
    // The server stopped at the "\n\n" inside the thinking: no end token, so the text is kept
    // (sglang_causallms.py generate_until → postprocess_generated_text).
    expect(answer).toBe('<think>First 20 + 20 = 40.');
    await backend.close?.();
  });

  it('keeps the raw generation and marks thinking cut off by max_gen_toks', async () => {
    server = await startReasoningServer({ generate: outputs, mode: 'think-tags' });
    const backend = createHttpBackend('local-completions', {
      // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
      tokenized_requests: false,
      model: 'reasoner',
      base_url: server.completionsUrl,
      think_end_token: '</think>',
    });
    const [done, long, plain, deepseek, qwenOff] = (await backend.generateWithLogprobs({
      requests: [
        request('Question: sum?\nAnswer:'),
        request('Question: long?\nAnswer:', 20),
        request('Question: plain?\nAnswer:', 3),
        // A prompt that opened the thinking (DeepSeek-R1's template), cut off at 5 tokens.
        request('<|Assistant|><think>\nplain', 5),
        // A prompt that closed it (Qwen3 with enable_thinking=false): an answer cut short, not thinking.
        request('<|im_start|>assistant\n<think>\n\n</think>\n\nplain', 5),
      ],
    })) as Generation[];
    expect(done.thinking).toEqual({ raw: THOUGHT, truncated: false });
    const cut = LONG.match(/\s+|\S+/g)
      ?.slice(0, 20)
      .join('') as string;
    expect(long).toMatchObject({ text: cut, thinking: { raw: cut, truncated: true } });
    // Cut at max_gen_toks with no thinking anywhere: not thinking.
    expect(plain).toMatchObject({ text: 'The total', thinking: { raw: 'The total', truncated: false } });
    expect(deepseek.thinking).toEqual({ raw: 'The total is', truncated: true });
    expect(qwenOff.thinking).toEqual({ raw: 'The total is', truncated: false });
    await backend.close();
  });

  it('reads a token id through the server’s /detokenize', async () => {
    server = await startReasoningServer({ generate: outputs, mode: 'think-tags' });
    const backend = await openHttpBackend('local-completions', {
      model: 'reasoner',
      base_url: server.completionsUrl,
      // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
      tokenizer_backend: 'remote',
      tokenized_requests: true,
      think_end_token: 151668,
    });
    expect(await backend.generate({ requests: [request('Question: sum?\nAnswer:')] })).toEqual([
      'The total is 42.',
    ]);
    await backend.close();
  });

  it('refuses a token id where no tokenizer can read it, before any request', async () => {
    await expect(
      checkModelArgs('local-chat-completions', {
        model: 'm',
        base_url: 'http://127.0.0.1:1/v1/chat/completions',
        think_end_token: 151668,
      }),
    ).rejects.toThrow(
      /local-chat-completions: think_end_token=151668 is a token id, which needs a tokenizer to read it \(a chat endpoint has none\)/,
    );
    await expect(
      checkModelArgs('local-completions', {
        model: 'm',
        base_url: 'http://127.0.0.1:1/v1/completions',
        // Text prompts: lm-eval's default (tokenizer_backend=auto, tokenized_requests=True) has a tokenizer.
        tokenized_requests: false,
        think_end_token: 151668,
      }),
    ).rejects.toThrow(
      /think_end_token=151668 is a token id, which needs a tokenizer .*tokenized_requests=true/,
    );
    await expect(
      checkModelArgs('local-completions', {
        model: 'm',
        base_url: 'http://127.0.0.1:1/v1/completions',
        think_end_token: '',
      }),
    ).rejects.toThrow(/think_end_token: think_end_token is empty/);
  });
});

/** A chat backend asks the sum question (answered) and the long one (20 tokens, all thinking). */
async function askChat(at: ReasoningServer) {
  const backend = createHttpBackend('local-chat-completions', { model: 'reasoner', base_url: at.chatUrl });
  const [done, long] = (await backend.generateWithLogprobs({
    requests: [
      { ...request('sum?'), until: ['Question:'] },
      { ...request('long?', 20), until: ['Question:'] },
    ],
  })) as Generation[];
  return { backend, done, long };
}

describe('chat answers with a reasoning field', () => {
  it.each([
    ['reasoning_content', 'top-level'],
    ['reasoning', 'completion_tokens_details'],
  ] as const)(
    '%s: the answer is content, the reasoning goes beside it, and usage counts its tokens (%s)',
    async (field, place) => {
      server = await startReasoningServer({
        generate: outputs,
        mode: 'reasoning-parser',
        reasoningField: field,
        reasoningUsage: place,
      });
      const { backend, done, long } = await askChat(server);
      // The server split "<think>…</think>" off: content is what follows, cut at the stops.
      expect(done).toEqual({
        text: '\n\nThe total is 42.\n\n',
        logprobs: null,
        thinking: { reasoning: 'First 20 + 20 = 40.\n\nThen #### 99? No, plus 2.', truncated: false },
      });
      // All 20 tokens went to reasoning: content null, the answer "" (lm-eval's
      // LMEVAL_MODEL_NONE_ANSWER_PLACEHOLDER default), counted as truncated thinking.
      const cut = LONG.match(/\s+|\S+/g)
        ?.slice(0, 20)
        .join('') as string;
      expect(long).toEqual({
        text: '',
        logprobs: null,
        thinking: { reasoning: cut.slice('<think>'.length), truncated: true },
      });
      // Token counts as the server reported them (its tokens: runs of spaces or of other characters):
      // 32 and 20 generated, of which 23 and 20 reasoning.
      expect(backend.usage()).toMatchObject({ tokensOut: 32 + 20, reasoningTokens: 23 + 20 });
      await backend.close();
    },
  );

  it('a server that hides the reasoning but counts its tokens (OpenAI’s o-series): truncation still told', async () => {
    server = await startReasoningServer({ generate: outputs, mode: 'hidden-reasoning' });
    const { backend, done, long } = await askChat(server);
    expect(done).toEqual({
      text: '\n\nThe total is 42.\n\n',
      logprobs: null,
      thinking: { truncated: false },
    });
    expect(long).toEqual({ text: '', logprobs: null, thinking: { truncated: true } });
    expect(backend.usage()).toMatchObject({ reasoningTokens: 23 + 20 });
    await backend.close();
  });
});
