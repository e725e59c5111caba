import { AssayError } from '../errors.js';
import type { Seeds } from './run-options.js';

const DEFAULTS = [0, 1234, 1234, 1234];

/**
 * lm-eval's --seed: `python,numpy,torch,fewshot`, default 0,1234,1234,1234; one value sets all four;
 * three values take the fourth from the defaults; `None` leaves that one unseeded.
 */
export function parseSeeds(value: string | number | undefined): Seeds {
  let parts: Array<number | null>;
  if (value === undefined) parts = [...DEFAULTS];
  else {
    const raw = String(value)
      .split(',')
      .map((part) => part.trim());
    const parsed = raw.map((part) => {
      if (part === 'None' || part === 'none') return null;
      if (!/^-?\d+$/.test(part))
        throw new AssayError('bad_argument', `--seed: "${part}" is not an integer or None`);
      return Number.parseInt(part, 10);
    });
    if (parsed.length === 1) parts = [parsed[0], parsed[0], parsed[0], parsed[0]];
    else if (parsed.length === 3) parts = [...parsed, DEFAULTS[3]];
    else if (parsed.length === 4) parts = parsed;
    else
      throw new AssayError(
        'bad_argument',
        `--seed takes 1, 3 or 4 comma-separated values, got ${parsed.length}`,
      );
  }
  return { random: parts[0], numpy: parts[1], torch: parts[2], fewshot: parts[3] };
}
