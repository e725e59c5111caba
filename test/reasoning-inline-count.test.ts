/**
 * Red team (issue 27, "truncated thinking is counted"): a chat server that returns the thinking inline in
 * `content` (no reasoning parser: llama-server's reasoning_format none, a vLLM without --reasoning-parser)
 * and still reports `usage.completion_tokens_details.reasoning_tokens`. With think_end_token given, the
 * generation that hit max_tokens inside `<think>` must count as truncated thinking, as docs/reasoning-models.md
 * says: "with think_end_token: it hit the limit, the end token is not in it, and the thinking was open,
 * i.e. the generation holds the start tag". The answer itself is lm-eval's (postprocess_generated_text keeps
 * a generation without the end token whole, left-stripped).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Generation } from '../src/models/backend.js';
import { createHttpBackend } from '../src/models/http/create.js';

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chat-1',
          object: 'chat.completion',
          model: 'reasoner',
          // The thinking ran out of tokens: no </think>, finish_reason length.
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: '<think>Maybe #### 3, or' },
              finish_reason: 'length',
            },
          ],
          usage: {
            prompt_tokens: 10,
            completion_tokens: 8,
            total_tokens: 18,
            completion_tokens_details: { reasoning_tokens: 8 },
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('counts a generation cut off inside <think> as truncated when the server also reports reasoning tokens', async () => {
  const backend = createHttpBackend('local-chat-completions', {
    model: 'reasoner',
    base_url: url,
    think_end_token: '</think>',
  });
  const [answer] = (await backend.generateWithLogprobs({
    requests: [
      { context: 'q?', until: ['Question:'], maxGenToks: 8, temperature: 0, doSample: false, extra: {} },
    ],
  })) as Generation[];
  expect(answer.text).toBe('<think>Maybe #### 3, or');
  expect(answer.thinking).toEqual({ raw: '<think>Maybe #### 3, or', truncated: true });
  await backend.close();
});
