import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, describe, expect, it } from 'vitest';
import { randomLlamaGguf } from './llama-model.js';
import { float32ToFloat16Bits, gguf, writeGguf } from './writer.js';

const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-gguf-writer-'));
afterAll(() => rm(directory, { recursive: true, force: true }));

describe('writeGguf', () => {
  it('writes the GGUF v3 header, typed metadata and aligned tensor data', () => {
    const bytes = writeGguf({
      metadata: [
        ['a.u32', gguf.u32(7)],
        ['a.str', gguf.str('hé')],
        ['a.arr', gguf.array('int32', [-1, 2])],
      ],
      tensors: [{ name: 't', dims: [3], data: new Float32Array([1, 2, 3]) }],
    });
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('GGUF');
    expect(bytes.readUInt32LE(4)).toBe(3);
    expect(bytes.readBigUInt64LE(8)).toBe(1n);
    expect(bytes.readBigUInt64LE(16)).toBe(3n);
    // Tensor data starts at a multiple of 32 and holds the three floats.
    expect(bytes.length % 32).toBe(0);
    const dataStart = bytes.length - 32;
    expect([0, 1, 2].map((i) => bytes.readFloatLE(dataStart + 4 * i))).toEqual([1, 2, 3]);
  });

  it('is deterministic: same model, same bytes', () => {
    const first = createHash('sha256')
      .update(writeGguf(randomLlamaGguf({ seed: 3 })))
      .digest('hex');
    const second = createHash('sha256')
      .update(writeGguf(randomLlamaGguf({ seed: 3 })))
      .digest('hex');
    const other = createHash('sha256')
      .update(writeGguf(randomLlamaGguf({ seed: 4 })))
      .digest('hex');
    expect(first).toBe(second);
    expect(other).not.toBe(first);
  });

  it('is read back by node-llama-cpp’s own GGUF parser', async () => {
    const file = path.join(directory, 'random.gguf');
    await writeFile(file, writeGguf(randomLlamaGguf({ seed: 3, chatTemplate: '{{ messages }}' })));
    const info = await readGgufFileInfo(file, { logWarnings: false });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe('llama');
    const llamaMeta = (info.metadata as unknown as { llama: Record<string, unknown> }).llama;
    expect(llamaMeta.block_count).toBe(2);
    expect(info.metadata.tokenizer.ggml.model).toBe('llama');
    expect(info.metadata.tokenizer.ggml.tokens.length).toBe(3 + 256 + 95);
    expect(info.metadata.tokenizer.chat_template).toBe('{{ messages }}');
    expect(info.tensorInfo?.map((tensor) => tensor.name).slice(0, 4)).toEqual([
      'token_embd.weight',
      'output_norm.weight',
      'output.weight',
      'blk.0.attn_norm.weight',
    ]);
  });

  it('rounds floats to half precision to nearest even', () => {
    expect(float32ToFloat16Bits(1)).toBe(0x3c00);
    expect(float32ToFloat16Bits(-2)).toBe(0xc000);
    expect(float32ToFloat16Bits(65504)).toBe(0x7bff);
    expect(float32ToFloat16Bits(1e6)).toBe(0x7c00);
    expect(float32ToFloat16Bits(2 ** -24)).toBe(0x0001);
    expect(float32ToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie → even
  });
});
