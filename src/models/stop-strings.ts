import { pythonStrip } from '../python/semantics/string.js';

/**
 * lm-eval's generation postprocessing (`postprocess_generated_text`): cut the text at the first
 * occurrence of each stop string, in order. Every backend applies it to what it generates.
 */
export function cutAtStops(text: string, until: readonly string[]): string {
  let result = text;
  for (const stop of until) {
    if (stop.length === 0) continue;
    const at = result.indexOf(stop);
    if (at >= 0) result = result.slice(0, at);
  }
  return result;
}

/**
 * lm-eval's `postprocess_generated_text(generation, stop, think_end_token)` (lm_eval/models/utils.py):
 * with a think end token, everything up to and including its last occurrence goes and the rest is
 * left-stripped of whitespace (Python's `str.lstrip()`), whether or not the token occurred (a generation
 * without it is kept whole); then the text is cut at the stop strings, which so apply to the answer, not to
 * the thinking.
 */
export function postprocessGeneratedText(
  generation: string,
  until: readonly string[],
  thinkEndToken?: string,
): string {
  if (!thinkEndToken) return cutAtStops(generation, until);
  const at = generation.lastIndexOf(thinkEndToken);
  const answer = at < 0 ? generation : generation.slice(at + thinkEndToken.length);
  return cutAtStops(pythonStrip(answer, undefined, 'left'), until);
}
