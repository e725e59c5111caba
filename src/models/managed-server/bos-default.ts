import type { BosDefault } from '../http/model-args.js';
import type { ServerKind } from './server-args.js';

/**
 * lm-eval's add_bos_token default for its backend of the same name, which assay's managed servers stand
 * for (the user's add_bos_token= wins over it):
 *   - vllm (vllm_causallms.py VLLM): `add_bos_token=None`, so tok_encode passes no add_special_tokens
 *     (utils.py _add_special_kwargs) and the tokenizer adds its default special tokens: BOS for Llama,
 *     Gemma and Mistral tokenizers, nothing for GPT-2 or Qwen. Through the server that is /tokenize with
 *     add_special_tokens=true, vLLM's own default.
 *   - sglang (sglang_causallms.py SGLangLM): `add_bos_token=False`, turned on when the model's name
 *     contains "gemma" ("Gemma series models underperform without it"). lm-eval applies the Gemma rule even
 *     over an explicit add_bos_token=False; assay lets the explicit value win, and records which applied.
 */
export function managedBosDefault(kind: ServerKind, model: string | undefined): BosDefault {
  if (kind === 'vllm')
    return {
      add: true,
      rule: "lm-eval's vllm (add_bos_token=None): the tokenizer's default special tokens",
    };
  if (model?.toLowerCase().includes('gemma'))
    return {
      add: true,
      rule: `lm-eval's sglang: "gemma" in the model name (${model}) turns add_bos_token on`,
    };
  return { add: false, rule: "lm-eval's sglang (add_bos_token=False): no special tokens" };
}
