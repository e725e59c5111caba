/**
 * The host's side of the code_exec conversation: only the first reply carrying the nonce of the input
 * being asked counts, and the next input goes out only after it; anything else the program writes is
 * ignored. Then the answers are judged against expected values the sandbox never saw.
 */
import { describe, expect, it } from 'vitest';
import { IoDialogue, judgeIoAnswers } from './io-tests.js';

const nonceOf = (line: string) => (JSON.parse(line) as { nonce: string }).nonce;

describe('IoDialogue', () => {
  it('asks one input at a time and takes the first reply with that input’s nonce', () => {
    const dialogue = new IoDialogue({ language: 'python', code: 'def f(x): ...', inputs: [[2], [3]] });
    const opening = JSON.parse(dialogue.opening());
    expect(opening).toEqual({ nonce: expect.stringMatching(/^[0-9a-f]{24}$/), code: 'def f(x): ...' });
    // Written before being asked: a guessed nonce and the right answers count for nothing.
    expect(dialogue.reply(JSON.stringify(['0', 'ok', '4', '']))).toBeUndefined();
    expect(dialogue.reply('not json')).toBeUndefined();
    const first = dialogue.reply(JSON.stringify([opening.nonce, 'loaded'])) as string;
    expect(JSON.parse(first)).toEqual({ nonce: expect.any(String), input: [2] });
    expect(nonceOf(first)).not.toBe(opening.nonce);
    // The load nonce is spent: a second "loaded" or an answer with it is ignored.
    expect(dialogue.reply(JSON.stringify([opening.nonce, 'ok', '4', '']))).toBeUndefined();
    const second = dialogue.reply(JSON.stringify([nonceOf(first), 'ok', '4', ''])) as string;
    expect(JSON.parse(second)).toEqual({ nonce: expect.any(String), input: [3] });
    expect(dialogue.reply(JSON.stringify([nonceOf(first), 'ok', '5', '']))).toBeUndefined();
    expect(dialogue.reply(JSON.stringify([nonceOf(second), 'error', 'ValueError: no']))).toBeNull();
    expect(dialogue.result()).toEqual({
      answers: [
        { test: 0, value: '4', printed: '' },
        { test: 1, error: 'ValueError: no' },
      ],
    });
  });

  it('stops at a load error', () => {
    const dialogue = new IoDialogue({ language: 'javascript', code: 'function f(', inputs: [[1]] });
    const { nonce } = JSON.parse(dialogue.opening());
    expect(dialogue.reply(JSON.stringify([nonce, 'error', "SyntaxError: Unexpected token ')'"]))).toBeNull();
    expect(dialogue.result()).toEqual({ loadError: "SyntaxError: Unexpected token ')'", answers: [] });
  });
});

describe('judgeIoAnswers', () => {
  it('compares with each language’s equality, after a JSON round trip of the expected value', () => {
    const tests = [
      { input: [1], output: 1 },
      { input: [2], output: [1, 2] },
      { input: [3], output: true },
      { input: [4], output: null, stdout: 'hi\n' },
    ];
    const answers = {
      answers: [
        { test: 0, value: '1.0', printed: '' },
        { test: 1, value: '[1, 2.0]', printed: '' },
        { test: 2, value: '1', printed: '' },
        { test: 3, value: 'null', printed: 'hello\n' },
      ],
    };
    expect(judgeIoAnswers(answers, 'python', tests)).toEqual({
      reports: [
        { test: 0, ok: true },
        { test: 1, ok: true },
        { test: 2, ok: false, message: 'expected true, got 1' },
        { test: 3, ok: false, message: 'expected stdout "hi\\n", got "hello\\n"' },
      ],
    });
    expect(
      judgeIoAnswers({ answers: [{ test: 0, value: 'NaN', printed: '' }] }, 'python', tests).reports,
    ).toEqual([{ test: 0, ok: false, message: 'expected 1, got NaN' }]);
  });
});
