/**
 * The conformance suite of the tokenizer seam, shipped as `assay/testing`: every implementation (the
 * server's /tokenize, a local tokenizer.json) must keep the contract the completions backend relies on for
 * token-id requests.
 */
import { describe, expect, it } from 'vitest';
import type { Tokenizer, TokenizerBackendName } from '../models/tokenizers/tokenizer.js';

export type TokenizerConformanceTest = 'round-trip' | 'special-tokens' | 'identity';

export interface TokenizerConformanceOptions {
  name: string;
  backend: TokenizerBackendName;
  create: () => Promise<Tokenizer> | Tokenizer;
  /** Texts the tokenizer's vocabulary spells without unknown tokens, so decode(encode(text)) is text. */
  texts: string[];
}

export function runTokenizerConformance(options: TokenizerConformanceOptions): void {
  const check = (test: TokenizerConformanceTest, title: string, body: () => Promise<void>) =>
    it(`${test}: ${title}`, body);

  describe(`tokenizer conformance: ${options.name}`, () => {
    check('round-trip', 'encodes to integer ids and decodes back to the text', async () => {
      const tokenizer = await options.create();
      expect(tokenizer.backend).toBe(options.backend);
      for (const text of options.texts) {
        const ids = await tokenizer.encode(text);
        expect(ids.length).toBeGreaterThan(0);
        expect(ids.every((id) => Number.isInteger(id) && id >= 0)).toBe(true);
        expect(await tokenizer.decode(ids)).toBe(text);
      }
    });

    check(
      'special-tokens',
      'with special tokens adds exactly what bos() names in front, and nothing inside the text',
      async () => {
        const tokenizer = await options.create();
        const bos = await tokenizer.bos();
        for (const text of options.texts) {
          const plain = await tokenizer.encode(text);
          const special = await tokenizer.encode(text, true);
          expect(special).toEqual(bos === null ? plain : [bos, ...plain]);
        }
        expect(await tokenizer.encode('', true)).toEqual(bos === null ? [] : [bos]);
        expect(await tokenizer.encode('')).toEqual([]);
      },
    );

    check('identity', 'names a prefix token and its own identity', async () => {
      const tokenizer = await options.create();
      const prefix = await tokenizer.prefixToken();
      expect(Number.isInteger(prefix)).toBe(true);
      const identity = await tokenizer.identity();
      expect(identity.backend).toBe(options.backend);
      expect(identity.name.length).toBeGreaterThan(0);
      if (identity.vocabSha256 !== null) {
        expect(identity.vocabSha256).toMatch(/^[0-9a-f]{64}$/);
        expect(identity.vocabSize).toBeGreaterThan(prefix);
      } else expect(identity.note).toBeTruthy();
    });
  });
}
