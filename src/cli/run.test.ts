import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { optionsFromFlags } from './run.js';

async function config(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'assay-config-')), 'run.yaml');
  await writeFile(file, text);
  return file;
}

describe('--config', () => {
  it('takes the flags of assay run as keys (kebab or snake case); the command line wins', async () => {
    const file = await config('model: dummy\ntasks: [a, b]\nnum-fewshot: 2\nlog_samples: true\n');
    const options = optionsFromFlags({ config: file, tasks: ['c'], batch_size: '1' });
    expect(options).toMatchObject({ model: 'dummy', tasks: ['c'], numFewshot: 2, logSamples: true });
  });

  it('rejects a key that is no flag, with a did-you-mean and the file', async () => {
    const file = await config('model: dummy\ntasks: arithmetic\nnum_fewshots: 5\n');
    let caught: unknown;
    try {
      optionsFromFlags({ config: file });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AssayError);
    expect((caught as AssayError).format()).toBe(
      `${file}: --config: unknown key "num_fewshots"; did you mean "num_fewshot"? (keys are the flags of assay run)`,
    );
    const lmEval = await config('model: dummy\ntasks: arithmetic\ndevice: cuda:0\n');
    expect(() => optionsFromFlags({ config: lmEval })).toThrow(
      '--config: "device" is an lm-eval flag that assay run does not take',
    );
  });
});
