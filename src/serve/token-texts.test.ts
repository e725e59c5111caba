import { describe, expect, it } from 'vitest';
import { codePointLength, spellPrompt } from './token-texts.js';

// Pieces as the engine decodes tokens in context: llama.cpp's SentencePiece vocabularies put a space
// before the first word and after each special token, and spell the BOS the server added as "<s>".
describe('spellPrompt', () => {
  it('drops the dummy-prefix space from a lone "▁" token (stories260K: "After" is "▁" "A" "f" "ter")', () => {
    expect(spellPrompt(['<s>', ' ', 'A', 'f', 'ter'], 1, 'After')).toEqual({
      texts: ['', '', 'A', 'f', 'ter'],
      dropped: ['', ' ', '', '', ''],
    });
  });

  it('drops it from the first word\'s token (" Question" for "Question") and keeps later spaces', () => {
    expect(spellPrompt(['<s>', ' Question', ':', ' Sun'], 1, 'Question: Sun')).toEqual({
      texts: ['', 'Question', ':', ' Sun'],
      dropped: ['', ' ', '', ''],
    });
  });

  it('drops the space llama.cpp adds after special tokens, and keeps the special tokens’ text', () => {
    const prompt = '<|im_start|>user\nHi<|im_end|>\n';
    const pieces = ['<s>', '<|im_start|>', ' ', 'u', 's', 'e', 'r', '\n', 'H', 'i', '<|im_end|>', ' ', '\n'];
    const spelled = spellPrompt(pieces, 1, prompt);
    expect(spelled?.texts.join('')).toBe(prompt);
    expect(spelled?.texts).toEqual([
      '',
      '<|im_start|>',
      '',
      'u',
      's',
      'e',
      'r',
      '\n',
      'H',
      'i',
      '<|im_end|>',
      '',
      '\n',
    ]);
  });

  it('keeps a space the prompt has: only the one it lacks is dropped', () => {
    // " hi" with a dummy prefix: "▁" then "▁h" "i"; the first space is the prompt's own.
    expect(spellPrompt(['<s>', ' ', ' h', 'i'], 1, ' hi')?.texts).toEqual(['', ' ', 'h', 'i']);
    // Without a BOS the first token is the prompt's.
    expect(spellPrompt(['Once', ' upon'], 0, 'Once upon')?.texts).toEqual(['Once', ' upon']);
  });

  it('keeps the "" of bytes that end inside a character, which the completing token spells whole', () => {
    expect(spellPrompt(['<s>', ' ', 'L', 'e', ' ', '', '日'], 1, 'Le 日')?.texts).toEqual([
      '',
      '',
      'L',
      'e',
      ' ',
      '',
      '日',
    ]);
  });

  it('gives up when the tokens decode to other text (an unknown character), so the decoded texts stay', () => {
    expect(spellPrompt(['<s>', ' ⁇', 'x'], 1, '\u0007x')).toBeUndefined();
    // Tokens that spell less than the prompt, or more.
    expect(spellPrompt(['<s>', ' a'], 1, 'ab')).toBeUndefined();
    expect(spellPrompt(['<s>', ' a', 'b', 'c'], 1, 'ab')).toBeUndefined();
  });
});

describe('codePointLength', () => {
  it('counts code points, as Python’s len() does', () => {
    expect(codePointLength('日本')).toBe(2);
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('')).toBe(0);
  });
});
