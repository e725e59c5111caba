/**
 * lm-eval's get_rolling_token_windows + make_disjoint_window with context_len=1: the text is cut into
 * windows of at most `maxLength` tokens; each predicts its own tokens, conditioned on what precedes them
 * (the first on `prefix`). Returns (context, continuation) token pairs whose log-likelihoods add up.
 */
export function rollingWindows(
  tokens: number[],
  prefix: number,
  maxLength: number,
): Array<{ context: number[]; continuation: number[] }> {
  const windows: Array<{ context: number[]; continuation: number[] }> = [];
  if (tokens.length === 0) return windows;
  const first = Math.min(maxLength, tokens.length);
  windows.push({ context: [prefix], continuation: tokens.slice(0, first) });
  let predicted = first;
  while (predicted < tokens.length) {
    const length = Math.min(tokens.length - predicted, maxLength);
    const end = predicted + length;
    const context = tokens.slice(Math.max(0, end - maxLength - 1), end - 1);
    // make_disjoint_window: the context stops where the continuation starts.
    windows.push({
      context: context.slice(0, context.length - (length - 1)),
      continuation: tokens.slice(end - length, end),
    });
    predicted += length;
  }
  return windows;
}
