/**
 * BOS and special tokens as lm-eval's backend of the same name. Each test builds the token sequence
 * lm-eval's code path builds (the file and function are named beside it), scores it with llama.cpp in
 * process (GgufBackend.scoreTokenWindows), and asks assay's backend for the same request through a vLLM
 * stand-in over the same GGUF (test/fakes/vllm-stand-in.ts: /tokenize honours add_special_tokens as
 * vLLM's does). A generated GGUF always; stories260K too when ../shared/models has it, for the issue's
 * figures: "Once" → " upon a time" is −0.0304 with BOS (lm-eval's vllm) and −0.0374 without
 * (lm-eval's local-completions).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoglikelihoodRequest, ModelBackend } from '../src/models/backend.js';
import { GgufBackend } from '../src/models/gguf/gguf-backend.js';
import {
  asciiCharPieces,
  buildSpmVocab,
  randomLlamaGguf,
  type SpmVocab,
} from '../src/models/gguf/llama-model.js';
import { writeGguf } from '../src/models/gguf/writer.js';
import { openHttpBackend } from '../src/models/http/create.js';
import { encodePrompt } from '../src/models/http/special-tokens.js';
import { createManagedBackend } from '../src/models/managed-server/managed-backend.js';
import { HfTokenizer } from '../src/models/tokenizers/hf-tokenizer.js';
import { localTokenizerFolder, type TokenizerFolder } from '../src/models/tokenizers/tokenizer-folder.js';
import { type FakeHub, startFakeHub } from './fakes/hub.js';
import { startTestServer } from './fakes/openai-server.js';
import { startVllmStandIn, type VllmStandIn } from './fakes/vllm-stand-in.js';
import { spmFromVocab, type TokenizerFixture, writeTokenizerFolder } from './fixtures/tokenizer-json.js';
import { tempDir } from './support/helpers.js';
import { requireComponent, sharedFile } from './support/require-component.js';

const work = tempDir('assay-special-tokens-');
const STORIES = sharedFile('models', 'stories260K.gguf');
const storiesPresent = requireComponent('stories260K', existsSync(STORIES));

type Scorer = Pick<GgufBackend, 'tokenize' | 'scoreTokenWindows'>;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const logprobOf = (answer: unknown) => (answer as { logprob: number }).logprob;

/** llama.cpp's log p(tokens[from:] | tokens[:from]). */
async function score(model: Scorer, tokens: number[], from: number): Promise<number> {
  const [values] = await model.scoreTokenWindows({ requests: [{ tokens, scoreFrom: from }] });
  return sum(values);
}

/**
 * lm_eval/api/model.py TemplateLM._encode_pair: trailing spaces of the context move to the
 * continuation; whole = tok_encode(context + continuation), context = tok_encode(context). tok_encode adds
 * the tokenizer's special tokens for lm-eval's vllm (vllm_causallms.py VLLM.tok_encode,
 * _add_special_kwargs(None, None) → {}) and none for local-completions and sglang (api_models.py
 * TemplateAPI.tok_encode, sglang_causallms.py: add_special_tokens=False or add_bos_token).
 */
async function lmEvalPair(model: Scorer, request: LoglikelihoodRequest, withBos: boolean): Promise<number> {
  let { context, continuation } = request;
  const spaces = context.length - context.trimEnd().length;
  if (spaces > 0) {
    continuation = context.slice(-spaces) + continuation;
    context = context.slice(0, -spaces);
  }
  const whole = await model.tokenize(context + continuation, withBos);
  const contextTokens = await model.tokenize(context, withBos);
  return score(model, whole, contextTokens.length);
}

const REQUESTS: LoglikelihoodRequest[] = [
  { context: 'Once', continuation: ' upon a time' },
  { context: 'Question: 2+2=\nAnswer: ', continuation: '4' },
  { context: 'the thing and', continuation: ' the end.' },
];

/** Every backend under test over one stand-in; each is closed after the file. */
function backends(standIn: () => VllmStandIn, name: string) {
  const opened: ModelBackend[] = [];
  const keep = async <B extends ModelBackend>(backend: Promise<B>) => {
    const value = await backend;
    opened.push(value);
    return value;
  };
  return {
    opened,
    vllm: (extra: Record<string, unknown> = {}) =>
      keep(createManagedBackend('vllm', { base_url: standIn().url, pretrained: name, ...extra })),
    sglang: (extra: Record<string, unknown> = {}) =>
      keep(createManagedBackend('sglang', { base_url: standIn().url, pretrained: name, ...extra })),
    local: (extra: Record<string, unknown> = {}) =>
      keep(
        openHttpBackend('local-completions', {
          model: name,
          base_url: standIn().completionsUrl,
          tokenizer_backend: 'remote',
          ...extra,
        }),
      ),
  };
}

describe('a generated llama GGUF behind the vLLM stand-in', () => {
  const vocab = buildSpmVocab(asciiCharPieces());
  const modelPath = path.join(work, 'tiny.gguf');
  const tokenizerFolder = writeTokenizerFolder(path.join(work, 'tiny-tokenizer'), spmFromVocab(vocab));
  let model: GgufBackend;
  let standIn: VllmStandIn;
  const make = backends(() => standIn, 'tiny');
  beforeAll(async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(modelPath, writeGguf(randomLlamaGguf({ seed: 41, vocab, contextLength: 128 })));
    model = await GgufBackend.create({ modelPath, threads: 1, nCtx: 128 });
    standIn = await startVllmStandIn(model, 'tiny');
  });
  afterAll(async () => {
    for (const backend of make.opened) await backend.close?.();
    await standIn?.close();
    await model?.close();
  });

  it("vllm: the tokenizer's BOS on both encodings (lm-eval's VLLM.tok_encode), unless add_bos_token=false", async () => {
    const vllm = await make.vllm();
    const answers = await vllm.loglikelihood({ requests: REQUESTS });
    let differs = 0;
    for (const [index, request] of REQUESTS.entries()) {
      const withBos = await lmEvalPair(model, request, true);
      const without = await lmEvalPair(model, request, false);
      expect(logprobOf(answers[index]), JSON.stringify(request)).toBeCloseTo(withBos, 4);
      if (Math.abs(withBos - without) > 1e-3) differs++;
    }
    // The two rules give different numbers here, so the test tells them apart.
    expect(differs).toBeGreaterThan(0);
    // The server's tokenizer was asked for its default special tokens (vLLM's add_special_tokens=true).
    const asked = standIn.bodies.filter((entry) => entry.route === '/tokenize').map((entry) => entry.body);
    expect(asked.some((body) => body.add_special_tokens === true)).toBe(true);
    expect(vllm.info().add_bos_token).toEqual({
      value: true,
      source: 'default',
      rule: "lm-eval's vllm (add_bos_token=None): the tokenizer's default special tokens",
    });

    const overridden = await make.vllm({ add_bos_token: false });
    const plain = await overridden.loglikelihood({ requests: REQUESTS });
    for (const [index, request] of REQUESTS.entries())
      expect(logprobOf(plain[index])).toBeCloseTo(await lmEvalPair(model, request, false), 4);
    expect(overridden.info().add_bos_token).toEqual({
      value: false,
      source: 'model_args',
      rule: 'add_bos_token=false',
    });
  });

  it('local-completions and sglang: no special tokens (TemplateAPI, SGLangLM add_bos_token=False), unless add_bos_token=true', async () => {
    for (const backend of [await make.local(), await make.sglang()]) {
      const answers = await backend.loglikelihood({ requests: REQUESTS });
      for (const [index, request] of REQUESTS.entries())
        expect(logprobOf(answers[index]), `${backend.name} ${JSON.stringify(request)}`).toBeCloseTo(
          await lmEvalPair(model, request, false),
          4,
        );
      expect((backend.info().add_bos_token as { value: boolean }).value).toBe(false);
    }
    const withBos = await make.local({ add_bos_token: true });
    const answers = await withBos.loglikelihood({ requests: REQUESTS });
    for (const [index, request] of REQUESTS.entries())
      expect(logprobOf(answers[index])).toBeCloseTo(await lmEvalPair(model, request, true), 4);
  });

  it("sglang turns BOS on for a model named gemma, as lm-eval's SGLangLM.__init__ does; add_bos_token wins", async () => {
    const gemma = await make.sglang({ pretrained: 'google/gemma-2-2b' });
    expect(gemma.info().add_bos_token).toEqual({
      value: true,
      source: 'default',
      rule: `lm-eval's sglang: "gemma" in the model name (google/gemma-2-2b) turns add_bos_token on`,
    });
    const refused = await make.sglang({ pretrained: 'google/gemma-2-2b', add_bos_token: false });
    expect(refused.info().add_bos_token).toEqual({
      value: false,
      source: 'model_args',
      rule: 'add_bos_token=false',
    });
  });

  it('an empty context is the prefix token alone, the continuation without special tokens (TemplateLM.loglikelihood)', async () => {
    const request = { context: '', continuation: 'the end' };
    const continuation = await model.tokenize(request.continuation, false);
    const bos = (await model.tokenize('', true))[0];
    const expected = await score(model, [bos, ...continuation], 1);
    for (const backend of [
      await make.vllm(),
      await make.local(),
      await make.local({ add_bos_token: true }),
    ]) {
      const [answer] = await backend.loglikelihood({ requests: [request] });
      expect(logprobOf(answer), backend.name).toBeCloseTo(expected, 4);
    }
  });

  it('rolling windows encode the text under the same rule after the prefix token (loglikelihood_rolling)', async () => {
    const text = 'the thing and the end. Once upon a time';
    const bos = (await model.tokenize('', true))[0];
    // vllm_causallms.py VLLM.loglikelihood_rolling: get_rolling_token_windows(tok_encode(string),
    // prefix_token=prefix_token_id): with the tokenizer's BOS in the list, the first window scores it too.
    const vllmTokens = [bos, ...(await model.tokenize(text, true))];
    // api_models.py TemplateAPI.loglikelihood_rolling: tok_encode(string) without special tokens.
    const templateTokens = [bos, ...(await model.tokenize(text, false))];
    const [fromVllm] = await (await make.vllm()).loglikelihoodRolling({ requests: [{ text }] });
    const [fromLocal] = await (await make.local()).loglikelihoodRolling({ requests: [{ text }] });
    expect(fromVllm as number).toBeCloseTo(await score(model, vllmTokens, 1), 3);
    expect(fromLocal as number).toBeCloseTo(await score(model, templateTokens, 1), 3);
  });

  it('a text that starts with the BOS text gets no second BOS (utils.py has_bos_prefix in VLLM.tok_encode)', async () => {
    const tokenizer = await HfTokenizer.load({
      ...(localTokenizerFolder(tokenizerFolder) as TokenizerFolder),
      name: 'tiny',
    });
    const bos = (await tokenizer.bos()) as number;
    // VLLM.tok_encode encodes a string with has_bos_prefix(s, decode(prefix_token_id)) with
    // add_special_tokens=False: "<s>" in the text is the BOS, and nothing is added.
    const rendered = '<s>the thing and';
    expect(await encodePrompt(tokenizer, rendered, true)).toEqual(await tokenizer.encode(rendered, false));
    expect((await encodePrompt(tokenizer, rendered, true)).filter((id) => id === bos)).toHaveLength(1);
    expect(await encodePrompt(tokenizer, 'the thing and', true)).toEqual([
      bos,
      ...(await tokenizer.encode('the thing and', false)),
    ]);
    // Through a backend that adds BOS, with a local tokenizer: the score is that of one BOS, and so is the
    // prompt sent. (lm-eval's TemplateAPI.tok_encode has no has_bos_prefix check and would send two with
    // add_bos_token=True; assay never sends a second BOS, whichever backend.)
    const withBos = await make.local({
      tokenizer_backend: 'huggingface',
      tokenizer: tokenizerFolder,
      add_bos_token: true,
    });
    const sent = standIn.bodies.length;
    const [answer] = await withBos.loglikelihood({
      requests: [{ context: rendered, continuation: ' the end.' }],
    });
    const whole = [bos, ...(await model.tokenize('the thing and the end.', false))];
    const context = [bos, ...(await model.tokenize('the thing and', false))];
    expect(logprobOf(answer)).toBeCloseTo(await score(model, whole, context.length), 4);
    const prompt = standIn.bodies.slice(sent).find((entry) => entry.route === '/v1/completions')?.body
      .prompt as number[];
    expect(prompt.slice(0, 2)).toEqual([bos, whole[1]]);
  });

  it('generation prompts are token ids under the same rule (VLLM.generate_until, TemplateAPI.generate_until)', async () => {
    const prompts: unknown[] = [];
    const server = await startTestServer({}, 1, {
      onRequest: (route, body) => {
        if (route === 'POST /v1/completions' && body.max_tokens === 8) prompts.push(body.prompt);
      },
    });
    const request = {
      context: 'Question: what next?\nAnswer:',
      until: ['\n'],
      maxGenToks: 8,
      temperature: 0,
      doSample: false,
      extra: {},
    };
    try {
      const vllm = await createManagedBackend('vllm', { base_url: server.url, pretrained: 'test' });
      const local = await openHttpBackend('local-completions', {
        model: 'test',
        base_url: server.completionsUrl,
        tokenizer_backend: 'remote',
      });
      const [fromVllm] = await vllm.generate({ requests: [request] });
      const [fromLocal] = await local.generate({ requests: [request] });
      await vllm.close?.();
      await local.close?.();
      // The fake server's /tokenize gives "<s>" id 0 with special tokens.
      const [withBos, without] = prompts as number[][];
      expect(withBos).toEqual([0, ...without]);
      expect(without[0]).not.toBe(0);
      expect(typeof fromVllm).toBe('string');
      expect(fromVllm).toBe(fromLocal);
    } finally {
      await server.close();
    }
  });
});

/** stories260K's tokenizer.json, written from its GGUF vocabulary (llama.cpp's add_space_prefix is on). */
async function storiesTokenizer(): Promise<TokenizerFixture> {
  const info = await readGgufFileInfo(STORIES, { readTensorInfo: false, logWarnings: false });
  const ggml = info.metadata.tokenizer.ggml as unknown as {
    tokens: string[];
    scores: number[];
    token_type: number[];
    bos_token_id: number;
    eos_token_id: number;
    unknown_token_id: number;
  };
  const vocab: SpmVocab = {
    tokens: [...ggml.tokens],
    scores: [...ggml.scores],
    types: [...ggml.token_type],
    bos: ggml.bos_token_id,
    eos: ggml.eos_token_id,
    unk: ggml.unknown_token_id,
  };
  return spmFromVocab(vocab, { addSpacePrefix: true });
}

describe.skipIf(!storiesPresent)(
  `stories260K.gguf behind the vLLM stand-in${storiesPresent ? '' : ' (skipped: ../shared/models/stories260K.gguf is absent)'}`,
  () => {
    const NAME = 'roneneldan/stories260K';
    const COMMIT = '5'.repeat(40);
    let model: GgufBackend;
    let standIn: VllmStandIn;
    let hub: FakeHub;
    const make = backends(() => standIn, NAME);
    beforeAll(async () => {
      model = await GgufBackend.create({ modelPath: STORIES, threads: 1 });
      standIn = await startVllmStandIn(model, NAME);
      const tokenizer = await storiesTokenizer();
      const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
      hub = await startFakeHub({}, undefined, {
        [NAME]: {
          refs: { main: COMMIT },
          commits: {
            [COMMIT]: [
              { path: 'tokenizer.json', content: encode(tokenizer.json) },
              { path: 'tokenizer_config.json', content: encode(tokenizer.config) },
            ],
          },
        },
      });
    });
    afterAll(async () => {
      for (const backend of make.opened) await backend.close?.();
      await standIn?.close();
      await hub?.close();
      await model?.close();
    });

    const ONCE = [{ context: 'Once', continuation: ' upon a time' }];

    it("--model vllm gives lm-eval's vllm number, −0.0304; add_bos_token=false gives local-completions', −0.0374", async () => {
      const [withBos] = await (await make.vllm()).loglikelihood({ requests: ONCE });
      expect(logprobOf(withBos)).toBeCloseTo(-0.0304, 3);
      expect(logprobOf(withBos)).toBeCloseTo(await lmEvalPair(model, ONCE[0], true), 5);
      const [without] = await (await make.vllm({ add_bos_token: false })).loglikelihood({ requests: ONCE });
      expect(logprobOf(without)).toBeCloseTo(-0.0374, 3);
    });

    it("local-completions keeps lm-eval's −0.0374: with the server's tokenizer, and by default with the model's tokenizer from the Hub", async () => {
      const [remote] = await (await make.local()).loglikelihood({ requests: ONCE });
      expect(logprobOf(remote)).toBeCloseTo(-0.0374, 3);
      expect(logprobOf(remote)).toBeCloseTo(await lmEvalPair(model, ONCE[0], false), 5);
      // lm-eval's default: tokenizer_backend=auto (the stand-in has no /tokenizer_info, so huggingface
      // from the model's name) and tokenized_requests=True.
      const cache = path.join(work, 'stories-cache');
      const backend = await openHttpBackend(
        'local-completions',
        { model: NAME, base_url: standIn.completionsUrl },
        undefined,
        { env: { HF_ENDPOINT: hub.endpoint, HF_HUB_CACHE: cache } },
      );
      make.opened.push(backend);
      // The tokenizer.json written from the GGUF tokenizes as the server does (the test's precondition).
      const local = await HfTokenizer.load({
        name: NAME,
        file: path.join(cache, `models--roneneldan--stories260K`, 'snapshots', COMMIT, 'tokenizer.json'),
      });
      for (const text of ['Once upon a time', 'One day, a little girl named Lily went to the park.'])
        expect(await local.encode(text, true)).toEqual(await model.tokenize(text, true));
      const [byDefault] = await backend.loglikelihood({ requests: ONCE });
      expect(logprobOf(byDefault)).toBeCloseTo(-0.0374, 3);
      expect(backend.info().tokenizer).toMatchObject({
        backend: 'huggingface',
        name: NAME,
        hub: { repo: NAME, revision: 'main', commit: COMMIT, from: 'hub' },
      });
      // Text prompts (tokenized_requests=false, assay's old default) get the server's BOS: −0.0304.
      const [text] = await (
        await make.local({ tokenizer_backend: undefined, tokenized_requests: false })
      ).loglikelihood({ requests: ONCE });
      expect(logprobOf(text)).toBeCloseTo(-0.0304, 3);
    });
  },
);
