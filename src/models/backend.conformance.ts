import { describe, expect, it } from 'vitest';
import { type Answer, type GenerateRequest, isRequestError, type ModelBackend } from './backend.js';

/**
 * The conformance suite every ModelBackend runs. A backend that cannot do something lists the test
 * in `skip` with a reason; it never fakes an answer.
 */
export interface ConformanceOptions {
  name: string;
  create: () => Promise<ModelBackend> | ModelBackend;
  skip?: Array<{ reason: string; tests: ConformanceTest[] }>;
}

export type ConformanceTest =
  | 'loglikelihood-shape'
  | 'loglikelihood-batch-invariance'
  | 'rolling-shape'
  | 'generate-stops'
  | 'generate-deterministic'
  | 'info';

const REQUESTS = [
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 4' },
  { context: 'Question: 2+2=\nAnswer:', continuation: ' 5' },
  { context: 'The capital of France is', continuation: ' Paris' },
  { context: 'Once', continuation: ' upon a time' },
];

const GENERATE: GenerateRequest = {
  context: 'Question: What is 3+4?\nAnswer:',
  until: ['\n\n', 'Question:'],
  maxGenToks: 32,
  temperature: 0,
  doSample: false,
  extra: {},
};

/** A healthy backend answers every request; a RequestError here is a failure, not a skipped value. */
function ok<T>(answers: Answer<T>[]): T[] {
  for (const answer of answers)
    if (isRequestError(answer)) throw new Error(`backend returned an error: ${answer.message}`);
  return answers as T[];
}

export function runBackendConformance(options: ConformanceOptions): void {
  const skipped = new Map<ConformanceTest, string>();
  for (const entry of options.skip ?? []) for (const test of entry.tests) skipped.set(test, entry.reason);
  const check = (test: ConformanceTest, body: () => Promise<void>) => {
    const reason = skipped.get(test);
    if (reason) it.skip(`${test} (skipped: ${reason})`, body);
    else it(test, body);
  };

  describe(`ModelBackend conformance: ${options.name}`, () => {
    check('loglikelihood-shape', async () => {
      const backend = await options.create();
      const results = ok(await backend.loglikelihood(REQUESTS));
      expect(results).toHaveLength(REQUESTS.length);
      for (const result of results) {
        expect(Number.isFinite(result.logprob)).toBe(true);
        expect(result.logprob).toBeLessThanOrEqual(0);
        expect(typeof result.isGreedy).toBe('boolean');
      }
      // A longer continuation of the same context cannot be more likely than its prefix.
      const [prefix, longer] = ok(
        await backend.loglikelihood([
          { context: 'Once', continuation: ' upon' },
          { context: 'Once', continuation: ' upon a time' },
        ]),
      );
      expect(longer.logprob).toBeLessThanOrEqual(prefix.logprob + 1e-6);
      await backend.close?.();
    });

    check('loglikelihood-batch-invariance', async () => {
      const backend = await options.create();
      const together = ok(await backend.loglikelihood(REQUESTS));
      const reversed = ok(await backend.loglikelihood([...REQUESTS].reverse()));
      const alone = [];
      for (const request of REQUESTS) alone.push(ok(await backend.loglikelihood([request]))[0]);
      for (let i = 0; i < REQUESTS.length; i++) {
        expect(reversed[REQUESTS.length - 1 - i].logprob).toBeCloseTo(together[i].logprob, 4);
        expect(alone[i].logprob).toBeCloseTo(together[i].logprob, 4);
        expect(alone[i].isGreedy).toBe(together[i].isGreedy);
      }
      await backend.close?.();
    });

    check('rolling-shape', async () => {
      const backend = await options.create();
      const texts = [{ text: 'One day, a little girl named Lily went to the park.' }, { text: 'Hello.' }];
      const results = ok(await backend.loglikelihoodRolling(texts));
      expect(results).toHaveLength(2);
      for (const value of results) {
        expect(Number.isFinite(value)).toBe(true);
        expect(value).toBeLessThan(0);
      }
      await backend.close?.();
    });

    check('generate-stops', async () => {
      const backend = await options.create();
      const [text] = ok(await backend.generate([GENERATE]));
      expect(typeof text).toBe('string');
      for (const stop of GENERATE.until) expect(text.includes(stop)).toBe(false);
      await backend.close?.();
    });

    check('generate-deterministic', async () => {
      const backend = await options.create();
      const other = { ...GENERATE, context: 'Question: Name a colour.\nAnswer:' };
      const first = ok(await backend.generate([GENERATE, other]));
      const second = ok(await backend.generate([other, GENERATE]));
      expect(second).toEqual([first[1], first[0]]);
      await backend.close?.();
    });

    check('info', async () => {
      const backend = await options.create();
      const info = backend.info();
      expect(typeof info.name).toBe('string');
      expect(info.name.length).toBeGreaterThan(0);
      await backend.close?.();
    });
  });
}
