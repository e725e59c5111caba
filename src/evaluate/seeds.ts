import { AssayError } from '../errors.js';

/** The seeds of lm-eval's four generators; null leaves one unseeded (lm-eval's `--seed None`). */
export interface Seeds {
  random: number | null;
  numpy: number | null;
  torch: number | null;
  fewshot: number | null;
}

/** lm-eval's default seeds (python, numpy, torch, fewshot): 0, 1234, 1234, 1234. */
export const DEFAULT_SEEDS: Seeds = { random: 0, numpy: 1234, torch: 1234, fewshot: 1234 };

/** The run's seeds: the defaults with the given ones over them; null leaves a generator unseeded. */
export function settleSeeds(seeds: Partial<Seeds> | undefined): Seeds {
  const settled = { ...DEFAULT_SEEDS };
  for (const [key, value] of Object.entries(seeds ?? {})) {
    if (!(key in DEFAULT_SEEDS)) {
      throw new AssayError(
        'bad_option',
        `\`seeds\` has no generator "${key}" (they are ${Object.keys(DEFAULT_SEEDS).join(', ')})`,
        { location: { field: 'seeds' } },
      );
    }
    if (value === undefined) continue;
    if (value !== null && !Number.isInteger(value)) {
      throw new AssayError(
        'bad_option',
        `\`seeds.${key}\` must be an integer or null, got ${String(value)}`,
        {
          location: { field: `seeds.${key}` },
        },
      );
    }
    settled[key as keyof Seeds] = value;
  }
  return settled;
}
