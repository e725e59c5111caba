/**
 * The model args that become chat-template variables, `enable_thinking` and `chat_template_args`, and how
 * each backend passes them, after lm-eval:
 *   - hf (huggingface.py): `chat_template_args | {enable_thinking}` when enable_thinking is given, so the
 *     explicit arg wins over the one inside chat_template_args;
 *   - vllm (vllm_causallms.py): the same variables, and `enable_thinking` is always passed, None when unset
 *     (a template asking `enable_thinking is defined` sees it defined). lm-eval's vllm also drops an
 *     `enable_thinking` given inside chat_template_args; assay keeps it (hf's rule) rather than ignore it.
 * lm-eval's local-completions and sglang take neither arg; assay passes them by the hf rule there and for
 * gguf, so a reasoning model served any way can be told not to think.
 */
import { z } from 'zod';

const booleanArg = z.union([
  z.boolean(),
  z.enum(['true', 'false', 'True', 'False']).transform((v) => v.toLowerCase() === 'true'),
]);

/** A JSON object, given as one or as its JSON text (`chat_template_args={"enable_thinking":false}`). */
const jsonObject = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
  z.record(z.string(), z.unknown()),
);

/** The model-arg fields, for a backend's zod schema. */
export const TEMPLATE_VARIABLE_ARGS = {
  /** Passed to the chat template (Qwen3 and other reasoning models turn thinking off with false). */
  enable_thinking: booleanArg.optional(),
  /** Extra chat-template variables, a JSON object (lm-eval's `chat_template_args`). */
  chat_template_args: jsonObject.optional(),
};

export interface TemplateVariableArgs {
  enable_thinking?: boolean;
  chat_template_args?: Record<string, unknown>;
}

export type TemplateVariableRule = 'hf' | 'vllm';

/** The two args out of raw model args (already checked by the backend's schema; anything else is none). */
export function templateVariableArgs(raw: Record<string, unknown>): TemplateVariableArgs {
  const parsed = z
    .object(TEMPLATE_VARIABLE_ARGS)
    .safeParse({ enable_thinking: raw.enable_thinking, chat_template_args: raw.chat_template_args });
  return parsed.success ? parsed.data : {};
}

export function templateVariables(
  args: TemplateVariableArgs,
  rule: TemplateVariableRule,
): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...args.chat_template_args };
  if (args.enable_thinking !== undefined) variables.enable_thinking = args.enable_thinking;
  else if (rule === 'vllm' && !('enable_thinking' in variables)) variables.enable_thinking = null;
  return variables;
}

/** Whether thinking is on by the args (lm-eval refuses loglikelihood requests then). */
export function thinkingEnabled(args: TemplateVariableArgs): boolean {
  return (args.enable_thinking ?? args.chat_template_args?.enable_thinking) === true;
}
