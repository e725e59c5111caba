/**
 * A third-party backend written only against the package's exports, `assay`, `assay/backend` and
 * `assay/testing`, as a user imports them (they resolve to the built dist/: `npm run build` first), and
 * against backend spec v1, which assay adapts to v2: it passes the backend conformance suite, alone and
 * behind the response cache, registers by name, and runs through `evaluate` end to end.
 * Expected scores come from the bigram table itself, not from assay.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { AssayError, defineTask, evaluate } from 'assay';
import {
  backendNames,
  type LoglikelihoodRequest,
  MemoryResponseCache,
  type ModelBackendV1,
  registerBackend,
  unregisterBackend,
  withResponseCache,
} from 'assay/backend';
import { runBackendConformance } from 'assay/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { BigramBackend, bigramTable } from './fakes/third-party-backend.js';
import { tempDir } from './support/helpers.js';

runBackendConformance({
  name: 'third-party bigram backend',
  create: () => new BigramBackend(),
  createFailing: (marker) => new BigramBackend({ failOn: marker }),
});

// Every optional capability behind the response cache: chat template, token scoring, logprobs, usage.
runBackendConformance({
  name: 'withResponseCache(third-party bigram backend)',
  create: () => withResponseCache(new BigramBackend(), new MemoryResponseCache(), {}),
  createFailing: (marker) =>
    withResponseCache(new BigramBackend({ failOn: marker }), new MemoryResponseCache(), {}),
});

registerBackend('bigram', {
  checkArgs: (args) => {
    for (const key of Object.keys(args))
      if (key !== 'seed') throw new AssayError('bad_model_args', `bigram takes seed= only, not ${key}=`);
  },
  create: (args) => new BigramBackend({ seed: args.seed === undefined ? undefined : Number(args.seed) }),
});
afterAll(() => unregisterBackend('bigram'));

/** log p(continuation | context) read off the table: what the backend must have scored. */
function tableLoglikelihood(seed: number, context: string, continuation: string): number {
  const table = bigramTable(seed);
  let previous = context.length ? (context.codePointAt(context.length - 1) as number) : 2;
  let total = 0;
  for (const char of continuation) {
    const next = char.codePointAt(0) as number;
    total += table[previous][next];
    previous = next;
  }
  return total;
}

interface Question extends Record<string, unknown> {
  question: string;
  choices: string[];
  answer: number;
}

const QUESTIONS: Question[] = [
  { question: 'Pick a word', choices: ['cat', 'dog', 'zebra'], answer: 0 },
  { question: 'Which sound', choices: ['moo', 'baa', 'quack'], answer: 1 },
  { question: 'A colour', choices: ['red', 'blue', 'green', 'grey'], answer: 2 },
  { question: 'A number', choices: ['one', 'two', 'three'], answer: 1 },
  { question: 'A fruit', choices: ['apple', 'kiwi', 'fig'], answer: 2 },
];

const mcTask = () =>
  defineTask<Question>({
    name: 'bigram_mc',
    docs: QUESTIONS,
    outputType: 'multiple_choice',
    docToText: (doc) => `${doc.question}:`,
    docToChoice: (doc) => doc.choices,
    docToTarget: (doc) => doc.answer,
    processResults: (doc, results) => {
      const scores = (results as Array<{ logprob: number }>).map((result) => result.logprob);
      return { acc: scores.indexOf(Math.max(...scores)) === doc.answer ? 1 : 0 };
    },
    aggregation: { acc: (items) => (items as number[]).reduce((sum, x) => sum + x, 0) / items.length },
    higherIsBetter: { acc: true },
  });

const genTask = () =>
  defineTask<{ prompt: string }>({
    name: 'bigram_gen',
    docs: [{ prompt: 'hello' }, { prompt: 'abc' }],
    docToText: (doc) => doc.prompt,
    docToTarget: () => 'x',
    generationKwargs: { until: ['\n'], max_gen_toks: 6 },
    processResults: (_doc, [text]) => ({ length: String(text).length }),
    aggregation: { length: (items) => (items as number[]).reduce((sum, x) => sum + x, 0) / items.length },
    higherIsBetter: { length: true },
  });

describe('a third-party backend registered by name', () => {
  it('is listed, and refuses a second registration, a built-in name and a bad name', () => {
    expect(backendNames()).toContain('bigram');
    expect(backendNames()).toContain('gguf');
    const create = () => new BigramBackend();
    expect(() => registerBackend('bigram', { create })).toThrow('"bigram" is already registered');
    expect(() => registerBackend('gguf', { create })).toThrow('"gguf" is a built-in backend');
    expect(() => registerBackend('two words', { create })).toThrow('is not a backend name');
  });

  it('runs a multiple-choice task through evaluate, scored as the table says', async () => {
    const { results, samples } = await evaluate({
      model: 'bigram',
      modelArgs: { seed: 3 },
      tasks: [mcTask()],
    });
    // lm-eval's multiple-choice continuation: the target delimiter (a space), then the choice.
    const expected = QUESTIONS.map((doc) => {
      const scores = doc.choices.map((choice) => tableLoglikelihood(3, `${doc.question}:`, ` ${choice}`));
      return scores.indexOf(Math.max(...scores)) === doc.answer ? 1 : 0;
    });
    const acc = expected.reduce<number>((sum, x) => sum + x, 0) / expected.length;
    expect((results.results.bigram_mc as Record<string, number>)['acc,none']).toBeCloseTo(acc, 12);
    const first = samples.bigram_mc.find((line) => line.doc_id === 0);
    if (!first) throw new Error('no sample line for doc 0');
    // The sample log spells them as lm-eval does: Python's str() of each value.
    const logprobs = (first.resps as string[][][]).map((resp) => Number(resp[0][0]));
    expect(logprobs).toEqual(
      QUESTIONS[0].choices.map((choice) => tableLoglikelihood(3, 'Pick a word:', ` ${choice}`)),
    );
    expect(results.manifest.model.info).toEqual({ name: 'ascii-bigram', revision: 'seed-3' });
  });

  it('generates with its logprobs, records its chat template and usage, and is cached by useCache', async () => {
    const cacheFile = path.join(tempDir('assay-third-party-'), 'cache.sqlite');
    const run = () =>
      evaluate({ model: 'bigram', tasks: [genTask()], applyChatTemplate: true, useCache: cacheFile });
    const first = await run();
    const lines = first.samples.bigram_gen;
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const text = (line.resps as string[][])[0][0];
      const tokens = line.gen_logprobs?.[0]?.[0];
      expect(tokens?.tokens.join('')).toBe(text);
      expect(tokens?.logprobs.every((value) => value < 0)).toBe(true);
    }
    const template = new BigramBackend().chatTemplate();
    expect(first.results.manifest.chat_template.sha256).toBe(
      createHash('sha256').update(template).digest('hex'),
    );
    const usage = (first.results.request_stats as { usage: { requests: number; cachedRequests: number } })
      .usage;
    expect(usage).toMatchObject({ requests: 2, cachedRequests: 0 });
    // A second run answers both generations from the cache in front of the backend.
    const second = await run();
    expect(second.samples.bigram_gen.map((line) => line.resps)).toEqual(lines.map((line) => line.resps));
    expect((second.results.request_stats as { usage: unknown }).usage).toMatchObject({
      requests: 2,
      cachedRequests: 2,
    });
  });

  it('checks its model args before tasks load, and a misspelt name suggests it', async () => {
    await expect(
      evaluate({ model: 'bigram', modelArgs: { temperature: 1 }, tasks: ['no_such_task'] }),
    ).rejects.toThrow('bigram takes seed= only, not temperature=');
    const misspelt = await evaluate({ model: 'bigrm', tasks: [mcTask()] }).catch(
      (error: AssayError) => error,
    );
    expect(misspelt).toMatchObject({ code: 'unknown_model' });
    expect((misspelt as Error).message).toMatch(
      /^unknown model "bigrm" \(did you mean bigram\b.*valid models: .*\bbigram$/,
    );
    // lm-eval's in-process names are still refused with what to run instead.
    await expect(
      evaluate({ model: 'hf', modelArgs: { pretrained: 'org/m' }, tasks: [mcTask()] }),
    ).rejects.toThrow("`model` hf is lm-eval's in-process Hugging Face transformers backend");
  });

  it('refuses, when created, a backend of another spec version, one missing a declared capability, or one with no concurrency', async () => {
    registerBackend('old-spec', {
      create: () => ({ ...new BigramBackend(), specificationVersion: undefined }) as never,
    });
    registerBackend('half-declared', {
      create: () => {
        const backend = new BigramBackend();
        const half: ModelBackendV1 = {
          specificationVersion: 'v1',
          name: 'half',
          capabilities: backend.capabilities,
          loglikelihood: (requests: LoglikelihoodRequest[]) => backend.loglikelihood(requests),
          loglikelihoodRolling: (requests) => backend.loglikelihoodRolling(requests),
          generate: (requests) => backend.generate(requests),
          info: () => backend.info(),
        };
        return half;
      },
    });
    // The latency cap keeps at most `concurrency` requests in flight: 0 would send none.
    registerBackend('no-concurrency', {
      create: () => Object.assign(new BigramBackend(), { concurrency: 0 }),
    });
    try {
      await expect(evaluate({ model: 'no-concurrency', tasks: [mcTask()] })).rejects.toThrow(
        'backend no-concurrency declares concurrency 0; it must be a positive integer when set',
      );
      await expect(evaluate({ model: 'old-spec', tasks: [mcTask()] })).rejects.toThrow(
        "backend old-spec implements backend spec (none: no specificationVersion); this assay implements specificationVersion 'v2' and accepts 'v1'",
      );
      await expect(evaluate({ model: 'half-declared', tasks: [mcTask()] })).rejects.toThrow(
        'backend half-declared lacks methods tokenize (capability tokenScoring), detokenize (capability tokenScoring), tokenizerInfo (capability tokenScoring), scoreTokenWindows (capability tokenScoring), generateWithLogprobs (capability generationLogprobs), applyChatTemplate (capability chatTemplate), chatTemplate (capability chatTemplate), usage (capability usage)',
      );
    } finally {
      expect(unregisterBackend('old-spec')).toBe(true);
      expect(unregisterBackend('half-declared')).toBe(true);
      expect(unregisterBackend('no-concurrency')).toBe(true);
    }
  });
});
