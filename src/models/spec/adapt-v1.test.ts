import { describe, expect, it } from 'vitest';
import { runBackendConformance } from '../../testing/backend-conformance.js';
import { DummyBackend } from '../dummy/dummy-backend.js';
import { adaptBackendV1, toCurrentSpec } from './adapt-v1.js';
import type { Answer, LoglikelihoodResult } from './answers.js';
import { hasGenerationLogprobs, hasTokenScoring, type TokenizerInfo } from './capabilities.js';
import type { ModelBackend } from './model-backend.js';
import type { ModelBackendV1, TokenScoringV1 } from './model-backend-v1.js';
import type {
  GenerateRequest,
  LoglikelihoodRequest,
  ProgressSink,
  RollingRequest,
  TokenWindow,
} from './requests.js';
import { checkBackendSpec } from './spec-check.js';

/** Every call a v1 backend receives, with its positional arguments as given. */
type Received = { method: string; args: unknown[] };

const CAPABILITIES = {
  loglikelihood: true,
  loglikelihoodRolling: true,
  generate: true,
  tokenScoring: true,
  generationLogprobs: false,
  chatTemplate: false,
  usage: false,
};

/** A spec v1 backend as a third party wrote one: answers fixed values and records every call's arguments. */
class RecordingV1 implements ModelBackendV1, TokenScoringV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'recording-v1';
  readonly capabilities = CAPABILITIES;
  readonly concurrency = 3;
  readonly received: Received[] = [];
  closed = 0;
  /** Read through `this`, so a method the adapter did not bind would throw. */
  private readonly vocabulary = 'abc';

  async loglikelihood(
    requests: LoglikelihoodRequest[],
    progress?: ProgressSink,
    options?: { signal?: AbortSignal },
  ): Promise<Answer<LoglikelihoodResult>[]> {
    this.received.push({ method: 'loglikelihood', args: [requests, progress, options] });
    progress?.(requests.length);
    return requests.map((request) => ({ logprob: -request.continuation.length, isGreedy: false }));
  }
  async loglikelihoodRolling(
    requests: RollingRequest[],
    progress?: ProgressSink,
    options?: { signal?: AbortSignal },
  ): Promise<number[]> {
    this.received.push({ method: 'loglikelihoodRolling', args: [requests, progress, options] });
    return requests.map((request) => -request.text.length);
  }
  async generate(
    requests: GenerateRequest[],
    progress?: ProgressSink,
    options?: { signal?: AbortSignal },
  ): Promise<string[]> {
    this.received.push({ method: 'generate', args: [requests, progress, options] });
    return requests.map((request) => request.context.toUpperCase());
  }
  async tokenize(text: string): Promise<number[]> {
    return [...text].map((char) => this.vocabulary.indexOf(char));
  }
  async detokenize(tokens: number[]): Promise<string> {
    return tokens.map((token) => this.vocabulary[token]).join('');
  }
  async tokenizerInfo(): Promise<TokenizerInfo> {
    return {
      name: 'abc',
      vocabSize: 3,
      vocabSha256: null,
      bos: null,
      addBos: false,
      prefixToken: 0,
      maxWindowTokens: 8,
    };
  }
  async scoreTokenWindows(windows: TokenWindow[], progress?: ProgressSink): Promise<number[][]> {
    this.received.push({ method: 'scoreTokenWindows', args: [windows, progress] });
    return windows.map((window) => window.tokens.slice(window.scoreFrom).map(() => -1));
  }
  info() {
    return { name: 'recording' };
  }
  async close() {
    this.closed++;
  }
}

const GENERATE: GenerateRequest = {
  context: 'say hi',
  until: [],
  maxGenToks: 4,
  temperature: 0,
  doSample: false,
  extra: {},
};

describe('a spec v1 backend adapted to v2', () => {
  it('gets each call-options object as v1 positional arguments: the batch, the sink, { signal }', async () => {
    const v1 = new RecordingV1();
    const adapted = adaptBackendV1(v1);
    const sink: ProgressSink = () => {};
    const controller = new AbortController();
    const requests = [{ context: 'a', continuation: 'bc' }];
    expect(
      await adapted.loglikelihood({ requests, onProgress: sink, abortSignal: controller.signal }),
    ).toEqual([{ logprob: -2, isGreedy: false }]);
    expect(await adapted.loglikelihoodRolling({ requests: [{ text: 'abc' }] })).toEqual([-3]);
    expect(await adapted.generate({ requests: [GENERATE], abortSignal: controller.signal })).toEqual([
      'SAY HI',
    ]);
    const windows = [{ tokens: [0, 1, 2], scoreFrom: 1 }];
    if (!hasTokenScoring(adapted)) throw new Error('tokenScoring is declared');
    expect(await adapted.scoreTokenWindows({ requests: windows, onProgress: sink })).toEqual([[-1, -1]]);
    expect(v1.received).toEqual([
      { method: 'loglikelihood', args: [requests, sink, { signal: controller.signal }] },
      // No abort signal: no options object, as a v1 caller that had none passed.
      { method: 'loglikelihoodRolling', args: [[{ text: 'abc' }], undefined, undefined] },
      { method: 'generate', args: [[GENERATE], undefined, { signal: controller.signal }] },
      { method: 'scoreTokenWindows', args: [windows, sink] },
    ]);
  });

  it('is a v2 backend declaring what the v1 one declares, with its capabilities’ other methods bound to it', async () => {
    const v1 = new RecordingV1();
    const adapted = toCurrentSpec(v1);
    expect(adapted.specificationVersion).toBe('v2');
    expect(adapted.name).toBe('recording-v1');
    expect(adapted.capabilities).toEqual(CAPABILITIES);
    expect(adapted.concurrency).toBe(3);
    expect(adapted.info()).toEqual({ name: 'recording' });
    expect(() => checkBackendSpec(adapted, 'adapted')).not.toThrow();
    if (!hasTokenScoring(adapted)) throw new Error('tokenScoring is declared');
    expect(await adapted.tokenize('cab')).toEqual([2, 0, 1]);
    expect(await adapted.detokenize([1, 2])).toBe('bc');
    expect((await adapted.tokenizerInfo()).vocabSize).toBe(3);
    // generationLogprobs is declared false: the adapter adds no method for it.
    expect(hasGenerationLogprobs(adapted)).toBe(false);
    expect('generateWithLogprobs' in adapted).toBe(false);
    await adapted.close?.();
    expect(v1.closed).toBe(1);
  });

  it('leaves a v2 backend as it is', () => {
    const dummy = new DummyBackend();
    expect(toCurrentSpec(dummy)).toBe(dummy);
  });
});

describe('checkBackendSpec', () => {
  const dummy = new DummyBackend();
  const withVersion = (version: unknown) => ({
    specificationVersion: version,
    name: 'versioned',
    capabilities: dummy.capabilities,
    loglikelihood: () => Promise.resolve([]),
    loglikelihoodRolling: () => Promise.resolve([]),
    generate: () => Promise.resolve([]),
    info: () => ({ name: 'versioned' }),
    applyChatTemplate: () => '',
    chatTemplate: () => undefined,
  });

  it('accepts spec v2 and v1, and refuses any other version, naming both it accepts', () => {
    expect(() => checkBackendSpec(withVersion('v2'), 'two')).not.toThrow();
    expect(() => checkBackendSpec(withVersion('v1'), 'one')).not.toThrow();
    expect(() => checkBackendSpec(withVersion('v3'), 'three')).toThrow(
      `backend three implements backend spec "v3"; this assay implements specificationVersion 'v2' and accepts 'v1'`,
    );
    expect(() => checkBackendSpec(withVersion(2), 'number')).toThrow(
      `backend number implements backend spec 2; this assay implements specificationVersion 'v2' and accepts 'v1'`,
    );
  });
});

/** A v1 backend delegating to the dummy model: the whole suite runs on it through the adapter. */
function dummyV1(): ModelBackendV1 {
  const dummy: ModelBackend = new DummyBackend({ seed: 7 });
  return {
    specificationVersion: 'v1',
    name: 'dummy-v1',
    capabilities: { ...dummy.capabilities, chatTemplate: false },
    loglikelihood: (requests, progress, options) =>
      dummy.loglikelihood({ requests, onProgress: progress, abortSignal: options?.signal }),
    loglikelihoodRolling: (requests, progress) =>
      dummy.loglikelihoodRolling({ requests, onProgress: progress }),
    generate: (requests, progress) => dummy.generate({ requests, onProgress: progress }),
    info: () => dummy.info(),
  };
}

runBackendConformance({
  name: 'a spec v1 backend (the dummy model, adapted)',
  create: dummyV1,
  noRequestFails: 'the dummy model computes every answer in process',
});
