/**
 * The AssayError a call fails with, for tests that check its message, file, line or field: the test
 * fails when the call succeeds or throws anything else.
 */
import { expect } from 'vitest';
import { AssayError } from '../../src/errors.js';

/** The AssayError `promise` rejects with. */
export async function caught(promise: Promise<unknown>): Promise<AssayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AssayError);
  return error as AssayError;
}

/** The AssayError `run` throws; anything else it throws is rethrown. */
export function caughtSync(run: () => unknown): AssayError {
  try {
    run();
  } catch (error) {
    if (error instanceof AssayError) return error;
    throw error;
  }
  throw new Error('expected an AssayError');
}
