import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greedyContinuation } from '../../test/support/greedy-text.js';
import type { GenerateRequest, LoglikelihoodRequest, ModelBackend } from '../models/backend.js';
import type { TokenGeneration } from '../models/gguf/engine.js';
import { GgufBackend } from '../models/gguf/gguf-backend.js';
import { randomLlamaGguf, seededRandom } from '../models/gguf/llama-model.js';
import { writeGguf } from '../models/gguf/writer.js';
import { createHttpBackend } from '../models/http/create.js';
import { ConcurrencyLimit } from './concurrency.js';
import { type RunningServer, type ServedModel, startServer } from './server.js';

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-serve-'));
const modelPath = path.join(directory, 'served.gguf');
await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 31, chatTemplate: CHATML })));

let backend: GgufBackend;
let server: RunningServer;
beforeAll(async () => {
  backend = await GgufBackend.create({ modelPath, threads: 1, nCtx: 96 });
  server = await startServer({ model: backend, name: 'served', port: 0, concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await backend?.close();
  await rm(directory, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes, checked field by field
type Reply = { status: number; json: any };

async function post(route: string, body: unknown): Promise<Reply> {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

function requests(seed: number, count: number): LoglikelihoodRequest[] {
  const random = seededRandom(seed);
  const alphabet = 'abcdefghij klmnop,.';
  const text = (length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  // Contexts end in a non-space: in text mode the client cannot move a context's trailing whitespace
  // onto the continuation as lm-eval's encode_pair (and the in-process backend) does.
  const contexts = ['Question: 2+2=\nAnswer:', `${text(15)}x`, `${text(30)}y`];
  return Array.from({ length: count }, () => ({
    context: contexts[Math.floor(random() * contexts.length)],
    continuation: ` ${text(1 + Math.floor(random() * 6))}`,
  }));
}

describe('assay serve over HTTP on loopback', () => {
  it('binds 127.0.0.1 and lists the model', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/v1/models`);
    expect(await response.json()).toEqual({
      object: 'list',
      data: [
        { id: 'served', object: 'model', created: expect.any(Number), owned_by: 'assay', max_model_len: 96 },
      ],
    });
  });

  it('tokenizes with and without the BOS token', async () => {
    const withBos = await post('/tokenize', { model: 'served', prompt: 'ab c', add_special_tokens: true });
    const without = await post('/tokenize', { prompt: 'ab c', add_special_tokens: false });
    expect(withBos.json.tokens).toEqual(await backend.tokenize('ab c', true));
    expect(without.json.tokens).toEqual(await backend.tokenize('ab c', false));
    expect(withBos.json.tokens).toEqual([1, ...without.json.tokens]);
  });

  it('echoes prompt log-probabilities in vLLM’s shape, equal to the engine’s token scores', async () => {
    const prompt = 'Once upon a time';
    const { status, json } = await post('/v1/completions', {
      model: 'served',
      prompt,
      max_tokens: 1,
      temperature: 0,
      echo: true,
      logprobs: 2,
    });
    expect(status).toBe(200);
    const [choice] = json.choices;
    const tokens = await backend.tokenize(prompt, true);
    const [expected] = await backend.scoreTokenWindows({ requests: [{ tokens, scoreFrom: 1 }] });
    const logprobs = choice.logprobs;
    // Prompt tokens (BOS first, null) plus the one generated token.
    expect(logprobs.tokens).toHaveLength(tokens.length + 1);
    expect(logprobs.token_logprobs[0]).toBeNull();
    expect(logprobs.top_logprobs[0]).toBeNull();
    for (let i = 1; i < tokens.length; i++) {
      expect(Math.abs(logprobs.token_logprobs[i] - expected[i - 1])).toBeLessThan(1e-6);
      const alternatives = Object.values(logprobs.top_logprobs[i]) as number[];
      expect(alternatives.length).toBeGreaterThanOrEqual(1);
      expect(Math.max(...alternatives)).toBeGreaterThanOrEqual(logprobs.token_logprobs[i] - 1e-9);
    }
    expect(logprobs.tokens.slice(0, -1).join('').trim()).toBe(prompt);
    expect(logprobs.text_offset[0]).toBe(0);
    for (let i = 1; i < logprobs.tokens.length; i++) {
      expect(logprobs.text_offset[i]).toBe(logprobs.text_offset[i - 1] + logprobs.tokens[i - 1].length);
    }
    // The generated token is greedy: its log-probability is the top one after the prompt.
    const last = logprobs.tokens.length - 1;
    expect(logprobs.token_logprobs[last]).toBe(
      Math.max(...(Object.values(logprobs.top_logprobs[last]) as number[])),
    );
    expect(choice.text).toBe(prompt + logprobs.tokens[last]);
    expect(json.usage).toEqual({
      prompt_tokens: tokens.length,
      completion_tokens: 1,
      total_tokens: tokens.length + 1,
    });
  });

  it('generates like the in-process backend (greedy, stop strings) and chats through the GGUF chat template', async () => {
    const request: GenerateRequest = {
      context: 'abc abc',
      until: ['e'],
      maxGenToks: 10,
      temperature: 0,
      doSample: false,
      extra: {},
    };
    const [expected] = await backend.generate({ requests: [request] });
    const completion = await post('/v1/completions', {
      prompt: 'abc abc',
      max_tokens: 10,
      temperature: 0,
      stop: ['e'],
    });
    expect(completion.json.choices[0].text).toBe(expected);
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    const rendered = backend.applyChatTemplate(messages, { addGenerationPrompt: true });
    // With add_special_tokens the rendered chat gets the model's BOS, as the in-process backend's prompts do.
    const chat = await post('/v1/chat/completions', {
      model: 'served',
      messages,
      max_tokens: 8,
      temperature: 0,
      add_special_tokens: true,
    });
    const [chatExpected] = await backend.generate({
      requests: [
        {
          ...request,
          context: rendered,
          until: [],
          maxGenToks: 8,
        },
      ],
    });
    expect(chat.json.choices[0].message).toEqual({ role: 'assistant', content: chatExpected });
    // vLLM's default for chats: no special tokens added to what the template writes (this template writes
    // no BOS), so the prompt is one token shorter and the answer is the greedy continuation of it.
    const plain = await post('/v1/chat/completions', { messages, max_tokens: 8, temperature: 0 });
    const withoutBos = await backend.tokenize(rendered, false);
    expect(plain.json.usage.prompt_tokens).toBe(withoutBos.length);
    expect(chat.json.usage.prompt_tokens).toBe(withoutBos.length + 1);
    expect(plain.json.choices[0].message.content).toBe(
      (await greedyContinuation(backend, withoutBos, 8)).text,
    );
  });

  it('rejects another model name, bad bodies and unknown routes with OpenAI-style errors', async () => {
    expect(await post('/v1/completions', { model: 'other', prompt: 'x' })).toEqual({
      status: 404,
      json: {
        error: {
          message: 'model "other" is not served here; this server serves "served"',
          type: 'invalid_request_error',
        },
      },
    });
    const bad = await post('/v1/completions', { prompt: 5 });
    expect(bad.status).toBe(400);
    expect((await post('/v1/nothing', {})).status).toBe(404);
    expect((await post('/v1/completions', { prompt: [99999], max_tokens: 0, echo: true })).status).toBe(400);
  });

  it("scores through assay's local-completions backend as the in-process gguf backend does (text prompts, 1e-4)", async () => {
    const client = createHttpBackend('local-completions', {
      // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto, tokenized_requests=True).
      tokenized_requests: false,
      model: 'served',
      base_url: `${server.url}/v1/completions`,
      max_length: 96,
      num_concurrent: 2,
    });
    try {
      const batch = requests(1, 16);
      const [viaServer, inProcess] = await Promise.all([
        client.loglikelihood({ requests: batch }),
        backend.loglikelihood({ requests: batch }),
      ]);
      for (let i = 0; i < batch.length; i++) {
        const answer = viaServer[i] as { logprob: number; isGreedy: boolean };
        expect(Math.abs(answer.logprob - inProcess[i].logprob), JSON.stringify(batch[i])).toBeLessThan(1e-4);
        expect(answer.isGreedy).toBe(inProcess[i].isGreedy);
      }
    } finally {
      await client.close?.();
    }
  });

  it('scores token-id prompts (tokenized_requests=true) as the engine scores the same tokens (1e-4)', async () => {
    const client = createHttpBackend('local-completions', {
      // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
      tokenizer_backend: 'remote',
      model: 'served',
      base_url: `${server.url}/v1/completions`,
      tokenized_requests: true,
      max_length: 96,
    });
    try {
      const batch = requests(2, 12);
      const viaServer = await client.loglikelihood({ requests: batch });
      // The client sends /tokenize's ids without BOS (add_special_tokens=false), as lm-eval does by
      // default, and the server scores token prompts as given; so the reference is the engine's
      // score of the same BOS-less tokens.
      for (let i = 0; i < batch.length; i++) {
        const context = await backend.tokenize(batch[i].context, false);
        const whole = await backend.tokenize(batch[i].context + batch[i].continuation, false);
        const [expected] = await backend.scoreTokenWindows({
          requests: [{ tokens: whole, scoreFrom: context.length }],
        });
        const total = expected.reduce((a, b) => a + b, 0);
        expect(Math.abs((viaServer[i] as { logprob: number }).logprob - total)).toBeLessThan(1e-4);
      }
    } finally {
      await client.close?.();
    }
  });

  it('with add_bos_token=true, token-id prompts carry BOS and score as the in-process gguf backend (1e-4)', async () => {
    const withBos = createHttpBackend('local-completions', {
      // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
      tokenizer_backend: 'remote',
      model: 'served',
      base_url: `${server.url}/v1/completions`,
      tokenized_requests: true,
      add_bos_token: true,
      max_length: 96,
      num_concurrent: 2,
    });
    const without = createHttpBackend('local-completions', {
      // The server's /tokenize, named rather than left to lm-eval's default tokenizer_backend=auto.
      tokenizer_backend: 'remote',
      model: 'served',
      base_url: `${server.url}/v1/completions`,
      tokenized_requests: true,
      max_length: 96,
    });
    try {
      // An empty context too: it becomes the start token alone, with no second BOS on the continuation.
      const batch = [...requests(5, 14), { context: '', continuation: 'abc de' }];
      const [viaServer, inProcess, bosLess] = await Promise.all([
        withBos.loglikelihood({ requests: batch }),
        backend.loglikelihood({ requests: batch }),
        without.loglikelihood({ requests: batch }),
      ]);
      let differs = 0;
      for (let i = 0; i < batch.length; i++) {
        const answer = viaServer[i] as { logprob: number; isGreedy: boolean };
        expect(Math.abs(answer.logprob - inProcess[i].logprob), JSON.stringify(batch[i])).toBeLessThan(1e-4);
        expect(answer.isGreedy).toBe(inProcess[i].isGreedy);
        if (Math.abs((bosLess[i] as { logprob: number }).logprob - inProcess[i].logprob) > 1e-3) differs++;
      }
      // Without BOS (lm-eval's API default) the same requests score differently: the flag does something.
      expect(differs).toBeGreaterThan(batch.length / 2);
    } finally {
      await withBos.close?.();
      await without.close?.();
    }
  });

  it('serves several concurrent eval jobs with the same answers as one job alone', async () => {
    const clients: ModelBackend[] = Array.from({ length: 3 }, () =>
      createHttpBackend('local-completions', {
        // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto, tokenized_requests=True).
        tokenized_requests: false,
        model: 'served',
        base_url: `${server.url}/v1/completions`,
        max_length: 96,
        num_concurrent: 3,
      }),
    );
    try {
      const batch = requests(7, 12);
      const generation: GenerateRequest = {
        context: 'Question: 2+2=\nAnswer:',
        until: ['\n'],
        maxGenToks: 6,
        temperature: 0,
        doSample: false,
        extra: {},
      };
      const expected = await backend.loglikelihood({ requests: batch });
      const [expectedText] = await backend.generate({ requests: [generation] });
      const outcomes = await Promise.all(
        clients.map(async (client) => ({
          scores: await client.loglikelihood({ requests: batch }),
          texts: await client.generate({ requests: [generation, generation] }),
        })),
      );
      for (const outcome of outcomes) {
        outcome.scores.forEach((answer, i) => {
          expect(Math.abs((answer as { logprob: number }).logprob - expected[i].logprob)).toBeLessThan(1e-4);
        });
        expect(outcome.texts).toEqual([expectedText, expectedText]);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close?.()));
    }
  });
});

/** Sends a request and leaves without reading the answer; `leave()` drops the connection. */
function leavingClient(
  url: string,
  route: string,
  body: unknown,
): { leave: () => void; closed: Promise<void> } {
  const { hostname, port } = new URL(url);
  const payload = JSON.stringify(body);
  const request = httpRequest({
    host: hostname,
    port,
    path: route,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
  });
  const closed = new Promise<void>((resolve) => request.once('close', () => resolve()));
  request.on('error', () => undefined);
  request.end(payload);
  return { leave: () => request.destroy(), closed };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('assay serve when a client disconnects', () => {
  it('cancels the request’s work and frees its slot; a waiting request leaves the queue unrun', async () => {
    // An engine that generates for as long as it is let (prompts starting "slow"), the real one otherwise.
    const started: Array<{ prompt: string; signal?: AbortSignal; outcome: Promise<string> }> = [];
    // The server generates from the prompt's tokens; the texts it may send are known by their tokens.
    const texts = new Map<string, string>();
    for (const text of ['slow one', 'slow two', 'abc abc']) {
      texts.set((await backend.tokenize(text, true, true)).join(), text);
    }
    const model: ServedModel = {
      tokenize: (text, withBos, special) => backend.tokenize(text, withBos, special),
      detokenize: (tokens, special) => backend.detokenize(tokens, special),
      tokenizerInfo: () => backend.tokenizerInfo(),
      promptLogprobs: (options) => backend.promptLogprobs(options),
      applyChatTemplate: (messages, options) => backend.applyChatTemplate(messages, options),
      chatTemplate: () => backend.chatTemplate(),
      engine: backend.engine,
      generateTokens: (options) => {
        const prompt = texts.get(options.requests[0].tokens.join()) ?? '(unknown tokens)';
        const signal = options.abortSignal;
        const run = prompt.startsWith('slow')
          ? new Promise<TokenGeneration[]>((_, reject) =>
              signal?.addEventListener('abort', () => reject(signal.reason)),
            )
          : backend.generateTokens(options);
        started.push({
          prompt,
          signal,
          outcome: run.then(
            () => 'answered',
            () => 'cancelled',
          ),
        });
        return run;
      },
    };
    const limited = await startServer({ model, name: 'served', port: 0, concurrency: 1, queue: 4 });
    try {
      const first = leavingClient(limited.url, '/v1/completions', { prompt: 'slow one', max_tokens: 50 });
      await until(() => started.length === 1, 'the first request to start');
      const second = leavingClient(limited.url, '/v1/completions', { prompt: 'slow two', max_tokens: 50 });
      // The second waits for the slot; it leaves before getting one and is never run.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(started.map((entry) => entry.prompt)).toEqual(['slow one']);
      second.leave();
      await second.closed;
      first.leave();
      await first.closed;
      expect(await started[0].outcome).toBe('cancelled');
      expect(started[0].signal?.aborted).toBe(true);
      // The slot is free: the next request is answered, by the real engine, as a direct call is.
      const response = await fetch(`${limited.url}/v1/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'abc abc', max_tokens: 6, temperature: 0 }),
      });
      expect(response.status).toBe(200);
      const [expected] = await backend.generate({
        requests: [
          { context: 'abc abc', until: [], maxGenToks: 6, temperature: 0, doSample: false, extra: {} },
        ],
      });
      expect(((await response.json()) as { choices: Array<{ text: string }> }).choices[0].text).toBe(
        expected,
      );
      expect(started.map((entry) => entry.prompt)).toEqual(['slow one', 'abc abc']);
    } finally {
      await limited.close();
    }
  });

  it('the gguf engine stops a cancelled generation and stays usable', async () => {
    const long: GenerateRequest = {
      context: 'abc',
      until: [],
      maxGenToks: 90,
      temperature: 0,
      doSample: false,
      extra: {},
    };
    const [reference] = await backend.generate({ requests: [long] });
    const controller = new AbortController();
    const cancelled = backend.generate({ requests: [long], abortSignal: controller.signal });
    controller.abort();
    const error = await cancelled.then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.name).toBe('AbortError');
    const stopped = /cancelled (before it started|after (\d+) of 90 tokens)$/.exec(error?.message ?? '');
    expect(stopped).not.toBe(null);
    if (stopped?.[2] !== undefined) expect(Number(stopped[2])).toBeLessThan(90);
    // Already aborted: nothing is sent at all.
    await expect(backend.generate({ requests: [long], abortSignal: controller.signal })).rejects.toThrow(
      /cancelled before it was sent/,
    );
    expect(await backend.generate({ requests: [long] })).toEqual([reference]);
  });
});

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` tasks at once, queues `queue` more and refuses the rest', async () => {
    const limit = new ConcurrencyLimit(2, 1);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      new Promise<number>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve(running);
        });
      });
    const first = limit.run(task);
    const second = limit.run(task);
    const third = limit.run(task); // waits
    const fourth = await limit.run(task); // the queue is full
    expect(fourth).toBeUndefined();
    expect(limit.active).toBe(2);
    releases.shift()?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(2); // the third started when the first finished
    for (const release of releases.splice(0)) release();
    await Promise.all([second, third]);
    expect(peak).toBe(2);
    expect(limit.active).toBe(0);
  });

  it('drops a waiting task whose signal aborts, and never runs it', async () => {
    const limit = new ConcurrencyLimit(1, 2);
    let release = () => {};
    const ran: string[] = [];
    const first = limit.run(async () => {
      ran.push('first');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const controller = new AbortController();
    const second = limit.run(async () => {
      ran.push('second');
    }, controller.signal);
    expect(limit.queued).toBe(1);
    controller.abort(new Error('gone'));
    await expect(second).rejects.toThrow('gone');
    expect(limit.queued).toBe(0);
    release();
    await first;
    expect(ran).toEqual(['first']);
    expect(limit.active).toBe(0);
  });
});
