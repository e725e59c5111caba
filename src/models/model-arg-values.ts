/**
 * The value types of backends' model args, and the one way a backend's args are checked: its zod schema,
 * with the first problem named with the arg and the backend. Values come from lm-eval's `k=v` strings
 * (already typed: `5` is a number, `True` a boolean, `None` null) or from a JSON object, where a number
 * may be spelled as a string ("5"). A number arg takes a finite number or a string that spells one, and
 * nothing else: zod's coerce would read `true` as 1, `None` and "" as 0 and keep "abc" for a field typed
 * `unknown`, so a run would go on with a value nobody gave.
 */
import { z } from 'zod';
import { AssayError } from '../errors.js';
import { checkModelArgKeys } from './model-arg-keys.js';

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

const fromText = (value: unknown) =>
  typeof value === 'string' && NUMBER_TEXT.test(value.trim()) ? Number(value) : value;

/** A finite number; `what` words the expectation ("a positive number"). */
export function numberArg(what = 'a number', check: (n: number) => boolean = () => true) {
  const message = (issue: { input?: unknown }) => `expected ${what}, got ${shown(issue.input)}`;
  return z.preprocess(fromText, z.number({ error: message }).refine(check, { error: message }));
}

/** An integer; `what` words the expectation ("a positive integer"). */
export function integerArg(what = 'an integer', check: (n: number) => boolean = () => true) {
  const message = (issue: { input?: unknown }) => `expected ${what}, got ${shown(issue.input)}`;
  return z.preprocess(
    fromText,
    z.number({ error: message }).int({ error: message }).refine(check, { error: message }),
  );
}

/** lm-eval's batch_size: a positive integer, or `auto` (spelled as `autoSpelling` accepts), read as `autoValue`. */
export function batchSizeArg(autoValue: number, autoSpelling: RegExp) {
  return z.preprocess(
    (value) => (typeof value === 'string' && autoSpelling.test(value.trim()) ? autoValue : value),
    integerArg('a positive integer or auto', (n) => n > 0),
  );
}

export const positiveInteger = () => integerArg('a positive integer', (n) => n > 0);
export const positiveNumber = () => numberArg('a positive number', (n) => n > 0);
export const nonNegativeNumber = () => numberArg('a number ≥ 0', (n) => n >= 0);

/**
 * Checks `raw` against a backend's schema: unknown names first (with did-you-mean), then the values; the
 * first problem is an AssayError naming the backend and the arg, before any model is loaded or request sent.
 */
export function parseModelArgs<Schema extends z.ZodObject>(
  backend: string,
  schema: Schema,
  raw: Record<string, unknown>,
): z.output<Schema> {
  checkModelArgKeys(backend, raw, Object.keys(schema.shape));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AssayError(
      'bad_model_args',
      `\`modelArgs\` for ${backend}: ${issue.path.join('.') || '(args)'}: ${issue.message}`,
    );
  }
  return parsed.data;
}
