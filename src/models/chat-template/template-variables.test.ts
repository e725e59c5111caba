import { describe, expect, it } from 'vitest';
import { templateVariableArgs, templateVariables, thinkingEnabled } from './template-variables.js';

describe('chat-template variables from model args, by lm-eval backend', () => {
  it("hf's rule: chat_template_args, with an explicit enable_thinking winning; nothing when neither is given", () => {
    expect(
      templateVariables(
        { chat_template_args: { enable_thinking: true, x: 1 }, enable_thinking: false },
        'hf',
      ),
    ).toEqual({
      enable_thinking: false,
      x: 1,
    });
    expect(templateVariables({}, 'hf')).toEqual({});
  });

  it("vllm's rule: enable_thinking is always passed, None when unset", () => {
    expect(templateVariables({}, 'vllm')).toEqual({ enable_thinking: null });
    expect(templateVariables({ chat_template_args: { enable_thinking: false } }, 'vllm')).toEqual({
      enable_thinking: false,
    });
  });

  it('parses k=v spellings: a JSON object text and true/false words', () => {
    const args = templateVariableArgs({
      enable_thinking: 'False',
      chat_template_args: '{"enable_thinking": true}',
    });
    expect(args).toEqual({ enable_thinking: false, chat_template_args: { enable_thinking: true } });
    expect(thinkingEnabled(args)).toBe(false);
    expect(thinkingEnabled(templateVariableArgs({ chat_template_args: { enable_thinking: true } }))).toBe(
      true,
    );
  });
});
