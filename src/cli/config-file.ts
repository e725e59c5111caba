/**
 * `--config FILE` (lm-eval's `-C`): a YAML mapping whose keys are the command's flags (kebab or snake
 * case). An unknown key is refused with a did-you-mean, as lm-eval refuses keys EvaluatorConfig lacks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { AssayError, closestNames } from '../errors.js';

/** The `yaml` package, loaded for a --config file only (~60 ms of start-up otherwise). */
const requireModule = createRequire(import.meta.url);
const parseYaml = (text: string): unknown => (requireModule('yaml') as typeof Yaml).parse(text);

export function readConfigFile(
  file: string,
  keys: readonly string[],
  command: string,
): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AssayError(
      code === 'ENOENT' ? 'not_found' : 'io_error',
      `--config: cannot read ${file}${code ? ` (${code})` : ''}`,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new AssayError('yaml_syntax', (error as Error).message.split('\n')[0], { location: { file } });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AssayError('bad_option', `--config: ${file} is not a mapping`, { location: { file } });
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const name = key.replaceAll('-', '_');
    if (!keys.includes(name)) {
      const close = closestNames(name, keys, 1);
      throw new AssayError(
        'bad_option',
        `--config: unknown key "${key}"${close.length ? `; did you mean "${close[0]}"?` : ''} (keys are the flags of ${command})`,
        { location: { file } },
      );
    }
    values[name] = value;
  }
  return values;
}
