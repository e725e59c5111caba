import type { GenerateRequest } from '../models/backend.js';

const MAX_TOKEN_ALIASES = ['max_gen_toks', 'max_new_tokens', 'max_tokens', 'max_completion_tokens'] as const;

/**
 * Normalises a task's generation_kwargs (updated with --gen_kwargs) the way lm-eval does: `until` as a
 * list (default: the few-shot delimiter), max-token aliases in priority order, float temperature,
 * `do_sample=false` forcing temperature 0, and `do_sample` inferred from temperature when absent.
 */
export function normalizeGenerationKwargs(
  taskKwargs: Record<string, unknown> | undefined,
  runKwargs: Record<string, unknown>,
  fewshotDelimiter: string,
): Omit<GenerateRequest, 'context'> {
  const merged: Record<string, unknown> = { ...(taskKwargs ?? {}), ...runKwargs };
  let until: string[];
  const rawUntil = merged.until;
  if (rawUntil === undefined || rawUntil === null) until = [fewshotDelimiter];
  else if (Array.isArray(rawUntil)) until = rawUntil.map(String);
  else until = [String(rawUntil)];
  let maxGenToks = 256;
  for (const alias of MAX_TOKEN_ALIASES) {
    if (merged[alias] !== undefined && merged[alias] !== null) {
      maxGenToks = Number(merged[alias]);
      break;
    }
  }
  let temperature = merged.temperature === undefined ? 0 : Number(merged.temperature);
  let doSample: boolean;
  if (merged.do_sample === undefined) doSample = temperature > 0;
  else doSample = Boolean(merged.do_sample);
  if (!doSample) temperature = 0;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) {
    if (key === 'until' || key === 'temperature' || key === 'do_sample') continue;
    if ((MAX_TOKEN_ALIASES as readonly string[]).includes(key)) continue;
    extra[key] = value;
  }
  return { until, maxGenToks, temperature, doSample, extra };
}
