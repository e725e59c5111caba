/** Argument checks shared by the statistics functions; each throws an AssayError naming the function. */
import { AssayError } from '../errors.js';

export function badArgument(where: string, message: string): AssayError {
  return new AssayError('bad_option', `${where}: ${message}`);
}

/** At least `min` values, none of them NaN or infinite. */
export function requireFiniteValues(where: string, name: string, values: ArrayLike<number>, min = 1): void {
  if (values.length < min) {
    throw badArgument(
      where,
      `${name} needs at least ${min} value${min === 1 ? '' : 's'}, got ${values.length}`,
    );
  }
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i]))
      throw badArgument(where, `${name}[${i}] is ${values[i]}, not a finite number`);
  }
}

export function requireSameLength(
  where: string,
  a: ArrayLike<unknown>,
  b: ArrayLike<unknown>,
  names: string,
): void {
  if (a.length !== b.length) {
    throw badArgument(where, `${names} must have the same length (got ${a.length} and ${b.length})`);
  }
}

export function requireProbability(where: string, name: string, value: number, open = true): void {
  const ok = open ? value > 0 && value < 1 : value >= 0 && value <= 1;
  if (!ok) throw badArgument(where, `${name} must be in ${open ? '(0, 1)' : '[0, 1]'}, got ${value}`);
}

export function requireNonNegativeInteger(where: string, name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw badArgument(where, `${name} must be a non-negative integer, got ${value}`);
  }
}
