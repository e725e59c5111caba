/**
 * The conformance suite of the model seam (backend spec v2), shipped as `assay/testing`. Every backend
 * runs it: the built-in ones, the response-cache wrapper, and any third-party backend. The suite speaks
 * v2; a backend of spec v1 is adapted to it first (`toCurrentSpec`), as the registry adapts it for a run. Tests of a
 * capability the backend declares false check instead that it refuses, as `capability-refusals` does for
 * every such capability. Nothing is skipped and nothing is faked: a backend none of whose requests can
 * fail alone says why (`noRequestFails`) and is held to that.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  type AnyVersionBackend,
  BACKEND_SPECIFICATION_VERSION,
  type BackendCapabilities,
  CAPABILITY_METHODS,
  CAPABILITY_NAMES,
  type GenerateRequest,
  hasChatTemplate,
  hasGenerationLogprobs,
  hasTokenScoring,
  hasUsage,
  isRequestError,
  type LoglikelihoodResult,
  type ModelBackend,
  type OptionalCapability,
  type TokenWindow,
  toCurrentSpec,
} from '../models/backend.js';
import { checkBackendSpec } from '../models/spec/spec-check.js';

export type BackendConformanceTest =
  | 'spec'
  | 'info'
  | 'empty-batches'
  | 'progress'
  | 'loglikelihood-shape'
  | 'loglikelihood-batch-invariance'
  | 'rolling-shape'
  | 'rolling-batch-invariance'
  | 'generate-stops'
  | 'generate-deterministic'
  | 'generation-logprobs'
  | 'token-scoring-tokenizer'
  | 'token-scoring-windows'
  | 'chat-template'
  | 'usage'
  | 'error-slots-loglikelihood'
  | 'error-slots-rolling'
  | 'error-slots-generate'
  | 'call-options'
  | 'aborted-call'
  | 'capability-refusals';

export interface BackendConformanceOptions {
  name: string;
  /**
   * Called once for the suite; the backend (spec v2, or v1, which the suite adapts) is closed when the
   * suite ends.
   */
  create: () => AnyVersionBackend | Promise<AnyVersionBackend>;
  /**
   * The same backend, except that every request whose text contains `marker` fails for good (after the
   * backend's own retries), for the error-slot tests: a server that answers those with HTTP 500, say.
   */
  createFailing?: (marker: string) => AnyVersionBackend | Promise<AnyVersionBackend>;
  /**
   * How many requests the backend sends its model in one call (the prompts of one HTTP request): a request
   * that fails takes those sent with it along, with its cause. Default 1: a request fails alone.
   */
  requestsPerCall?: number;
  /**
   * Instead of `createFailing`, for a backend none of whose requests can fail alone, why (the model is
   * computed in process, or an engine failure fails the whole call): the error-slot tests then hold it to
   * that, every slot of the marked batch answering as its request answers alone.
   */
  noRequestFails?: string;
}

const REQUESTS = [
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 4' },
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 5' },
  { context: 'The capital of France is', continuation: ' Paris' },
  { context: 'Once', continuation: ' upon a time' },
];

const TEXTS = [{ text: 'One day, a little girl named Lily went to the park.' }, { text: 'Hello.' }];

const GENERATE: GenerateRequest = {
  context: 'Question: What is 3+4?\nAnswer:',
  until: ['\n\n', 'Question:'],
  maxGenToks: 32,
  temperature: 0,
  doSample: false,
  extra: {},
};

const OTHER_GENERATE: GenerateRequest = { ...GENERATE, context: 'Question: Name a colour.\nAnswer:' };

/** What the failing backend must fail on; no other request of the suite contains it. */
const MARKER = 'assay-conformance-fail-this-request';

/** A healthy backend answers every request; a RequestError here is a failure, not a skipped value. */
function ok<T>(answers: Answer<T>[]): T[] {
  for (const answer of answers)
    if (isRequestError(answer)) throw new Error(`backend returned an error: ${answer.message}`);
  return answers as T[];
}

/** Resolves to the AssayError `code` the call refused with; fails the test when it answered instead. */
async function refusal(call: () => unknown): Promise<unknown> {
  let answered: unknown;
  try {
    answered = await call();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  throw new Error(`answered ${JSON.stringify(answered)?.slice(0, 200)} instead of refusing`);
}

/** Arguments for each method a capability declared false must refuse. */
const REFUSED_CALLS: Record<string, unknown[]> = {
  loglikelihood: [{ requests: REQUESTS }],
  loglikelihoodRolling: [{ requests: TEXTS }],
  generate: [{ requests: [GENERATE] }],
  tokenize: ['Hello.'],
  detokenize: [[1, 2]],
  tokenizerInfo: [],
  scoreTokenWindows: [[{ tokens: [1, 2, 3], scoreFrom: 1 }]],
  generateWithLogprobs: [[GENERATE]],
  applyChatTemplate: [[{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true }],
  chatTemplate: [],
  usage: [],
};

/**
 * A capability the backend declares false refuses (`capability_missing`): a required one's method always;
 * an optional one's methods where the object has them anyway (a chat template that is not there may also
 * read as undefined).
 */
async function expectRefusals(model: ModelBackend, capability: keyof BackendCapabilities): Promise<void> {
  const methods = model as unknown as Record<string, (...args: unknown[]) => unknown>;
  const optional = capability in CAPABILITY_METHODS;
  const names: readonly string[] = optional
    ? CAPABILITY_METHODS[capability as OptionalCapability]
    : [capability];
  for (const method of names) {
    if (optional && typeof methods[method] !== 'function') continue;
    if (method === 'chatTemplate') {
      let template: unknown;
      try {
        template = methods[method].call(model);
      } catch (error) {
        template = (error as { code?: unknown }).code;
      }
      expect([undefined, 'capability_missing']).toContain(template);
      continue;
    }
    expect(await refusal(() => methods[method].apply(model, REFUSED_CALLS[method]))).toBe(
      'capability_missing',
    );
  }
}

/** Progress reports of one call: never backwards, never past the batch, ending at it when any. */
function progressRecorder(): { sink: (done: number) => void; check: (total: number) => void } {
  const seen: number[] = [];
  return {
    sink: (done) => seen.push(done),
    check: (total) => {
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
      for (const done of seen) {
        expect(Number.isInteger(done)).toBe(true);
        expect(done).toBeLessThanOrEqual(total);
      }
      expect(seen.at(-1)).toBe(total);
    },
  };
}

export function runBackendConformance(options: BackendConformanceOptions): void {
  if ((options.createFailing === undefined) === (options.noRequestFails === undefined))
    throw new Error(`${options.name}: give createFailing, or noRequestFails with the reason, not both`);

  /** The backend as created, before a v1 one is adapted: what the spec check reads. */
  let created: AnyVersionBackend | undefined;
  let healthy: Promise<ModelBackend> | undefined;
  let failing: Promise<ModelBackend> | undefined;
  const backend = () => {
    healthy ??= Promise.resolve(options.create()).then((given) => {
      created = given;
      return toCurrentSpec(given);
    });
    return healthy;
  };
  const failingBackend = (createFailing: NonNullable<BackendConformanceOptions['createFailing']>) => {
    failing ??= Promise.resolve(createFailing(MARKER)).then(toCurrentSpec);
    return failing;
  };

  /**
   * One test. With `needs`, it runs when the backend declares that capability; when it declares it false,
   * the test holds the capability's methods to their refusal instead (as `capability-refusals` does for
   * every capability declared false).
   */
  const check = (
    test: BackendConformanceTest,
    needs: keyof BackendCapabilities | undefined,
    body: (model: ModelBackend) => Promise<void>,
  ) => {
    it(test, async () => {
      const model = await backend();
      // A capability declared false is held to its refusal instead.
      if (needs && model.capabilities[needs] !== true) await expectRefusals(model, needs);
      else await body(model);
    });
  };

  describe(`ModelBackend conformance: ${options.name}`, () => {
    afterAll(async () => {
      await Promise.all(
        [healthy, failing].map(async (pending) => {
          const model = await pending?.catch(() => undefined);
          await model?.close?.();
        }),
      );
    });

    check('spec', undefined, async (model) => {
      // As created: a spec version this assay accepts, every declared capability's methods there.
      expect(() => checkBackendSpec(created, options.name)).not.toThrow();
      expect(['v1', BACKEND_SPECIFICATION_VERSION]).toContain(created?.specificationVersion);
      // As the suite (and a run) calls it: v2, declaring what the created backend declares.
      expect(model.specificationVersion).toBe(BACKEND_SPECIFICATION_VERSION);
      expect(model.capabilities).toEqual(created?.capabilities);
      expect(typeof model.name).toBe('string');
      expect(model.name.length).toBeGreaterThan(0);
      for (const capability of CAPABILITY_NAMES)
        expect(typeof model.capabilities[capability]).toBe('boolean');
      // A declared capability comes with every method of its sub-interface.
      expect(() => checkBackendSpec(model, options.name)).not.toThrow();
      expect(hasTokenScoring(model)).toBe(model.capabilities.tokenScoring);
      expect(hasGenerationLogprobs(model)).toBe(model.capabilities.generationLogprobs);
      expect(hasChatTemplate(model)).toBe(model.capabilities.chatTemplate);
      expect(hasUsage(model)).toBe(model.capabilities.usage);
      // How many requests it works on at once (the latency cap keeps no more in flight): unset, or ≥ 1.
      const { concurrency } = model;
      expect(concurrency === undefined || (Number.isInteger(concurrency) && concurrency >= 1)).toBe(true);
    });

    check('info', undefined, async (model) => {
      const info = model.info();
      expect(typeof info.name).toBe('string');
      expect(info.name.length).toBeGreaterThan(0);
      // The manifest records it as JSON.
      expect(JSON.parse(JSON.stringify(info))).toEqual(info);
    });

    check('empty-batches', undefined, async (model) => {
      const { capabilities } = model;
      if (capabilities.loglikelihood) expect(await model.loglikelihood({ requests: [] })).toEqual([]);
      if (capabilities.loglikelihoodRolling)
        expect(await model.loglikelihoodRolling({ requests: [] })).toEqual([]);
      if (capabilities.generate) expect(await model.generate({ requests: [] })).toEqual([]);
      if (hasGenerationLogprobs(model))
        expect(await model.generateWithLogprobs({ requests: [] })).toEqual([]);
      if (hasTokenScoring(model)) expect(await model.scoreTokenWindows({ requests: [] })).toEqual([]);
    });

    check('progress', undefined, async (model) => {
      const { capabilities } = model;
      if (capabilities.loglikelihood) {
        const progress = progressRecorder();
        ok(await model.loglikelihood({ requests: REQUESTS, onProgress: progress.sink }));
        progress.check(REQUESTS.length);
      }
      if (capabilities.loglikelihoodRolling) {
        const progress = progressRecorder();
        ok(await model.loglikelihoodRolling({ requests: TEXTS, onProgress: progress.sink }));
        progress.check(TEXTS.length);
      }
      if (capabilities.generate) {
        const progress = progressRecorder();
        ok(await model.generate({ requests: [GENERATE, OTHER_GENERATE], onProgress: progress.sink }));
        progress.check(2);
      }
    });

    check('loglikelihood-shape', 'loglikelihood', async (model) => {
      const results = ok(await model.loglikelihood({ requests: REQUESTS }));
      expect(results).toHaveLength(REQUESTS.length);
      for (const result of results) {
        expect(Number.isFinite(result.logprob)).toBe(true);
        expect(result.logprob).toBeLessThanOrEqual(0);
        expect(typeof result.isGreedy).toBe('boolean');
      }
      // A longer continuation of the same context cannot be more likely than its prefix.
      const [prefix, longer] = ok(
        await model.loglikelihood({
          requests: [
            { context: 'Once', continuation: ' upon' },
            { context: 'Once', continuation: ' upon a time' },
          ],
        }),
      );
      expect(longer.logprob).toBeLessThanOrEqual(prefix.logprob + 1e-6);
    });

    check('loglikelihood-batch-invariance', 'loglikelihood', async (model) => {
      const together = ok(await model.loglikelihood({ requests: REQUESTS }));
      const reversed = ok(await model.loglikelihood({ requests: [...REQUESTS].reverse() }));
      const alone: LoglikelihoodResult[] = [];
      for (const request of REQUESTS) alone.push(ok(await model.loglikelihood({ requests: [request] }))[0]);
      for (let i = 0; i < REQUESTS.length; i++) {
        expect(reversed[REQUESTS.length - 1 - i].logprob).toBeCloseTo(together[i].logprob, 4);
        expect(alone[i].logprob).toBeCloseTo(together[i].logprob, 4);
        expect(alone[i].isGreedy).toBe(together[i].isGreedy);
      }
    });

    check('rolling-shape', 'loglikelihoodRolling', async (model) => {
      const results = ok(await model.loglikelihoodRolling({ requests: TEXTS }));
      expect(results).toHaveLength(2);
      for (const value of results) {
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeLessThan(0);
      }
    });

    check('rolling-batch-invariance', 'loglikelihoodRolling', async (model) => {
      const together = ok(await model.loglikelihoodRolling({ requests: TEXTS }));
      const reversed = ok(await model.loglikelihoodRolling({ requests: [...TEXTS].reverse() }));
      const alone = ok(await model.loglikelihoodRolling({ requests: [TEXTS[1]] }));
      expect(reversed[1]).toBeCloseTo(together[0], 4);
      expect(reversed[0]).toBeCloseTo(together[1], 4);
      expect(alone[0]).toBeCloseTo(together[1], 4);
    });

    check('generate-stops', 'generate', async (model) => {
      const [text] = ok(await model.generate({ requests: [GENERATE] }));
      expect(typeof text).toBe('string');
      for (const stop of GENERATE.until) expect(text.includes(stop)).toBe(false);
    });

    check('generate-deterministic', 'generate', async (model) => {
      const first = ok(await model.generate({ requests: [GENERATE, OTHER_GENERATE] }));
      const second = ok(await model.generate({ requests: [OTHER_GENERATE, GENERATE] }));
      expect(second).toEqual([first[1], first[0]]);
    });

    check('generation-logprobs', 'generationLogprobs', async (model) => {
      if (!hasGenerationLogprobs(model)) throw new Error('declared generationLogprobs without the method');
      const texts = ok(await model.generate({ requests: [GENERATE, OTHER_GENERATE] }));
      const generations = ok(await model.generateWithLogprobs({ requests: [GENERATE, OTHER_GENERATE] }));
      // The same texts `generate` returns, with each generated token's log-probability where known.
      expect(generations.map((generation) => generation.text)).toEqual(texts);
      for (const { logprobs } of generations) {
        if (logprobs === null) continue;
        expect(logprobs.tokens.length).toBe(logprobs.logprobs.length);
        expect(logprobs.tokens.every((token) => typeof token === 'string')).toBe(true);
        for (const value of logprobs.logprobs) {
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeLessThanOrEqual(0);
        }
      }
    });

    check('token-scoring-tokenizer', 'tokenScoring', async (model) => {
      if (!hasTokenScoring(model)) throw new Error('declared tokenScoring without its methods');
      const info = await model.tokenizerInfo();
      expect(typeof info.name).toBe('string');
      expect(Number.isInteger(info.prefixToken) && info.prefixToken >= 0).toBe(true);
      expect(info.bos === null || Number.isInteger(info.bos)).toBe(true);
      expect(typeof info.addBos).toBe('boolean');
      expect(Number.isInteger(info.maxWindowTokens) && info.maxWindowTokens > 1).toBe(true);
      if (info.vocabSha256 === null) expect(info.note).toBeTruthy();
      else {
        expect(info.vocabSha256).toMatch(/^[0-9a-f]{64}$/);
        expect(info.vocabSize).toBeGreaterThan(info.prefixToken);
      }
      const text = 'Once upon a time, there was a cat.';
      const tokens = await model.tokenize(text);
      expect(tokens.length).toBeGreaterThan(1);
      expect(tokens.every((token) => Number.isInteger(token) && token >= 0)).toBe(true);
      // Without BOS: the ids are the text's own, and they spell it again (up to the leading space a
      // SentencePiece tokenizer adds and drops).
      if (info.bos !== null) expect(tokens[0]).not.toBe(info.bos);
      expect((await model.detokenize(tokens)).trim()).toBe(text);
      expect(await model.tokenize(text)).toEqual(tokens);
    });

    check('token-scoring-windows', 'tokenScoring', async (model) => {
      if (!hasTokenScoring(model)) throw new Error('declared tokenScoring without its methods');
      const info = await model.tokenizerInfo();
      const tokens = [
        info.prefixToken,
        ...(await model.tokenize('Once upon a time, there was a little cat.')),
      ];
      const split = Math.min(4, tokens.length - 1);
      const windows: TokenWindow[] = [
        { tokens, scoreFrom: 1 },
        { tokens, scoreFrom: split },
        { tokens: tokens.slice(0, split + 1), scoreFrom: 1 },
      ];
      const [whole, tail, head] = await model.scoreTokenWindows({ requests: windows });
      expect(whole).toHaveLength(tokens.length - 1);
      for (const value of whole) {
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeLessThanOrEqual(0);
      }
      // Scoring from s keeps the same log-probabilities for the same positions, and a window's scores do
      // not depend on the tokens after them or on the other windows of the call.
      expect(tail).toHaveLength(tokens.length - split);
      for (const [i, value] of tail.entries()) expect(value).toBeCloseTo(whole[split - 1 + i], 4);
      for (const [i, value] of head.entries()) expect(value).toBeCloseTo(whole[i], 4);
      const [alone] = await model.scoreTokenWindows({ requests: [windows[1]] });
      expect(alone).toHaveLength(tail.length);
      for (const [i, value] of alone.entries()) expect(value).toBeCloseTo(tail[i], 4);
    });

    check('chat-template', 'chatTemplate', async (model) => {
      if (!hasChatTemplate(model)) throw new Error('declared chatTemplate without its methods');
      const messages = [
        { role: 'system' as const, content: 'You answer in one word.' },
        { role: 'user' as const, content: 'What colour is the sky?' },
        { role: 'assistant' as const, content: 'Blue.' },
        { role: 'user' as const, content: 'And grass?' },
      ];
      const prompt = model.applyChatTemplate(messages, { addGenerationPrompt: true });
      expect(typeof prompt).toBe('string');
      let from = 0;
      for (const message of messages) {
        // Every message appears, in order.
        const at = prompt.indexOf(message.content, from);
        expect(at).toBeGreaterThanOrEqual(from);
        from = at + message.content.length;
      }
      expect(model.applyChatTemplate(messages, { addGenerationPrompt: true })).toBe(prompt);
      const template = model.chatTemplate();
      expect(template === undefined || (typeof template === 'string' && template.length > 0)).toBe(true);
    });

    check('usage', 'usage', async (model) => {
      if (!hasUsage(model)) throw new Error('declared usage without the method');
      const before = model.usage();
      const count = 2;
      if (model.capabilities.generate) ok(await model.generate({ requests: [GENERATE, OTHER_GENERATE] }));
      else ok(await model.loglikelihood({ requests: REQUESTS.slice(0, count) }));
      const after = model.usage();
      // One logical request per request of the call, whether it was sent, answered from cache or failed.
      expect(after.requests - before.requests).toBe(count);
      for (const key of [
        'requests',
        'httpRequests',
        'cachedRequests',
        'retries',
        'failedRequests',
        'tokensIn',
        'tokensOut',
      ] as const) {
        expect(Number.isInteger(after[key]) && after[key] >= 0).toBe(true);
        expect(after[key]).toBeGreaterThanOrEqual(before[key]);
      }
      expect(after.cachedRequests + after.failedRequests).toBeLessThanOrEqual(after.requests);
      expect(after.seconds).toBeGreaterThanOrEqual(0);
      expect(after.requestsPerSecond).toBeGreaterThanOrEqual(0);
      if (after.latencyP50Ms !== null && after.latencyP95Ms !== null)
        expect(after.latencyP50Ms).toBeLessThanOrEqual(after.latencyP95Ms);
      expect(after.costUsd === null || after.costUsd >= 0).toBe(true);
    });

    /**
     * A batch of three whose middle request fails: its slot holds the RequestError, the others answer as
     * the healthy backend answers them, unless they went in one call with it (`requestsPerCall`), then
     * failing with its cause. A backend none of whose requests fails alone answers every slot instead.
     */
    const errorSlots = <R, A>(
      test: BackendConformanceTest,
      needs: 'loglikelihood' | 'loglikelihoodRolling' | 'generate',
      requests: [R, R, R],
      send: (model: ModelBackend, batch: R[]) => Promise<Answer<A>[]>,
      same: (got: A, expected: A) => void,
    ) =>
      check(test, needs, async (model) => {
        if (options.createFailing === undefined) {
          const answers = ok(await send(model, requests));
          expect(answers).toHaveLength(3);
          for (const [slot, request] of requests.entries())
            same(answers[slot], ok(await send(model, [request]))[0]);
          return;
        }
        const poisoned = await failingBackend(options.createFailing);
        const answers = await send(poisoned, requests);
        expect(answers).toHaveLength(3);
        const failed = answers[1];
        if (!isRequestError(failed)) throw new Error(`the marked request answered ${JSON.stringify(failed)}`);
        expect(typeof failed.message).toBe('string');
        expect(failed.message.length).toBeGreaterThan(0);
        expect(typeof failed.cause).toBe('string');
        // The other slots hold the answers the healthy backend gives for the same requests.
        const expected = ok(await send(model, [requests[0], requests[2]]));
        const perCall = options.requestsPerCall ?? 1;
        let failures = 1;
        for (const [answer, healthy] of [
          [answers[0], expected[0]],
          [answers[2], expected[1]],
        ] as const) {
          if (perCall > 1 && isRequestError(answer)) {
            failures++;
            expect(answer.cause).toBe(failed.cause);
          } else same(ok([answer])[0], healthy);
        }
        expect(failures).toBeLessThanOrEqual(perCall);
      });

    errorSlots(
      'error-slots-loglikelihood',
      'loglikelihood',
      [REQUESTS[0], { context: `${MARKER} says`, continuation: ' hello' }, REQUESTS[2]],
      (model, batch) => model.loglikelihood({ requests: batch }),
      (got, expected) => expect(got.logprob).toBeCloseTo(expected.logprob, 4),
    );
    errorSlots(
      'error-slots-rolling',
      'loglikelihoodRolling',
      [TEXTS[0], { text: `The word ${MARKER} is not a word.` }, TEXTS[1]],
      (model, batch) => model.loglikelihoodRolling({ requests: batch }),
      (got, expected) => expect(got).toBeCloseTo(expected, 4),
    );
    errorSlots(
      'error-slots-generate',
      'generate',
      [GENERATE, { ...GENERATE, context: `Question: what is ${MARKER}?\nAnswer:` }, OTHER_GENERATE],
      (model, batch) => model.generate({ requests: batch }),
      (got, expected) => expect(got).toBe(expected),
    );

    // Per-call options (spec v2's `abortSignal`): a signal that never fires changes no answer.
    check('call-options', undefined, async (model) => {
      const live = () => new AbortController().signal;
      const { capabilities } = model;
      if (capabilities.loglikelihood) {
        const plain = ok(await model.loglikelihood({ requests: REQUESTS }));
        const given = ok(await model.loglikelihood({ requests: REQUESTS, abortSignal: live() }));
        for (const [i, result] of given.entries()) {
          expect(result.logprob).toBeCloseTo(plain[i].logprob, 4);
          expect(result.isGreedy).toBe(plain[i].isGreedy);
        }
      }
      if (capabilities.loglikelihoodRolling) {
        const plain = ok(await model.loglikelihoodRolling({ requests: TEXTS }));
        const given = ok(await model.loglikelihoodRolling({ requests: TEXTS, abortSignal: live() }));
        for (const [i, value] of given.entries()) expect(value).toBeCloseTo(plain[i], 4);
      }
      if (capabilities.generate) {
        const plain = ok(await model.generate({ requests: [GENERATE, OTHER_GENERATE] }));
        expect(
          ok(await model.generate({ requests: [GENERATE, OTHER_GENERATE], abortSignal: live() })),
        ).toEqual(plain);
        if (hasGenerationLogprobs(model)) {
          const given = ok(
            await model.generateWithLogprobs({ requests: [GENERATE, OTHER_GENERATE], abortSignal: live() }),
          );
          expect(given.map((generation) => generation.text)).toEqual(plain);
        }
      }
    });

    /**
     * A call whose signal has already fired settles: refused, or answered with one slot per request by a
     * backend that cannot stop a call (the caller ignores those answers). Either way the backend lets go
     * of it and answers the next call as before, as the latency cap needs after it aborts a request.
     */
    check('aborted-call', undefined, async (model) => {
      const aborted = () => {
        const controller = new AbortController();
        controller.abort(new Error('aborted by the conformance suite'));
        return controller.signal;
      };
      const settles = async (count: number, call: () => Promise<unknown[]>) => {
        const settled = await call().then(
          (answers) => answers,
          (error: unknown) => error,
        );
        if (Array.isArray(settled)) expect(settled).toHaveLength(count);
      };
      const { capabilities } = model;
      if (capabilities.loglikelihood) {
        const before = ok(await model.loglikelihood({ requests: [REQUESTS[2]] }));
        await settles(1, () => model.loglikelihood({ requests: [REQUESTS[2]], abortSignal: aborted() }));
        const after = ok(await model.loglikelihood({ requests: [REQUESTS[2]] }));
        expect(after[0].logprob).toBeCloseTo(before[0].logprob, 4);
      }
      if (capabilities.loglikelihoodRolling) {
        const before = ok(await model.loglikelihoodRolling({ requests: [TEXTS[1]] }));
        await settles(1, () => model.loglikelihoodRolling({ requests: [TEXTS[1]], abortSignal: aborted() }));
        expect(ok(await model.loglikelihoodRolling({ requests: [TEXTS[1]] }))[0]).toBeCloseTo(before[0], 4);
      }
      if (capabilities.generate) {
        const before = ok(await model.generate({ requests: [OTHER_GENERATE] }));
        await settles(1, () => model.generate({ requests: [OTHER_GENERATE], abortSignal: aborted() }));
        if (hasGenerationLogprobs(model))
          await settles(1, () =>
            model.generateWithLogprobs({ requests: [OTHER_GENERATE], abortSignal: aborted() }),
          );
        expect(ok(await model.generate({ requests: [OTHER_GENERATE] }))).toEqual(before);
      }
    });

    check('capability-refusals', undefined, async (model) => {
      for (const capability of CAPABILITY_NAMES)
        if (!model.capabilities[capability]) await expectRefusals(model, capability);
    });
  });
}
