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
