/**
 * `assay serve` as a vLLM stand-in over a SentencePiece vocabulary (test/fixtures/sentencepiece-gguf.ts:
 * a dummy-prefix space, a lone "▁" token, byte fallback, control tokens a prompt can spell): echo that
 * spells the prompt, vLLM's prompt_logprobs, /tokenize, generation from the prompt's tokens, and assay's
 * own clients scoring through it as the in-process backend scores.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHATML_TEMPLATE,
  sentencePieceLlamaGguf,
  sentencePieceVocab,
} from '../../test/fixtures/sentencepiece-gguf.js';
import { greedyContinuation } from '../../test/support/greedy-text.js';
import type { LoglikelihoodRequest } from '../models/backend.js';
import { GgufBackend } from '../models/gguf/gguf-backend.js';
import { SPM_SPACE } from '../models/gguf/llama-model.js';
import { writeGguf } from '../models/gguf/writer.js';
import { createHttpBackend } from '../models/http/create.js';
import { type RunningServer, startServer } from './server.js';

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-serve-spm-'));
const modelPath = path.join(directory, 'spm.gguf');
await writeFile(modelPath, writeGguf(sentencePieceLlamaGguf({ seed: 5, chatTemplate: CHATML_TEMPLATE })));
const vocab = sentencePieceVocab();
const id = (piece: string) => {
  const index = vocab.tokens.indexOf(piece);
  if (index < 0) throw new Error(`no piece ${piece}`);
  return index;
};

let backend: GgufBackend;
let server: RunningServer;
beforeAll(async () => {
  backend = await GgufBackend.create({ modelPath, threads: 1, nCtx: 256 });
  server = await startServer({ model: backend, name: 'spm', port: 0, concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await backend?.close();
  await rm(directory, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes, checked field by field
async function post(route: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const codePoints = (text: string) => [...text].length;

/** ARC-shaped and cloze-shaped multiple choice: contexts that start with "Question" (a lone "▁" token), "What" (" W"), accents. */
const MC: LoglikelihoodRequest[] = [
  ...[' Sun', ' Moon', ' the sea', ' a rock'].map((choice) => ({
    context: 'Question: Which one is a star?\nAnswer:',
    continuation: choice,
  })),
  ...[' Sun', ' Moon'].map((choice) => ({
    context: 'What is hot? Sun or Moon? It is the',
    continuation: choice,
  })),
  ...[' café.', ' thé.'].map((choice) => ({ context: 'Le matin, je bois un', continuation: choice })),
  { context: 'After lunch, the children played on the swings and slide.', continuation: ' the' },
];

describe("assay serve's echo spells the prompt, as vLLM's does", () => {
  it('the echoed tokens concatenate to the prompt, offsets index the text, scores are the engine’s', async () => {
    const prompts = [
      'Question: Which one is a star?\nAnswer: Sun',
      'What is the sun?',
      'Le café 日本',
      '<|im_start|>user\nHi<|im_end|>\n',
    ];
    for (const prompt of prompts) {
      const { status, json } = await post('/v1/completions', {
        prompt,
        max_tokens: 1,
        temperature: 0,
        echo: true,
        logprobs: 1,
      });
      expect(status).toBe(200);
      const [choice] = json.choices;
      const tokens: string[] = choice.logprobs.tokens;
      const served = (await post('/tokenize', { prompt })).json.tokens as number[];
      const n = served.length;
      expect(tokens).toHaveLength(n + 1);
      expect(tokens.slice(0, n).join(''), prompt).toBe(prompt);
      expect(choice.text).toBe(prompt + tokens[n]);
      // vLLM's text_offset: code points, each token starting where the ones before it end.
      tokens.forEach((token, i) => {
        expect(choice.logprobs.text_offset[i]).toBe(codePoints(tokens.slice(0, i).join('')));
        expect([...choice.text].slice(choice.logprobs.text_offset[i]).join('').startsWith(token)).toBe(true);
      });
      const [expected] = await backend.scoreTokenWindows({ requests: [{ tokens: served, scoreFrom: 1 }] });
      expect(choice.logprobs.token_logprobs[0]).toBeNull();
      for (let i = 1; i < n; i++) expect(choice.logprobs.token_logprobs[i]).toBeCloseTo(expected[i - 1], 9);
    }
  });

  for (const mode of ['echo', 'prompt_logprobs'] as const) {
    it(`local-completions (text prompts, ${mode}) scores ARC- and cloze-shaped choices as the in-process backend (1e-5)`, async () => {
      const client = createHttpBackend('local-completions', {
        // Text prompts, named: lm-eval's local-completions defaults to token ids (tokenizer_backend=auto).
        tokenized_requests: false,
        model: 'spm',
        base_url: `${server.url}/v1/completions`,
        max_length: 256,
        num_concurrent: 2,
        prompt_logprobs: mode === 'prompt_logprobs',
      });
      try {
        const viaServer = await client.loglikelihood({ requests: MC });
        for (const [i, request] of MC.entries()) {
          // One request at a time, so the reference is each prompt scored alone, as the server scores it.
          const [inProcess] = await backend.loglikelihood({ requests: [request] });
          const answer = viaServer[i] as { logprob: number; isGreedy: boolean };
          expect(answer.logprob, JSON.stringify(request)).toBeTypeOf('number');
          expect(Math.abs(answer.logprob - inProcess.logprob), JSON.stringify(request)).toBeLessThanOrEqual(
            1e-5,
          );
          expect(answer.isGreedy).toBe(inProcess.isGreedy);
        }
      } finally {
        await client.close?.();
      }
    });
  }
});

describe("vLLM's prompt_logprobs", () => {
  it('null first, then the prompt token with its rank in the whole vocabulary and the top k ranked 1..k', async () => {
    const prompt = 'What is';
    const { json } = await post('/v1/completions', {
      prompt,
      max_tokens: 1,
      temperature: 0,
      prompt_logprobs: 3,
    });
    const [choice] = json.choices;
    expect(choice.logprobs).toBeNull();
    const tokens = (await post('/tokenize', { prompt })).json.tokens as number[];
    const list = choice.prompt_logprobs as Array<Record<
      string,
      { logprob: number; rank: number; decoded_token: string }
    > | null>;
    expect(list).toHaveLength(tokens.length);
    expect(list[0]).toBeNull();
    // The reference: every token of the vocabulary scored at every position, through the target scorer.
    const size = vocab.tokens.length;
    for (let position = 1; position < tokens.length; position++) {
      const prefix = tokens.slice(0, position);
      const windows = Array.from({ length: size }, (_, token) => ({
        tokens: [...prefix, token],
        scoreFrom: position,
      }));
      const all = (await backend.scoreTokenWindows({ requests: windows })).map(([logprob]) => logprob);
      const own = tokens[position];
      const order = [...all.keys()].sort((a, b) => all[b] - all[a]);
      const entries = list[position] ?? {};
      expect(
        Object.keys(entries)
          .map(Number)
          .sort((a, b) => a - b),
      ).toEqual([...new Set([own, ...order.slice(0, 3)])].sort((a, b) => a - b));
      // Scored in other batches, the reference differs by float32 rounding (under 1e-6 here).
      expect(Math.abs(entries[own].logprob - all[own])).toBeLessThan(1e-5);
      // vLLM's rank: how many tokens are at least as likely, the token itself included (within the rounding).
      const above = all.filter((logprob) => logprob > all[own] + 1e-5).length;
      const atLeast = all.filter((logprob) => logprob >= all[own] - 1e-5).length;
      expect(entries[own].rank).toBeGreaterThan(above);
      expect(entries[own].rank).toBeLessThanOrEqual(atLeast);
      order.slice(0, 3).forEach((token, index) => {
        expect(entries[token].rank).toBe(index + 1);
        expect(Math.abs(entries[token].logprob - all[token])).toBeLessThan(1e-5);
      });
    }
    // The decoded tokens spell the prompt after the first (what assay's text-mode client checks).
    expect(
      list
        .slice(1)
        .map((entries, i) => entries?.[tokens[i + 1]].decoded_token)
        .join(''),
    ).toBe(prompt);
  });

  it("the engine's Map path (no native scorer) gives the same ranks and alternatives as the native one", async () => {
    const map = await GgufBackend.create({ modelPath, threads: 1, nCtx: 256, scorer: 'map' });
    try {
      const tokens = await backend.tokenize('Question: What is the sun?', true);
      const [native] = await backend.promptLogprobs({ requests: [{ tokens, topK: 3 }] });
      const [viaMap] = await map.promptLogprobs({ requests: [{ tokens, topK: 3 }] });
      expect(native.ranks).toHaveLength(tokens.length);
      expect(native.ranks.slice(1).every((rank) => typeof rank === 'number' && rank >= 1)).toBe(true);
      expect(viaMap.ranks).toEqual(native.ranks);
      expect(viaMap.pieces).toEqual(native.pieces);
      viaMap.top.forEach((alternatives, i) => {
        expect(alternatives?.map(([token]) => token)).toEqual(native.top[i]?.map(([token]) => token));
      });
    } finally {
      await map.close();
    }
  });

  it('with echo and logprobs both come back, the prompt positions from the same entries', async () => {
    const { json } = await post('/v1/completions', {
      prompt: 'Question: Sun',
      max_tokens: 1,
      temperature: 0,
      echo: true,
      logprobs: 1,
      prompt_logprobs: 1,
    });
    const [choice] = json.choices;
    const tokens = (await post('/tokenize', { prompt: 'Question: Sun' })).json.tokens as number[];
    expect(choice.prompt_logprobs).toHaveLength(tokens.length);
    for (let i = 1; i < tokens.length; i++) {
      const entries = choice.prompt_logprobs[i] as Record<string, { logprob: number; decoded_token: string }>;
      expect(entries[tokens[i]].logprob).toBe(choice.logprobs.token_logprobs[i]);
      expect(entries[tokens[i]].decoded_token).toBe(choice.logprobs.tokens[i]);
      // The legacy top_logprobs are the same entries keyed by text (texts that coincide share a key).
      const top = Object.entries(choice.logprobs.top_logprobs[i] as Record<string, number>);
      expect(top.length).toBeLessThanOrEqual(Object.keys(entries).length);
      for (const [text, logprob] of top) {
        expect(
          Object.values(entries).some((entry) => entry.decoded_token === text && entry.logprob === logprob),
        ).toBe(true);
      }
    }
  });
});

describe("vLLM's /tokenize and token handling", () => {
  it('answers {count, max_model_len, tokens, token_strs}; add_special_tokens adds BOS; special-token text is that token', async () => {
    const prompt = '<|im_start|>user\nHi';
    // llama.cpp's SentencePiece rule (Hugging Face's legacy one too): a "▁" before the text after a special token.
    const expected = [
      id('<|im_start|>'),
      id(SPM_SPACE),
      ...'user'.split('').map(id),
      id('<0x0A>'),
      id('H'),
      id('i'),
    ];
    expect((await post('/tokenize', { model: 'spm', prompt })).json).toEqual({
      count: expected.length + 1,
      max_model_len: 256,
      tokens: [vocab.bos, ...expected],
      token_strs: null,
    });
    expect((await post('/tokenize', { prompt, add_special_tokens: false })).json.tokens).toEqual(expected);
    // assay's own in-process tokenization keeps the text as text.
    expect(await backend.tokenize(prompt, false)).not.toContain(id('<|im_start|>'));
    // A chat: the GGUF's template, without BOS unless asked, the generation prompt unless told not to.
    const messages = [{ role: 'user', content: 'Hi' }];
    const rendered = '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n';
    const chat = await post('/tokenize', { messages });
    expect(chat.json.tokens).toEqual(
      (await post('/tokenize', { prompt: rendered, add_special_tokens: false })).json.tokens,
    );
    expect((await post('/tokenize', { messages, add_special_tokens: true })).json.tokens).toEqual([
      vocab.bos,
      ...chat.json.tokens,
    ]);
    const bare = await post('/tokenize', { messages, add_generation_prompt: false });
    expect(bare.json.tokens).toEqual(
      (await post('/tokenize', { prompt: '<|im_start|>user\nHi<|im_end|>\n', add_special_tokens: false }))
        .json.tokens,
    );
    // vLLM's continue_final_message, independent of add_generation_prompt: transformers renders the chat
    // and cuts it after the final message's content (its end tag goes).
    const continued = await post('/tokenize', {
      messages: [...messages, { role: 'assistant', content: 'Hel' }],
      add_generation_prompt: false,
      continue_final_message: true,
    });
    expect(continued.json.tokens).toEqual(
      (
        await post('/tokenize', {
          prompt: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHel',
          add_special_tokens: false,
        })
      ).json.tokens,
    );
    expect((await post('/tokenize', { prompt: 'x', messages })).status).toBe(400);
    const info = (await (await fetch(`${server.url}/tokenizer_info`)).json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      chat_template: CHATML_TEMPLATE,
      bos_token: '<s>',
      eos_token: '</s>',
      bos_token_id: 1,
    });
  });

  it('generates from token-id prompts as given (no BOS added, nothing re-tokenized)', async () => {
    const prompt = [id(`${SPM_SPACE}W`), id('h'), id('a'), id('t')];
    const { json } = await post('/v1/completions', { prompt, max_tokens: 6, temperature: 0 });
    const expected = await greedyContinuation(backend, prompt, 6);
    expect(json.choices[0].text).toBe(expected.text);
    expect(json.usage).toEqual({ prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 });
    // Echoed, a token prompt is its decoding with special tokens spelled, and its tokens spell that.
    const echoed = await post('/v1/completions', {
      prompt: [vocab.bos, ...prompt],
      max_tokens: 1,
      temperature: 0,
      echo: true,
      logprobs: 0,
    });
    const tokens: string[] = echoed.json.choices[0].logprobs.tokens;
    expect(tokens.slice(0, 5)).toEqual(['<s>', ' W', 'h', 'a', 't']);
    expect(echoed.json.choices[0].text).toBe(tokens.join(''));
  });

  it('add_special_tokens: false scores a text prompt without BOS', async () => {
    const prompt = 'What is';
    const { json } = await post('/v1/completions', {
      prompt,
      max_tokens: 1,
      temperature: 0,
      echo: true,
      logprobs: 0,
      add_special_tokens: false,
    });
    const tokens = await backend.tokenize(prompt, false);
    const [expected] = await backend.scoreTokenWindows({ requests: [{ tokens, scoreFrom: 1 }] });
    expect(json.usage.prompt_tokens).toBe(tokens.length);
    expect(json.choices[0].logprobs.tokens.slice(0, tokens.length).join('')).toBe(prompt);
    expected.forEach((logprob, i) => {
      expect(json.choices[0].logprobs.token_logprobs[i + 1]).toBeCloseTo(logprob, 9);
    });
  });
});
