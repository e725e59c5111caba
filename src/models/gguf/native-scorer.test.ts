import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireComponent, sharedFile } from '../../../test/support/require-component.js';
import type { LoglikelihoodRequest } from '../backend.js';
import { GgufBackend } from './gguf-backend.js';
import { randomLlamaGguf, seededRandom } from './llama-model.js';
import { planJobs, scoreNative } from './native-schedule.js';
import { loadNativeAddon, type NativeAddon } from './native-scorer.js';
import { type Schedule, scoringInput } from './token-requests.js';
import { writeGguf } from './writer.js';

const native = loadNativeAddon();
// Under CI=true the addon must have been built by npm ci's postinstall: a silent fallback would hide a
// broken build.
const nativeScorer = requireComponent('native scorer', {
  available: native.addon !== undefined,
  reason: native.addon === undefined ? native.reason : undefined,
});
const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-native-'));
const modelPath = path.join(directory, 'random.gguf');
await writeFile(modelPath, writeGguf(randomLlamaGguf({ seed: 23 })));
afterAll(() => rm(directory, { recursive: true, force: true }));
const TINY_32K = sharedFile('models', 'llama-2-tiny-random.gguf');
const tiny32k = requireComponent('llama-2-tiny-random', existsSync(TINY_32K));

describe('native scheduling', () => {
  it('shares the context, including its last output, among choices; dedupes identical inputs', () => {
    const limits = { sequences: 32, cells: 512, schedule: 'shared' as const };
    const jobs = planJobs(
      [
        { input: [1, 5, 6, 7], targets: [7, 8], scoredFrom: 2 }, // ctx 1 5 6, continuation 7 8
        { input: [1, 5, 6, 9], targets: [9, 3], scoredFrom: 2 },
        { input: [1, 5, 6], targets: [4], scoredFrom: 2 }, // single-token choices: one shared output
        { input: [1, 5, 6], targets: [7], scoredFrom: 2 },
        { input: [1, 5, 6], targets: [7], scoredFrom: 2 }, // a duplicate
        { input: [1, 2], targets: [], scoredFrom: 2 }, // nothing to score
      ],
      limits,
    );
    expect(jobs).toEqual([
      {
        prefix: [1, 5, 6],
        groups: [
          { input: [1, 5, 6, 7], scoredFrom: 2, members: [0] },
          { input: [1, 5, 6, 9], scoredFrom: 2, members: [1] },
          { input: [1, 5, 6], scoredFrom: 2, members: [2, 3, 4] },
        ],
      },
    ]);
    // Without sharing every input is its own job from position 0.
    expect(
      planJobs([{ input: [1, 5], targets: [6], scoredFrom: 1 }], { ...limits, schedule: 'packed' }),
    ).toEqual([{ prefix: [], groups: [{ input: [1, 5], scoredFrom: 1, members: [0] }] }]);
  });

  it('splits a cluster that exceeds the sequence slots', () => {
    const inputs = Array.from({ length: 5 }, (_, i) => ({
      input: [1, 2, 3, 4 + i],
      targets: [5, 6],
      scoredFrom: 2,
    }));
    const jobs = planJobs(inputs, { sequences: 2, cells: 512, schedule: 'shared' as const });
    expect(jobs.map((job) => job.groups.length)).toEqual([2, 2, 1]);
    expect(jobs.every((job) => job.prefix.join() === '1,2,3')).toBe(true);
  });
});

function randomRequests(seed: number, count: number): LoglikelihoodRequest[] {
  const random = seededRandom(seed);
  const alphabet = 'abcdefghij klmnop,.ABC\n';
  const text = (length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const contexts = ['', 'Question: 2+2=\nAnswer:', text(20), text(40)];
  return Array.from({ length: count }, () => ({
    context: contexts[Math.floor(random() * contexts.length)],
    continuation: random() < 0.4 ? alphabet[Math.floor(random() * 21)] : text(1 + Math.floor(random() * 10)),
  }));
}

describe.skipIf(!nativeScorer)(
  `native scorer against the Map path${native.addon ? '' : ` (skipped: ${native.addon === undefined ? native.reason : ''})`}`,
  () => {
    it('gives the same loglikelihoods, greedy flags and rolling sums as the Map path (1e-4)', async () => {
      const nativeBackend = await GgufBackend.create({ modelPath, threads: 1, nCtx: 48, scorer: 'native' });
      const mapBackend = await GgufBackend.create({ modelPath, threads: 1, nCtx: 48, scorer: 'map' });
      try {
        expect(nativeBackend.info().scorer).toMatchObject({ path: 'native' });
        expect(mapBackend.info().scorer).toEqual({ path: 'map', reason: 'scorer=map was asked for' });
        const requests = randomRequests(4, 40);
        const [a, b] = await Promise.all([
          nativeBackend.loglikelihood({ requests }),
          mapBackend.loglikelihood({ requests }),
        ]);
        for (let i = 0; i < requests.length; i++) {
          expect(Math.abs(a[i].logprob - b[i].logprob), JSON.stringify(requests[i])).toBeLessThan(1e-4);
          expect(a[i].isGreedy).toBe(b[i].isGreedy);
        }
        const texts = [
          { text: 'a rolling text longer than one window of forty-eight tokens, so it has several.' },
        ];
        const [rollingNative, rollingMap] = await Promise.all([
          nativeBackend.loglikelihoodRolling({ requests: texts }),
          mapBackend.loglikelihoodRolling({ requests: texts }),
        ]);
        expect(Math.abs(rollingNative[0] - rollingMap[0])).toBeLessThan(1e-4);
        // Prompt log-probabilities with alternatives (what `assay serve` echoes) agree too.
        const tokens = await nativeBackend.tokenize('Question: 2+2=\nAnswer: 4', true);
        const [[fromNative], [fromMap]] = await Promise.all([
          nativeBackend.promptLogprobs({ requests: [{ tokens, topK: 3 }] }),
          mapBackend.promptLogprobs({ requests: [{ tokens, topK: 3 }] }),
        ]);
        expect(fromNative.pieces).toEqual(fromMap.pieces);
        expect(fromNative.next.token).toBe(fromMap.next.token);
        for (let i = 1; i < tokens.length; i++) {
          expect(Math.abs((fromNative.logprobs[i] as number) - (fromMap.logprobs[i] as number))).toBeLessThan(
            1e-4,
          );
          expect(fromNative.top[i]?.map(([token]) => token)).toEqual(fromMap.top[i]?.map(([token]) => token));
        }
      } finally {
        await Promise.all([nativeBackend.close(), mapBackend.close()]);
      }
    });

    it('scores alike under every schedule; alone gives each input its own llama_decode batch', async () => {
      const addon = native.addon as NativeAddon;
      const handle = addon.open(modelPath, {
        nCtx: 512,
        batchSize: 512,
        sequences: 32,
        threads: 1,
        flashAttention: false,
        kvF32: true,
        gpuLayers: 0,
        backendDir: native.addon ? native.bins : undefined,
      });
      try {
        // Two questions of three choices each (BOS 1, then character tokens), and a duplicate choice.
        const random = seededRandom(8);
        const tokens = (length: number) => Array.from({ length }, () => 3 + Math.floor(random() * 90));
        const inputs = [tokens(12), tokens(9)].flatMap((context) => [
          scoringInput([1, ...context], tokens(4), 64),
          scoringInput([1, ...context], tokens(3), 64),
          scoringInput([1, ...context], tokens(1), 64),
        ]);
        inputs.push(inputs[1]);
        const run = async (schedule: Schedule) => {
          let calls = 0;
          // The addon's exports are read-only: inherit them, and define a score that counts its calls.
          const counting = Object.create(addon, {
            score: {
              value: (...args: Parameters<NativeAddon['score']>) => {
                calls++;
                return addon.score(...args);
              },
            },
          }) as NativeAddon;
          const results = inputs.map(() => ({ logprobs: [] as number[], greedy: [] as boolean[] }));
          await scoreNative(counting, handle, inputs, { sequences: 32, cells: 256, schedule }, results);
          return { calls, logprobs: results.map((result) => result.logprobs) };
        };
        const shared = await run('shared');
        const packed = await run('packed');
        const alone = await run('alone');
        expect([shared.calls, packed.calls, alone.calls]).toEqual([1, 1, inputs.length]);
        for (const other of [packed, alone]) {
          other.logprobs.forEach((logprobs, i) => {
            expect(logprobs).toHaveLength(inputs[i].targets.length);
            logprobs.forEach((logprob, j) => {
              expect(Math.abs(logprob - shared.logprobs[i][j])).toBeLessThan(1e-4);
            });
          });
        }
        expect(shared.logprobs[6]).toEqual(shared.logprobs[1]);
      } finally {
        addon.close(handle);
      }
    });

    it.skipIf(!tiny32k)(
      'agrees on the 32K-vocabulary llama-2-tiny-random, and stays finite where the float softmax underflows',
      async () => {
        const nativeBackend = await GgufBackend.create({
          modelPath: TINY_32K,
          threads: 1,
          nCtx: 128,
          scorer: 'native',
        });
        const mapBackend = await GgufBackend.create({
          modelPath: TINY_32K,
          threads: 1,
          nCtx: 128,
          scorer: 'map',
        });
        try {
          const text = 'The quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun.';
          const tokens = await nativeBackend.tokenize(text, true);
          const window = { tokens, scoreFrom: 1 };
          const [[a], [b]] = await Promise.all([
            nativeBackend.scoreTokenWindows({ requests: [window] }),
            mapBackend.scoreTokenWindows({ requests: [window] }),
          ]);
          expect(a).toHaveLength(tokens.length - 1);
          let compared = 0;
          for (let i = 0; i < a.length; i++) {
            expect(Number.isFinite(a[i])).toBe(true);
            // The Map path's float32 probabilities round tiny values to 0 (log = -Infinity) and lose
            // relative precision below ~1e-30; compare where they are meaningful.
            if (b[i] > -60) {
              expect(Math.abs(a[i] - b[i])).toBeLessThan(1e-4);
              compared++;
            }
          }
          expect(compared).toBeGreaterThan(a.length / 2);
        } finally {
          await Promise.all([nativeBackend.close(), mapBackend.close()]);
        }
      },
    );
  },
);
