import type { Tokenizer } from '../tokenizers/tokenizer.js';

/**
 * Token ids of a prompt text under the backend's BOS rule (model-args.ts BosRule), as lm-eval's
 * `tok_encode` of the backend of the same name gives them:
 *   - `add` false: no special tokens (TemplateAPI and SGLangLM `add_special_tokens=False or add_bos_token`);
 *   - `add` true: the tokenizer's special tokens (VLLM `_add_special_kwargs(None, None)` → the tokenizer's
 *     default, or add_bos_token=True), except for a text that already starts with the BOS text, which gets
 *     none (lm_eval/models/utils.py `has_bos_prefix`, applied by VLLM.tok_encode and HFLM.tok_encode): a
 *     rendered chat template that writes `{{ bos_token }}` is never given a second BOS.
 * A tokenizer turns a leading BOS text into the BOS id, so the check is done on ids: a text whose
 * encoding with special tokens starts with the added BOS twice starts with the BOS text.
 * An empty text is no tokens (VLLM.tok_encode returns [] for it).
 */
export async function encodePrompt(tokenizer: Tokenizer, text: string, add: boolean): Promise<number[]> {
  if (text === '') return [];
  if (!add) return tokenizer.encode(text, false);
  const ids = await tokenizer.encode(text, true);
  const bos = await tokenizer.bos();
  return bos !== null && ids.length >= 2 && ids[0] === bos && ids[1] === bos ? ids.slice(1) : ids;
}

/**
 * An empty context, as lm-eval's TemplateLM.loglikelihood handles it for every backend: the continuation
 * without special tokens, conditioned on the prefix token (BOS, else EOS); a continuation that itself
 * starts with the prefix token gives that token as the context instead.
 */
export async function emptyContextPair(
  tokenizer: Tokenizer,
  continuation: string,
  prefix: number,
): Promise<{ context: number[]; continuation: number[] }> {
  const tokens = await tokenizer.encode(continuation, false);
  return tokens[0] === prefix
    ? { context: tokens.slice(0, 1), continuation: tokens.slice(1) }
    : { context: [prefix], continuation: tokens };
}
