import { describe, expect, it } from 'vitest';
import type {
  GenerateCallOptions,
  GenerateRequest,
  LoglikelihoodCallOptions,
  LoglikelihoodRequest,
} from '../models/backend.js';
import { DummyBackend } from '../models/dummy/dummy-backend.js';
import { executeRequests } from './execute.js';
import type { Instance } from './requests.js';

/** The dummy model, recording what reaches it. */
class RecordingBackend extends DummyBackend {
  loglikelihoodCalls: LoglikelihoodRequest[][] = [];
  generateCalls: GenerateRequest[][] = [];
  override async loglikelihood(options: LoglikelihoodCallOptions) {
    const { requests } = options;
    this.loglikelihoodCalls.push(requests);
    return super.loglikelihood(options);
  }
  override async generate(options: GenerateCallOptions) {
    const { requests } = options;
    this.generateCalls.push(requests);
    return super.generate(options);
  }
}

const ll = (docId: number, index: number, context: string, continuation: string, repeats = 1): Instance => ({
  task: 't',
  docId,
  index,
  repeats,
  resps: [],
  args: { type: 'loglikelihood', context, continuation },
});

const generation = (doSample: boolean): GenerateRequest => ({
  context: 'Q:',
  until: ['\n'],
  maxGenToks: 8,
  temperature: doSample ? 1 : 0,
  doSample,
  extra: { seed: 1 },
});

describe('executeRequests', () => {
  it('sends identical requests once, longest first, and maps answers back to every instance', async () => {
    const backend = new RecordingBackend();
    const instances = [
      ll(0, 0, 'short', ' a'),
      ll(0, 1, 'a much longer context', ' b'),
      ll(1, 0, 'short', ' a'),
      ll(1, 1, 'mid context', ' c', 3),
    ];
    await executeRequests(backend, instances);
    expect(backend.loglikelihoodCalls).toHaveLength(1);
    expect(backend.loglikelihoodCalls[0]).toEqual([
      { context: 'a much longer context', continuation: ' b' },
      { context: 'mid context', continuation: ' c' },
      { context: 'short', continuation: ' a' },
    ]);
    const direct = await new DummyBackend().loglikelihood({
      requests: instances.map((i) => i.args as LoglikelihoodRequest),
    });
    instances.forEach((instance, i) => {
      expect(instance.resps).toEqual(new Array(instance.repeats).fill(direct[i]));
    });
  });

  it('keeps the choices of one context together, whatever their lengths', async () => {
    const backend = new RecordingBackend();
    await executeRequests(backend, [
      ll(0, 0, 'question one?', ' a very long answer indeed'),
      ll(1, 0, 'question two!', ' x'),
      ll(0, 1, 'question one?', ' b'),
      ll(1, 1, 'question two!', ' a long answer here too'),
    ]);
    expect(backend.loglikelihoodCalls[0].map((r) => r.context)).toEqual([
      'question one?',
      'question one?',
      'question two!',
      'question two!',
    ]);
  });

  it('gives each sampled repeat its own request and seed, but shares greedy repeats', async () => {
    const backend = new RecordingBackend();
    const sampled: Instance = {
      task: 't',
      docId: 0,
      index: 0,
      repeats: 3,
      resps: [],
      args: { type: 'generate_until', context: 'Q:', generation: generation(true) },
    };
    const greedy: Instance = {
      task: 't',
      docId: 1,
      index: 0,
      repeats: 3,
      resps: [],
      args: { type: 'generate_until', context: 'Q:', generation: generation(false) },
    };
    await executeRequests(backend, [sampled, greedy]);
    const sent = backend.generateCalls[0];
    expect(sent).toHaveLength(4);
    expect(sent.filter((r) => r.doSample).map((r) => r.extra.seed)).toEqual([1, 2, 3]);
    expect(sampled.resps).toHaveLength(3);
    expect(greedy.resps).toHaveLength(3);
    expect(new Set(greedy.resps).size).toBe(1);
  });

  it('stops with a clear error when the backend lacks a capability', async () => {
    const backend = new DummyBackend();
    Object.assign(backend, {
      capabilities: { ...backend.capabilities, loglikelihood: false },
    });
    await expect(executeRequests(backend, [ll(0, 0, 'c', ' x')])).rejects.toThrow(
      'model dummy cannot serve loglikelihood requests',
    );
  });
});
