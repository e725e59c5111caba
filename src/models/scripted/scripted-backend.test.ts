import { describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { simpleEvaluate } from '../../run/evaluate.js';
import { defineTask } from '../../tasks/define-task.js';
import { runBackendConformance } from '../../testing/backend-conformance.js';
import { CAPABILITY_NAMES, RequestError } from '../backend.js';
import { scriptedBackend } from './scripted-backend.js';

/** A script by rule: −(characters of the continuation) nats, greedy for a one-character continuation. */
const rules = (failOn?: string) =>
  scriptedBackend({
    name: 'rules',
    generate: (request) =>
      failOn && request.context.includes(failOn)
        ? new RequestError(`no answer to ${request.context}`, 'scripted failure')
        : `${request.context.length} characters\n\nQuestion: more`,
    loglikelihood: ({ context, continuation }) =>
      failOn && context.includes(failOn)
        ? new RequestError('no score', 'scripted failure')
        : { logprob: -continuation.length, isGreedy: continuation.length === 1 },
    loglikelihoodRolling: ({ text }) =>
      failOn && text.includes(failOn) ? new RequestError('no score', 'scripted failure') : -text.length - 1,
  });

runBackendConformance({
  name: 'scriptedBackend',
  create: () => rules(),
  createFailing: (marker) => rules(marker),
});

interface Sum extends Record<string, unknown> {
  question: string;
  answer: string;
}

const sums = defineTask<Sum>({
  name: 'sums',
  docs: [
    { question: '2+2', answer: '4' },
    { question: '3+3', answer: '6' },
    { question: '1+1', answer: '2' },
  ],
  docToText: (doc) => `Q: ${doc.question}\nA:`,
  docToTarget: (doc) => doc.answer,
  generationKwargs: { until: ['\n'], max_gen_toks: 5, temperature: 0, do_sample: false },
  processResults: (doc, [answer]) => ({ exact_match: String(answer).trim() === doc.answer ? 1 : 0 }),
  aggregation: { exact_match: (items) => (items as number[]).reduce((sum, x) => sum + x, 0) / items.length },
  higherIsBetter: { exact_match: true },
});

describe('scriptedBackend', () => {
  it('records every request a run sends, and the run scores the scripted answers', async () => {
    const model = scriptedBackend({
      generate: (request) => {
        if (request.context.includes('3+3'))
          return new RequestError('the script fails 3+3', 'scripted failure');
        // Cut at the stop string "\n" as every backend cuts: " 4" is right, " 3" is wrong.
        return request.context.includes('2+2') ? ' 4\nQ: 5+5' : ' 3';
      },
    });
    const run = await simpleEvaluate({ model, tasks: [sums] });
    // One request per doc, each the task's own prompt and generation kwargs (0-shot: the doc's text alone).
    const request = (question: string) => ({
      context: `Q: ${question}\nA:`,
      until: ['\n'],
      maxGenToks: 5,
      temperature: 0,
      doSample: false,
      extra: {},
    });
    const byContext = (a: { context: string }, b: { context: string }) => a.context.localeCompare(b.context);
    expect([...model.received.generate].sort(byContext)).toEqual(
      [request('2+2'), request('3+3'), request('1+1')].sort(byContext),
    );
    expect(model.received.loglikelihood).toEqual([]);
    expect(model.received.loglikelihoodRolling).toEqual([]);
    expect(model.calls.every((call) => call.method === 'generate')).toBe(true);
    expect(model.calls.flatMap((call): unknown[] => call.requests)).toEqual(model.received.generate);
    // 3+3 failed: one errored sample, in no metric; of the two answered, one is right.
    expect(run.results.results.sums['exact_match,none']).toBe(0.5);
    expect(run.results.errors).toMatchObject({ samples: 1, by_cause: { 'scripted failure': 1 } });
    const first = run.samples.sums.find((line) => line.doc_id === 0);
    expect(first?.resps).toEqual([[' 4']]);
    expect(run.results.model_name).toBe('scripted');
  });

  it('answers a list in the order requests arrive, across calls, and throws when it runs out', async () => {
    const model = scriptedBackend({
      name: 'listed',
      loglikelihoodRolling: [-1, -2, new RequestError('x'), -4],
    });
    expect(await model.loglikelihoodRolling({ requests: [{ text: 'a' }, { text: 'b' }] })).toEqual([-1, -2]);
    const [failed, fourth] = await model.loglikelihoodRolling({ requests: [{ text: 'c' }, { text: 'd' }] });
    expect(failed).toBeInstanceOf(RequestError);
    expect(fourth).toBe(-4);
    const error = await model
      .loglikelihoodRolling({ requests: [{ text: 'e' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AssayError);
    expect(error).toMatchObject({
      code: 'backend_error',
      message: 'scripted backend "listed": loglikelihoodRolling request 5 has no answer (the script has 4)',
    });
    expect(model.calls).toEqual([
      { method: 'loglikelihoodRolling', requests: [{ text: 'a' }, { text: 'b' }] },
      { method: 'loglikelihoodRolling', requests: [{ text: 'c' }, { text: 'd' }] },
      { method: 'loglikelihoodRolling', requests: [{ text: 'e' }] },
    ]);
  });

  it('declares only the scripted request types; a run that needs another stops before any request', async () => {
    const model = scriptedBackend({ generate: ['x'] });
    // Every capability is declared, and only `generate` is true.
    expect(Object.keys(model.capabilities).sort()).toEqual([...CAPABILITY_NAMES].sort());
    expect(CAPABILITY_NAMES.filter((name) => model.capabilities[name])).toEqual(['generate']);
    const choices = defineTask<Sum>({
      name: 'choices',
      outputType: 'multiple_choice',
      docs: [{ question: '2+2', answer: '4' }],
      docToText: (doc) => `Q: ${doc.question}\nA:`,
      docToTarget: () => 0,
      docToChoice: (doc) => [doc.answer, '5'],
      processResults: () => ({ acc: 1 }),
      aggregation: { acc: (items) => items.length },
      higherIsBetter: { acc: true },
    });
    await expect(simpleEvaluate({ model, tasks: [choices] })).rejects.toMatchObject({
      code: 'capability_missing',
    });
    expect(model.calls).toEqual([]);
    await expect(
      model.loglikelihood({ requests: [{ context: 'a', continuation: 'b' }] }),
    ).rejects.toMatchObject({
      code: 'capability_missing',
    });
  });

  it('throws on an answer of the wrong shape, naming the request', async () => {
    const forgot = scriptedBackend({ generate: () => undefined as unknown as string });
    await expect(
      forgot.generate({
        requests: [{ context: 'a', until: [], maxGenToks: 1, temperature: 0, doSample: false, extra: {} }],
      }),
    ).rejects.toMatchObject({
      code: 'backend_error',
      message:
        'scripted backend "scripted": the answer to generate request 1 is undefined, not a string or a RequestError',
    });
    const positive = scriptedBackend({ loglikelihood: [{ logprob: 0.5, isGreedy: true }] });
    await expect(
      positive.loglikelihood({ requests: [{ context: 'a', continuation: 'b' }] }),
    ).rejects.toMatchObject({
      code: 'backend_error',
      message:
        'scripted backend "scripted": the answer to loglikelihood request 1 is {"logprob":0.5,"isGreedy":true}, not { logprob: a number ≤ 0, isGreedy: a boolean } or a RequestError',
    });
  });

  it('needs a script for at least one request type', () => {
    expect(() => scriptedBackend({ name: 'empty' })).toThrow(
      expect.objectContaining({ code: 'bad_option', location: { field: 'generate' } }),
    );
  });
});
