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
import { latencyOf, NO_ANSWER, responsesOf, type TaskResponses } from './responses.js';

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

type Planned = Omit<Instance, 'id'>;

/** Requests as a plan holds them: ids dense in the order given. */
const numbered = (requests: Planned[]): Instance[] => requests.map((request, id) => ({ id, ...request }));

const ll = (docId: number, index: number, context: string, continuation: string, repeats = 1): Planned => ({
  task: 't',
  docId,
  index,
  repeats,
  args: { type: 'loglikelihood', context, continuation },
});

/** Freezes a value and everything it holds, so that any write to it throws. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

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
    const instances = numbered([
      ll(0, 0, 'short', ' a'),
      ll(0, 1, 'a much longer context', ' b'),
      ll(1, 0, 'short', ' a'),
      ll(1, 1, 'mid context', ' c', 3),
    ]);
    const { responses } = await executeRequests(backend, instances);
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
      expect(responsesOf(responses.get('t') as TaskResponses, instance)).toEqual(
        new Array(instance.repeats).fill(direct[i]),
      );
    });
  });

  it('keeps the choices of one context together, whatever their lengths', async () => {
    const backend = new RecordingBackend();
    await executeRequests(
      backend,
      numbered([
        ll(0, 0, 'question one?', ' a very long answer indeed'),
        ll(1, 0, 'question two!', ' x'),
        ll(0, 1, 'question one?', ' b'),
        ll(1, 1, 'question two!', ' a long answer here too'),
      ]),
    );
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
      id: 0,
      task: 't',
      docId: 0,
      index: 0,
      repeats: 3,
      args: { type: 'generate_until', context: 'Q:', generation: generation(true) },
    };
    const greedy: Instance = {
      id: 1,
      task: 't',
      docId: 1,
      index: 0,
      repeats: 3,
      args: { type: 'generate_until', context: 'Q:', generation: generation(false) },
    };
    const { responses } = await executeRequests(backend, [sampled, greedy]);
    const sent = backend.generateCalls[0];
    expect(sent).toHaveLength(4);
    expect(sent.filter((r) => r.doSample).map((r) => r.extra.seed)).toEqual([1, 2, 3]);
    const [sampledResps, greedyResps] = responses.get('t')?.resps ?? [];
    expect(sampledResps).toHaveLength(3);
    expect(greedyResps).toHaveLength(3);
    expect(new Set(greedyResps).size).toBe(1);
  });

  it('stops with a clear error when the backend lacks a capability', async () => {
    const backend = new DummyBackend();
    Object.assign(backend, {
      capabilities: { ...backend.capabilities, loglikelihood: false },
    });
    await expect(executeRequests(backend, numbered([ll(0, 0, 'c', ' x')]))).rejects.toThrow(
      'model dummy cannot serve loglikelihood requests',
    );
  });

  it('writes nothing into the requests it is given: answers come back by task and request id', async () => {
    // Two tasks, their ids each dense from 0; deduplication across tasks; a repeated request; every
    // object deeply frozen, so any write to a request (or its args, or the list) throws.
    const requests = deepFreeze([
      ...numbered([ll(0, 0, 'shared context', ' a'), ll(0, 1, 'shared context', ' b', 2)]),
      ...numbered([{ ...ll(4, 0, 'shared context', ' a'), task: 'u' }]),
    ]);
    const before = structuredClone(requests);
    const { responses, latency } = await executeRequests(new DummyBackend(), requests);
    expect(requests).toEqual(before);
    const direct = await new DummyBackend().loglikelihood({
      requests: [
        { context: 'shared context', continuation: ' a' },
        { context: 'shared context', continuation: ' b' },
      ],
    });
    expect([...responses.keys()].sort()).toEqual(['t', 'u']);
    const answersOf = (task: string) =>
      requests
        .filter((request) => request.task === task)
        .map((request) => responsesOf(responses.get(task) as TaskResponses, request));
    expect(answersOf('t')).toEqual([[direct[0]], [direct[1], direct[1]]]);
    expect(answersOf('u')).toEqual([[direct[0]]]);
    // The identical request of two tasks went to the backend once.
    expect(latency.loglikelihood?.requests).toBe(2);
    for (const answers of responses.values()) {
      expect(answers.latencyMs).toHaveLength(answers.resps.length);
      for (let id = 0; id < answers.resps.length; id++) expect(latencyOf(answers, id)).toHaveLength(1);
    }
  });

  it('holds N log-likelihood answers as typed arrays of length N, not an object or array per request', async () => {
    // Issue 33: a 200,000-doc task's 800,000 answers were 800,000 one-element arrays of answer objects,
    // plus as many one-element latency arrays. Each is two numbers and a time.
    const count = 1000;
    const instances = numbered(
      Array.from({ length: count }, (_, i) => ll(i >> 2, i % 4, `question ${i >> 2}`, ` choice ${i % 4}`)),
    );
    const { responses } = await executeRequests(new DummyBackend(), instances);
    const answers = responses.get('t') as TaskResponses;
    expect(answers.loglikelihood?.logprob).toBeInstanceOf(Float64Array);
    expect(answers.loglikelihood?.logprob).toHaveLength(count);
    expect(answers.loglikelihood?.isGreedy).toBeInstanceOf(Uint8Array);
    expect(answers.loglikelihood?.isGreedy).toHaveLength(count);
    expect(answers.latencyMs).toBeInstanceOf(Float64Array);
    expect(answers.latencyMs).toHaveLength(count);
    // No request's answer is an object left in the per-request array, and every one is held.
    expect(answers.resps.filter((resps) => resps !== undefined)).toEqual([]);
    expect(answers.loglikelihood?.isGreedy.every((greedy) => greedy !== NO_ANSWER)).toBe(true);
    expect(answers.latencyMsByCopy).toBeUndefined();
    // Read back, they are the backend's answers.
    const direct = await new DummyBackend().loglikelihood({
      requests: instances.map((instance) => instance.args as LoglikelihoodRequest),
    });
    expect(instances.map((instance) => responsesOf(answers, instance))).toEqual(
      direct.map((answer) => [answer]),
    );
  });

  it('sends each distinct log-likelihood request once, in the documented order, whatever the input order', async () => {
    // A reference order written from the rule itself: longest context first, then by context; within a
    // context longest continuation first, then by continuation (UTF-16 code units, as JS compares).
    const byRule = (a: LoglikelihoodRequest, b: LoglikelihoodRequest) =>
      b.context.length - a.context.length ||
      (a.context < b.context ? -1 : a.context > b.context ? 1 : 0) ||
      b.continuation.length - a.continuation.length ||
      (a.continuation < b.continuation ? -1 : a.continuation > b.continuation ? 1 : 0);
    // Seeded LCG, so the input order is shuffled the same way every run.
    let state = 7;
    const next = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const planned: Planned[] = [];
    for (let doc = 0; doc < 60; doc++) {
      // Contexts repeat across docs (equal text, distinct strings), some share a length, one is empty.
      const context = doc % 7 === 0 ? '' : ['Q', String(doc % 13).padStart(2, '0'), ' ?'].join('');
      const choices = doc % 7 === 0 ? 20 : 4;
      for (let index = 0; index < choices; index++) {
        const choice =
          doc % 7 === 0 ? ` w${(doc + index) % 23}` : [' ', 'abcd'.slice(0, 1 + next(4))].join('');
        planned.push({
          task: doc % 2 ? 'odd' : 'even',
          docId: doc,
          index,
          repeats: 1 + (doc % 3 === 0 ? 1 : 0),
          args: { type: 'loglikelihood', context, continuation: choice },
        });
      }
    }
    for (let i = planned.length - 1; i > 0; i--) {
      const j = next(i + 1);
      [planned[i], planned[j]] = [planned[j], planned[i]];
    }
    const byTask = new Map<string, number>();
    const instances: Instance[] = planned.map((request) => {
      const id = byTask.get(request.task) ?? 0;
      byTask.set(request.task, id + 1);
      return { id, ...request };
    });
    const backend = new RecordingBackend();
    const { responses, latency } = await executeRequests(backend, instances);
    const distinct = new Map<string, LoglikelihoodRequest>();
    for (const { args } of instances) {
      const { context, continuation } = args as LoglikelihoodRequest;
      distinct.set(`${context}\u0000${continuation}`, { context, continuation });
    }
    const expected = [...distinct.values()].sort(byRule);
    expect(backend.loglikelihoodCalls).toHaveLength(1);
    expect(backend.loglikelihoodCalls[0]).toEqual(expected);
    expect(latency.loglikelihood?.requests).toBe(expected.length);
    // Every planned request, duplicates included, reads the answer to its own text.
    const direct = await new DummyBackend().loglikelihood({
      requests: instances.map((instance) => instance.args as LoglikelihoodRequest),
    });
    instances.forEach((instance, position) => {
      expect(responsesOf(responses.get(instance.task) as TaskResponses, instance)).toEqual(
        new Array(instance.repeats).fill(direct[position]),
      );
    });
  });
});
