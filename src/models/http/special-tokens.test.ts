import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../tokenizers/tokenizer.js';
import { emptyContextPair, encodePrompt } from './special-tokens.js';

/**
 * A Llama-like fake: BOS id 1 spelled "<s>", EOS id 2 spelled "</s>", every other character its code
 * point; with special tokens a BOS is put in front (as SentencePiece Llama tokenizers do).
 */
function fakeTokenizer(bos: number | null = 1): Tokenizer & { calls: Array<[string, boolean]> } {
  const calls: Array<[string, boolean]> = [];
  const pieces = (text: string): number[] => {
    const ids: number[] = [];
    for (let i = 0; i < text.length; ) {
      if (text.startsWith('<s>', i)) {
        ids.push(1);
        i += 3;
      } else if (text.startsWith('</s>', i)) {
        ids.push(2);
        i += 4;
      } else {
        ids.push(text.codePointAt(i) ?? 0);
        i++;
      }
    }
    return ids;
  };
  return {
    backend: 'remote',
    calls,
    async encode(text, addSpecialTokens = true) {
      calls.push([text, addSpecialTokens]);
      const ids = pieces(text);
      return addSpecialTokens && bos !== null ? [bos, ...ids] : ids;
    },
    async decode() {
      throw new Error('not used');
    },
    async bos() {
      return bos;
    },
    async prefixToken() {
      return bos ?? 2;
    },
    async identity() {
      throw new Error('not used');
    },
  };
}

describe('encodePrompt (lm-eval tok_encode with the backend BOS rule)', () => {
  it('without add: no special tokens (TemplateAPI add_special_tokens=False)', async () => {
    const tokenizer = fakeTokenizer();
    expect(await encodePrompt(tokenizer, 'ab', false)).toEqual([97, 98]);
    expect(tokenizer.calls).toEqual([['ab', false]]);
    // Without add a leading BOS text stays as the text encodes: one BOS, from the text itself.
    expect(await encodePrompt(tokenizer, '<s>ab', false)).toEqual([1, 97, 98]);
  });

  it('with add: the tokenizer BOS in front', async () => {
    expect(await encodePrompt(fakeTokenizer(), 'ab', true)).toEqual([1, 97, 98]);
  });

  it('with add: a text that already starts with the BOS text gets no second BOS (has_bos_prefix)', async () => {
    expect(await encodePrompt(fakeTokenizer(), '<s>ab', true)).toEqual([1, 97, 98]);
    // Only a doubled BOS at the very start is collapsed; a BOS later in the text is kept.
    expect(await encodePrompt(fakeTokenizer(), 'a<s>b', true)).toEqual([1, 97, 1, 98]);
  });

  it('with add and a tokenizer that adds no BOS: ids as encoded', async () => {
    expect(await encodePrompt(fakeTokenizer(null), '<s>ab', true)).toEqual([1, 97, 98]);
    expect(await encodePrompt(fakeTokenizer(null), 'ab', true)).toEqual([97, 98]);
  });

  it('an empty text is no tokens, without asking the tokenizer (VLLM.tok_encode)', async () => {
    const tokenizer = fakeTokenizer();
    expect(await encodePrompt(tokenizer, '', true)).toEqual([]);
    expect(await encodePrompt(tokenizer, '', false)).toEqual([]);
    expect(tokenizer.calls).toEqual([]);
  });
});

describe('emptyContextPair (lm-eval TemplateLM.loglikelihood with an empty context)', () => {
  it('conditions the continuation, encoded without special tokens, on the prefix token', async () => {
    const tokenizer = fakeTokenizer();
    expect(await emptyContextPair(tokenizer, 'hi', 1)).toEqual({ context: [1], continuation: [104, 105] });
    expect(tokenizer.calls).toEqual([['hi', false]]);
    // EOS as prefix when the model has no BOS.
    expect(await emptyContextPair(fakeTokenizer(null), 'hi', 2)).toEqual({
      context: [2],
      continuation: [104, 105],
    });
  });

  it('a continuation starting with the prefix token gives that token as the context', async () => {
    expect(await emptyContextPair(fakeTokenizer(), '<s>hi', 1)).toEqual({
      context: [1],
      continuation: [104, 105],
    });
    // A different leading special token is not the prefix: it stays in the continuation.
    expect(await emptyContextPair(fakeTokenizer(), '</s>hi', 1)).toEqual({
      context: [1],
      continuation: [2, 104, 105],
    });
  });
});
