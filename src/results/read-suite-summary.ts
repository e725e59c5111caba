/**
 * The one reader of `suites/NAME/summary.json` (results/suite-summary.ts's contract): `assay view` and
 * any script read it here, and a file that is not a summary fails naming the file and its first bad field.
 */
import { readFileSync } from 'node:fs';
import { AssayError, readError } from '../errors.js';
import { firstIssue } from './read-run.js';
import { SUITE_SUMMARY_SCHEMA, type SuiteSummary, suiteSummarySchema } from './suite-summary.js';

/** A summary checked against the contract; a file that is not one fails naming `file` and the first bad field. */
export function parseSuiteSummary(value: unknown, file: string): SuiteSummary {
  const checked = suiteSummarySchema.safeParse(value);
  if (!checked.success)
    throw new AssayError(
      'bad_data',
      `not a suite summary (${SUITE_SUMMARY_SCHEMA}): ${firstIssue(checked.error)}`,
      {
        location: { file },
      },
    );
  return checked.data;
}

/** summary.json as every reader takes it (`assay view`, scripts): read, JSON-parsed, checked. */
export function readSuiteSummary(file: string): SuiteSummary {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw readError('suite summary', file, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AssayError('bad_data', `suite summary is not JSON: ${(error as Error).message}`, {
      location: { file },
      cause: error,
    });
  }
  return parseSuiteSummary(value, file);
}
