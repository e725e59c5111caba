import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDemoModel } from './demo-model.js';
import { GgufBackend } from './gguf-backend.js';

const directory = path.join(os.tmpdir(), `assay-demo-${process.pid}`);
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('built-in demo model', () => {
  it('is built once, deterministically, and cached', async () => {
    const first = await ensureDemoModel(path.join(directory, 'a'));
    const second = await ensureDemoModel(path.join(directory, 'b'));
    const hash = async (file: string) =>
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
    expect(await hash(first)).toBe(await hash(second));
    expect(await ensureDemoModel(path.join(directory, 'a'))).toBe(first);
  });

  it('prefers fluent English to the same words out of order, and writes fluent-ish text', async () => {
    const backend = await GgufBackend.create({ modelPath: await ensureDemoModel(path.join(directory, 'a')) });
    try {
      const [fluent, shuffled] = await backend.loglikelihood({
        requests: [
          {
            context: 'The dog was tired after the long walk. It lay down',
            continuation: ' on the floor and went to sleep.',
          },
          {
            context: 'The dog was tired after the long walk. It lay down',
            continuation: ' floor the on and sleep. to went',
          },
        ],
      });
      expect(fluent.logprob).toBeGreaterThan(shuffled.logprob + 5);
      const [text] = await backend.generate({
        requests: [
          {
            context: 'Once upon a time',
            until: ['\n'],
            maxGenToks: 8,
            temperature: 0,
            doSample: false,
            extra: {},
          },
        ],
      });
      expect(text.startsWith(' ')).toBe(true);
      expect(backend.info().architecture).toBe('llama');
    } finally {
      await backend.close();
    }
  });
});
