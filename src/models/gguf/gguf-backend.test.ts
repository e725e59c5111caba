import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ControlledEvaluateInputItem, LlamaModel, Token as LlamaToken } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireComponent, sharedFile } from '../../../test/support/require-component.js';
import { runBackendConformance } from '../../testing/backend-conformance.js';
import type { GenerateRequest, LoglikelihoodRequest } from '../backend.js';
import { fileSha256, GgufBackend } from './gguf-backend.js';
import { randomLlamaGguf, seededRandom } from './llama-model.js';
import { loadNativeAddon } from './native-scorer.js';
import { processLlama } from './process-llama.js';
import {
  encodePair,
  rollingScoringInputs,
  type ScoringInput,
  scoringInput,
  type Tokenizer,
} from './token-requests.js';
import { writeGguf } from './writer.js';

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-gguf-'));
const modelPath = path.join(directory, 'random.gguf');
await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 11, chatTemplate: CHATML })));
afterAll(() => rm(directory, { recursive: true, force: true }));

const STORIES = sharedFile('models', 'stories260K.gguf');
const storiesPresent = requireComponent('stories260K', existsSync(STORIES));

runBackendConformance({
  name: 'gguf (generated 2-layer llama)',
  create: () => GgufBackend.create({ modelPath, threads: 1 }),
  noRequestFails: 'llama.cpp runs in a child process of assay: an engine failure fails the whole call',
});

/**
 * The independent reference: the same model in this process through node-llama-cpp's own evaluation
 * (not assay's scorer), each request in a fresh context on a single sequence, reading the probability of
 * each next token from the full softmax. No prefix reuse, no batching across requests, no grouping. A
 * request is one decode (one token per decode read the same softmax, 3.5 times slower). The softmax is
 * asked for only where a target is read (from `scoredFrom` on).
 */
class PerTokenReference {
  private constructor(
    readonly model: LlamaModel,
    readonly tokenizer: Tokenizer,
  ) {}

  static async load(file: string): Promise<PerTokenReference> {
    const llama = await processLlama();
    const model = await llama.loadModel({ modelPath: file });
    const bos = model.tokens.bos;
    return new PerTokenReference(model, {
      tokenize: (text) => (text === '' ? [] : [...model.tokenize(text, false)]),
      addBos: model.tokens.shouldPrependBosToken && bos !== null,
      prefixToken: bos ?? (model.tokens.eos as number),
      bos,
    });
  }

  async logprobs(item: ScoringInput): Promise<number[]> {
    const context = await this.model.createContext({
      contextSize: 256,
      sequences: 1,
      threads: 1,
      flashAttention: false,
      experimentalKvCacheKeyType: 'F32',
      experimentalKvCacheValueType: 'F32',
    });
    const items: ControlledEvaluateInputItem[] = item.input.map((token, position) =>
      position >= item.scoredFrom
        ? [token as LlamaToken, { generateNext: { probabilities: true } }]
        : (token as LlamaToken),
    );
    const outputs = await context.getSequence().controlledEvaluate(items);
    const result = item.targets.map((target, i) =>
      Math.log(outputs[item.scoredFrom + i]?.next.probabilities?.get(target as LlamaToken) ?? 0),
    );
    await context.dispose();
    return result;
  }

  async close(): Promise<void> {
    await this.model.dispose();
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Random requests over a few shared contexts: single-character (single-token) and longer continuations. */
function randomRequests(seed: number, count: number): LoglikelihoodRequest[] {
  const random = seededRandom(seed);
  const alphabet = 'abcdefghij klmnop,.ABC\n';
  const text = (length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const contexts = [
    '',
    'Question: 2+2=\nAnswer:',
    text(12),
    text(30),
    'The same prefix, then ',
    'The same prefix, then more ',
  ];
  return Array.from({ length: count }, () => {
    const context = contexts[Math.floor(random() * contexts.length)];
    const kind = random();
    const continuation =
      kind < 0.4
        ? alphabet[Math.floor(random() * 21)]
        : kind < 0.5
          ? ` ${text(1)}`
          : text(1 + Math.floor(random() * 8));
    return { context, continuation };
  });
}

describe('gguf backend against a token-by-token reference', () => {
  let reference: PerTokenReference;
  let backend: GgufBackend;
  beforeAll(async () => {
    reference = await PerTokenReference.load(modelPath);
    backend = await GgufBackend.create({ modelPath, threads: 1, sequences: 3, nCtx: 64 });
  });
  afterAll(async () => {
    await backend?.close();
    await reference?.close();
  });

  it('loglikelihood equals the sum of per-token log-probabilities (shared-prefix, batched, single-token paths)', async () => {
    for (const seed of [1, 2]) {
      const requests = randomRequests(seed, 24);
      const batched = await backend.loglikelihood({ requests });
      const alone = await backend.loglikelihood({ requests: [requests[0]] });
      expect(alone[0].logprob).toBeCloseTo(batched[0].logprob, 4);
      for (let i = 0; i < requests.length; i++) {
        const pair = encodePair(reference.tokenizer, requests[i].context, requests[i].continuation);
        const expected = sum(await reference.logprobs(scoringInput(pair.context, pair.continuation, 64)));
        expect(Math.abs(batched[i].logprob - expected), JSON.stringify(requests[i])).toBeLessThan(1e-4);
      }
    }
  });

  it('rolling loglikelihood equals the sum over its lm-eval windows', async () => {
    const texts = [
      'short text.',
      'A longer document that needs several windows of sixty-four tokens each, because the model reads characters one at a time.',
    ];
    const rolling = await backend.loglikelihoodRolling({ requests: texts.map((text) => ({ text })) });
    for (let i = 0; i < texts.length; i++) {
      const windows = rollingScoringInputs(reference.tokenizer, texts[i], 64);
      if (i === 1) expect(windows.length).toBeGreaterThan(1);
      let expected = 0;
      for (const window of windows) expected += sum(await reference.logprobs(window));
      expect(Math.abs(rolling[i] - expected)).toBeLessThan(1e-4);
    }
  });

  it('greedy generation is identical across runs and batch compositions', async () => {
    const request = (context: string, until: string[] = []): GenerateRequest => ({
      context,
      until,
      maxGenToks: 12,
      temperature: 0,
      doSample: false,
      extra: {},
    });
    const a = request('Question: 2+2=\nAnswer:');
    const b = request('Once upon a time', ['e']);
    const c = request('abc abc abc');
    const first = await backend.generate({ requests: [a, b, c] });
    const second = await backend.generate({ requests: [c, a] });
    const alone = await backend.generate({ requests: [b] });
    expect(second).toEqual([first[2], first[0]]);
    expect(alone).toEqual([first[1]]);
    expect(first[1].includes('e')).toBe(false);
    expect(first[0].length).toBeGreaterThan(0);
  });

  it('records the manifest facts', async () => {
    expect(backend.info()).toEqual({
      name: 'random.gguf',
      path: modelPath,
      sha256: await fileSha256(modelPath),
      numericFormat: 'F32',
      architecture: 'llama',
      quantizationTypes: ['F32'],
      fileType: 0,
      vocabSize: 354,
      nCtx: 64,
      threads: 1,
      sequences: 3,
      flashAttention: false,
      kvCacheType: 'F32',
      gpu: false,
      addBos: true,
      engine: { name: 'node-llama-cpp', version: '3.21.1', llamaCpp: expect.any(String), binary: 'prebuilt' },
      scorer: loadNativeAddon().addon
        ? { path: 'native', llamaCppCommit: expect.any(String) }
        : { path: 'map', reason: expect.stringContaining('native scorer') },
      chatTemplateSource: 'the GGUF metadata of random.gguf (tokenizer.chat_template)',
    });
  });

  it('renders the chat template from the GGUF metadata', () => {
    expect(backend.chatTemplate()).toBe(CHATML);
    expect(backend.applyChatTemplate([{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true })).toBe(
      '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });
});

describe.skipIf(!storiesPresent)(
  `stories260K.gguf${storiesPresent ? '' : ' (skipped: ../shared/models/stories260K.gguf is absent)'}`,
  () => {
    let backend: GgufBackend;
    beforeAll(async () => {
      backend = await GgufBackend.create({ modelPath: STORIES, threads: 1 });
    });
    afterAll(() => backend?.close());

    it('scores "Once" + " upon a time" as measured with llama.cpp (−0.0304, each token greedy)', async () => {
      const [whole, upon, uponA] = await backend.loglikelihood({
        requests: [
          { context: 'Once', continuation: ' upon a time' },
          { context: 'Once', continuation: ' upon' },
          { context: 'Once', continuation: ' upon a' },
        ],
      });
      expect(whole.logprob).toBeCloseTo(-0.0304, 3);
      expect(whole.isGreedy).toBe(true);
      expect(upon.logprob).toBeCloseTo(-0.0175, 3);
      expect(uponA.logprob - upon.logprob).toBeCloseTo(-0.0121, 3);
    });

    it('perplexity matches an independent per-token computation', async () => {
      const reference = await PerTokenReference.load(STORIES);
      try {
        const text = 'One day, a little girl named Lily went to the park. She saw a big dog.';
        const [rolling] = await backend.loglikelihoodRolling({ requests: [{ text }] });
        const windows = rollingScoringInputs(reference.tokenizer, text, 2048);
        expect(windows).toHaveLength(1);
        const expected = sum(await reference.logprobs(windows[0]));
        expect(Math.abs(rolling - expected)).toBeLessThan(1e-4);
      } finally {
        await reference.close();
      }
    });
  },
);
