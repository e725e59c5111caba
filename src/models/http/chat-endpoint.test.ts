import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../backend.js';
import { chatAnswer, chatGeneration, parseChatResponse, toMessages } from './chat-endpoint.js';
import { ResponseShapeError } from './http-client.js';

/**
 * The /v1/chat/completions strategy against the shapes OpenAI documents (`choices[].message.content`,
 * `logprobs.content[].{token, logprob}`, `finish_reason`, `usage.completion_tokens_details.reasoning_tokens`)
 * and vLLM's reasoning parsers (`message.reasoning_content`, newer `message.reasoning`).
 */
function request(context: string, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  return { context, until: ['\n\n'], maxGenToks: 64, temperature: 0, doSample: false, extra: {}, ...extra };
}

function chatBody(message: Record<string, unknown>, more: Record<string, unknown> = {}, usage?: unknown) {
  return {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741570283,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop', ...more }],
    ...(usage === undefined ? {} : { usage }),
  };
}

const local = { model: 'Qwen/Qwen3-8B', seed: 1234, logprobs: true, openai: false };

describe('chat generation: payload', () => {
  it('sends the rendered messages, max_tokens, at most 4 stop strings and the task’s other kwargs', async () => {
    const messages = [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Capital of France?' },
    ];
    const payload = await chatGeneration(local).payload([
      request(JSON.stringify(messages), {
        until: ['\n\n', 'Q:', '</s>', '<|im_end|>', 'User:'],
        extra: { do_sample: false, top_p: 0.95 },
      }),
    ]);
    expect(payload).toEqual({
      model: 'Qwen/Qwen3-8B',
      messages,
      max_tokens: 64,
      temperature: 0,
      stop: ['\n\n', 'Q:', '</s>', '<|im_end|>'],
      seed: 1234,
      logprobs: true,
      top_p: 0.95,
    });
  });

  it('names the cap max_completion_tokens for OpenAI’s API and sends no stop field without stops', async () => {
    const payload = await chatGeneration({ ...local, openai: true, logprobs: false }).payload([
      request('Hi', { until: [] }),
    ]);
    expect(payload).toEqual({
      model: 'Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 64,
      temperature: 0,
      seed: 1234,
    });
  });

  it('sends one conversation per HTTP request', () => {
    const batches = chatGeneration(local).batches([request('a'), request('a'), request('b')]);
    expect([...{ [Symbol.iterator]: () => batches }]).toEqual([[0], [1], [2]]);
  });

  it('reads a JSON message list as messages and anything else as one user turn', () => {
    expect(toMessages('[{"role":"user","content":"x"}]')).toEqual([{ role: 'user', content: 'x' }]);
    expect(toMessages('[1, 2] is a list')).toEqual([{ role: 'user', content: '[1, 2] is a list' }]);
    expect(toMessages('[{"role":"tool","content":"x"}]')).toEqual([
      { role: 'user', content: '[{"role":"tool","content":"x"}]' },
    ]);
  });
});

describe('chat generation: parse and answer', () => {
  it('answers the content cut at the stop strings the server was not sent, with the kept tokens', () => {
    const response = parseChatResponse(
      chatBody(
        { content: 'Paris.\n\nUser: next' },
        {
          logprobs: {
            content: [
              { token: 'Paris', logprob: -0.01, bytes: [80, 97, 114, 105, 115], top_logprobs: [] },
              { token: '.', logprob: -0.2, bytes: [46], top_logprobs: [] },
              { token: '\n\n', logprob: -0.3, bytes: [10, 10], top_logprobs: [] },
              { token: 'User', logprob: -2, bytes: [85, 115, 101, 114], top_logprobs: [] },
            ],
          },
        },
        { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
      ),
    );
    expect(chatAnswer(response, request('q'), undefined)).toEqual({
      text: 'Paris.',
      logprobs: { tokens: ['Paris', '.'], logprobs: [-0.01, -0.2] },
    });
    expect(chatGeneration(local).tokens(response)).toEqual({ in: 19, out: 10 });
  });

  it('keeps a reasoning field beside the answer, never in it (vLLM’s reasoning_content and reasoning)', () => {
    for (const field of ['reasoning_content', 'reasoning']) {
      const response = parseChatResponse(chatBody({ content: '4', [field]: '2+2 is 4.' }));
      expect(chatAnswer(response, request('2+2='), undefined)).toEqual({
        text: '4',
        logprobs: null,
        thinking: { reasoning: '2+2 is 4.', truncated: false },
      });
    }
  });

  it('with null content after reasoning that used every token: an empty answer marked truncated', () => {
    const response = parseChatResponse(
      chatBody({ content: null, reasoning_content: 'Let me count...' }, { finish_reason: 'length' }),
    );
    expect(chatAnswer(response, request('q'), undefined)).toEqual({
      text: '',
      logprobs: null,
      thinking: { reasoning: 'Let me count...', truncated: true },
    });
  });

  it('hidden reasoning (OpenAI’s o-series counts it in usage only) is recorded as thinking', () => {
    const response = parseChatResponse(
      chatBody(
        { content: '' },
        { finish_reason: 'length' },
        {
          prompt_tokens: 10,
          completion_tokens: 64,
          completion_tokens_details: { reasoning_tokens: 64 },
        },
      ),
    );
    expect(chatAnswer(response, request('q'), undefined)).toEqual({
      text: '',
      logprobs: null,
      thinking: { truncated: true },
    });
  });

  it('with think_end_token answers what follows it, keeping the raw content', () => {
    const raw = '<think>\n2 and 2 make 4\n</think>\n\n4';
    const response = parseChatResponse(chatBody({ content: raw }));
    expect(chatAnswer(response, request('q'), '</think>')).toEqual({
      text: '4',
      logprobs: null,
      thinking: { raw, truncated: false },
    });
  });

  it('refuses no choice, two choices, and content that is not text without reasoning', () => {
    expect(() => parseChatResponse({ choices: [] })).toThrow(
      new ResponseShapeError('malformed chat response: choices: expected exactly 1 choice'),
    );
    const two = chatBody({ content: 'a' });
    two.choices.push({ ...two.choices[0], index: 1 });
    expect(() => parseChatResponse(two)).toThrow(/expected exactly 1 choice/);
    let thrown: unknown;
    try {
      parseChatResponse(chatBody({ content: null }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ResponseShapeError);
    expect((thrown as ResponseShapeError).kind).toBe('bad answer');
    expect((thrown as Error).message).toBe(
      'message.content is null, not a string: the server generated no text',
    );
  });
});
