import { z } from 'zod';
import { AssayError } from '../errors.js';
import type { GenerationThinking } from './backend.js';
import { postprocessGeneratedText } from './stop-strings.js';

/**
 * Reasoning models: the `think_end_token` model arg, and whether a generation stopped inside its
 * thinking section. The answer itself is lm-eval's `postprocess_generated_text` (stop-strings.ts).
 */

/**
 * `think_end_token`: the text that ends the thinking (`</think>`), or a token id (lm-eval's hf backend
 * takes one; `think_end_token=151668` arrives as a number), read as the token's text by the run's tokenizer.
 */
export const thinkEndTokenSchema = z.union([
  z.string().min(1, 'think_end_token is empty; give the text that ends the thinking, e.g. </think>'),
  z.number().int().nonnegative(),
]);

/** The end token's text: a text as given, a token id decoded by the backend's tokenizer. */
export async function thinkEndText(
  value: string | number,
  backend: string,
  decode: (ids: number[]) => Promise<string>,
): Promise<string> {
  if (typeof value === 'string') return value;
  const text = await decode([value]);
  if (text.length === 0) {
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${backend}: think_end_token=${value} decodes to an empty text (a special token the tokenizer leaves out); give its text (e.g. think_end_token=</think>)`,
    );
  }
  return text;
}

/** `</think>` → `<think>`: the start of a thinking section whose end is a closing tag; else unknown. */
export function thinkStartOf(end: string): string | undefined {
  const match = /^<\/([^<>/]+)>$/.exec(end);
  return match ? `<${match[1]}>` : undefined;
}

/**
 * The generation ends inside its thinking section: the end token is not in it, and the thinking was open,
 * i.e. the generation opened it (holds the start tag), or the prompt left it open (a template that ends
 * the generation prompt with `<think>\n`, as DeepSeek-R1's does; Qwen3's with thinking off closes it),
 * or neither can be told (no start tag known, or a prompt the server renders, `prompt` undefined).
 */
export function endsInThinking(raw: string, end: string, prompt: string | undefined): boolean {
  if (raw.includes(end)) return false;
  const start = thinkStartOf(end);
  if (start === undefined || raw.includes(start) || prompt === undefined) return true;
  return prompt.lastIndexOf(start) > prompt.lastIndexOf(end);
}

/**
 * The answer and the sample log's thinking record of a generation cut by `think_end_token`. `finishReason`
 * is the server's (`length`: max_gen_toks reached); `prompt` the text the model continued, when known.
 */
export function splitThinking(
  raw: string,
  until: readonly string[],
  end: string,
  finishReason: string | null | undefined,
  prompt: string | undefined,
): { text: string; thinking: GenerationThinking } {
  return {
    text: postprocessGeneratedText(raw, until, end),
    thinking: { raw, truncated: finishReason === 'length' && endsInThinking(raw, end, prompt) },
  };
}
