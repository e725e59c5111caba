import { AssayError, closestNames } from '../errors.js';

/**
 * Every backend rejects model args it does not know: an ignored `num_concurent=8` would run at the
 * default concurrency, and an ignored `pretrained=…` would label the results with a model never asked.
 */
export function checkModelArgKeys(
  backend: string,
  raw: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) continue;
    const close = closestNames(key, known, 1);
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${backend}: unknown argument "${key}"${close.length ? `; did you mean "${close[0]}"?` : ''} (${backend} takes ${known.join(', ')})`,
    );
  }
}
