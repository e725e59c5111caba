import { AssayError } from '../errors.js';

/**
 * Parses `--model_args`/`--gen_kwargs` as lm-eval does: a JSON object, or `k=v,k2=v2` pairs whose values
 * become booleans, integers or floats when they look like one (lm-eval's handle_cli_value_string).
 */
export function parseKeyValueArgs(text: string | undefined, flag: string): Record<string, unknown> {
  if (text === undefined) return {};
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch (error) {
      throw new AssayError('bad_option', `${flag}: invalid JSON object: ${(error as Error).message}`, {
        cause: error,
      });
    }
    throw new AssayError('bad_option', `${flag}: expected a JSON object`);
  }
  const result: Record<string, unknown> = {};
  let lastKey: string | undefined;
  for (const pair of trimmed.split(/[,\s]+/)) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if ((eq < 0 || pair.startsWith('-')) && lastKey !== undefined) {
      // `base_url=http://a/v1/completions,http://b/v1/completions`: a piece without `=` continues a list,
      // and so does a piece that starts with `-`, which is no key: `vllm_args=--max-num-seqs=64,--enforce-eager`.
      result[lastKey] = `${String(result[lastKey])},${pair}`;
      continue;
    }
    if (eq <= 0) throw new AssayError('bad_option', `${flag}: expected key=value, got "${pair}"`);
    lastKey = pair.slice(0, eq);
    result[lastKey] = parseCliValue(pair.slice(eq + 1));
  }
  return result;
}

export function parseCliValue(value: string): unknown {
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'none' || lower === 'null') return null;
  if (/^[+-]?\d+$/.test(value)) return Number.parseInt(value, 10);
  if (/^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$/.test(value)) return Number.parseFloat(value);
  return value;
}
