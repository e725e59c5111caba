import { describe, expect, it } from 'vitest';
import { postprocessGeneratedText } from './stop-strings.js';
import { endsInThinking, splitThinking, thinkEndText, thinkStartOf } from './thinking.js';

describe("postprocessGeneratedText: lm-eval's postprocess_generated_text", () => {
  // Expected values: lm-eval's own function (lm_eval/models/utils.py `postprocess_generated_text`, at
  // 4e7e0d47f33bc71070c1d38394bafbb52b117163) run by python3 on these inputs.
  const cases: Array<[string, string[], string | undefined, string]> = [
    ['<think>so 99</think> The answer is 42.\n\nQuestion: next', ['\n\n'], '</think>', 'The answer is 42.'],
    // The last occurrence counts, and str.lstrip() takes Unicode spaces (NBSP, EM SPACE) too.
    ['<think>a</think>x</think>\u00a0\u2003 y\n\nz', ['\n\n'], '</think>', 'y'],
    // No end token: the generation is kept (left-stripped), then cut at the stops.
    ['  <think>still thinking\n\nabout 77', ['\n\n'], '</think>', '<think>still thinking'],
    ['no think at all', [], '</think>', 'no think at all'],
    // Stops apply to the answer only, not inside the thinking.
    ['reason\n\nmore</think>\n#### 42', ['\n\n', 'Question:'], '</think>', '#### 42'],
    ['</think>', ['\n\n'], '</think>', ''],
    // Without a think end token nothing is stripped.
    ['  plain\n\nanswer', ['\n\n'], undefined, '  plain'],
  ];
  it.each(cases)('%j', (generation, stop, thinkEnd, expected) => {
    expect(postprocessGeneratedText(generation, stop, thinkEnd)).toBe(expected);
  });
});

describe('thinking sections', () => {
  it('derives the start tag of a closing tag, and none otherwise', () => {
    expect(thinkStartOf('</think>')).toBe('<think>');
    expect(thinkStartOf('</reasoning>')).toBe('<reasoning>');
    expect(thinkStartOf('<|channel|>final<|message|>')).toBeUndefined();
  });

  it('tells a generation that stopped inside its thinking', () => {
    // Opened by the generation (Qwen3 with thinking on).
    expect(endsInThinking('<think>counting 1, 2,', '</think>', 'user: q\nassistant:')).toBe(true);
    // Opened by the prompt (DeepSeek-R1's template ends the generation prompt with <think>\n).
    expect(endsInThinking('counting 1, 2,', '</think>', '<|Assistant|><think>\n')).toBe(true);
    // Closed by the prompt (Qwen3 with enable_thinking=false): an answer cut short, not thinking.
    expect(endsInThinking('The answer is', '</think>', 'assistant\n<think>\n\n</think>\n\n')).toBe(false);
    // No thinking anywhere: a long answer.
    expect(endsInThinking('The answer is', '</think>', 'Question: q\nAnswer:')).toBe(false);
    // A prompt the server renders (chat) cannot tell: counted.
    expect(endsInThinking('counting 1, 2,', '</think>', undefined)).toBe(true);
    // Ended thinking.
    expect(endsInThinking('<think>a</think> b', '</think>', undefined)).toBe(false);
    // No start tag known (gpt-oss's channels): the end token's absence decides.
    expect(endsInThinking('analysis...', '<|channel|>final<|message|>', 'x')).toBe(true);
  });

  it('marks truncation only when max_gen_toks ended the generation', () => {
    const raw = '<think>counting 1, 2, 3';
    expect(splitThinking(raw, ['\n\n'], '</think>', 'length', 'Q:')).toEqual({
      text: raw,
      thinking: { raw, truncated: true },
    });
    expect(splitThinking(raw, ['\n\n'], '</think>', 'stop', 'Q:').thinking.truncated).toBe(false);
    expect(splitThinking('<think>x</think> 7', [], '</think>', 'length', 'Q:')).toEqual({
      text: '7',
      thinking: { raw: '<think>x</think> 7', truncated: false },
    });
  });

  it('reads a token id as its text through the tokenizer, and refuses one that decodes to nothing', async () => {
    expect(await thinkEndText('</think>', 'vllm', async () => 'unused')).toBe('</think>');
    expect(await thinkEndText(151668, 'vllm', async (ids) => (ids[0] === 151668 ? '</think>' : ''))).toBe(
      '</think>',
    );
    await expect(thinkEndText(2, 'vllm', async () => '')).rejects.toThrow(
      /think_end_token=2 decodes to an empty text/,
    );
  });
});
