/**
 * Task configs as results.json's `configs` writes them: undefined fields dropped, functions as their
 * source text (lm-eval writes a callable's source), nested values copied.
 */
export function serializeConfigValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function') return value.toString();
    return value;
  }
  if (Array.isArray(value)) return value.map(serializeConfigValue);
  const record = value as Record<string, unknown>;
  if (record.kind === 'function' && typeof record.fn === 'function') {
    return `!function ${String(record.ref)}`;
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(record)) {
    const serialized = serializeConfigValue(inner);
    if (serialized !== undefined) out[key] = serialized;
  }
  return out;
}

export function serializeConfig(config: object): Record<string, unknown> {
  return serializeConfigValue(config) as Record<string, unknown>;
}
