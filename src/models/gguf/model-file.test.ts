/**
 * A GGUF that is not one, or is cut short, stops with exit code 2 and llama.cpp's reason, and leaves
 * no engine process behind (before, the child kept the CLI alive forever).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { GgufEngine, ModelLoadError } from './engine.js';
import { GgufBackend } from './gguf-backend.js';
import { randomLlamaGguf } from './llama-model.js';
import { checkGgufFile } from './model-file.js';
import { writeGguf } from './writer.js';

/** Processes whose parent is this one, from /proc. */
function children(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) === process.pid) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function failure(promise: Promise<unknown>): Promise<AssayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AssayError);
  return error as AssayError;
}

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-bad-gguf-'));
const good = writeGguf(randomLlamaGguf({ seed: 4 }));
const files: Record<string, Uint8Array> = {
  'text.gguf': Buffer.from('hello, this is not a model\n'),
  'random.gguf': Uint8Array.from({ length: 200 }, (_, i) => (i * 73 + 11) % 256),
  'header.gguf': good.subarray(0, 8),
  'head.gguf': good.subarray(0, 200),
  'half.gguf': good.subarray(0, Math.floor(good.length / 2)),
};
for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(directory, name), bytes);
const file = (name: string) => path.join(directory, name);

describe('checkGgufFile', () => {
  it('refuses what is plainly not a GGUF, naming the file, before any engine starts', async () => {
    const cases: Array<[string, string]> = [
      ['text.gguf', 'not a GGUF file: it starts with bytes 68 65 6c 6c, not "GGUF"'],
      ['random.gguf', 'not a GGUF file: it starts with bytes 0b 54 9d e6, not "GGUF"'],
      ['header.gguf', 'a GGUF file truncated to 8 bytes (its header alone takes 24)'],
      ['missing.gguf', 'model file not found'],
    ];
    for (const [name, message] of cases) {
      const error = await failure(checkGgufFile(file(name)));
      expect(error.code).toBe('bad_model_file');
      expect(error.format()).toBe(`${file(name)}: ${message}`);
    }
    await checkGgufFile(file('head.gguf'));
  });
});

describe('a model file llama.cpp cannot load', () => {
  // One load per process, as the engine worker does: node-llama-cpp routes llama.cpp's log to the
  // first Llama instance of a process only.
  it('fails in the engine with llama.cpp’s own reason (tensors outside the file)', async () => {
    const error = await GgufEngine.load({ modelPath: file('half.gguf'), threads: 1 }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(
      /^llama_model_load: error loading model: tensor '[\w.]+' data is not within the file bounds, model is corrupted or incomplete$/,
    );
  });

  it('GgufBackend.create fails with exit code 2 and that reason (metadata cut short), and no engine process is left', async () => {
    const before = children();
    const error = await failure(GgufBackend.create({ modelPath: file('head.gguf'), threads: 1 }));
    expect(error.code).toBe('bad_model_file');
    expect(error.exitCode).toBe(2);
    expect(error.location.file).toBe(file('head.gguf'));
    expect(error.message).toMatch(
      /^llama\.cpp cannot load the model: read: string length \d+ exceeds remaining file size \d+ bytes; gguf_init_from_reader: failed to read key-value pairs/,
    );
    expect(children()).toEqual(before);
    // Files that are plainly not GGUF never start an engine.
    expect((await failure(GgufBackend.create({ modelPath: file('text.gguf') }))).message).toMatch(
      /^not a GGUF file/,
    );
  });
});
