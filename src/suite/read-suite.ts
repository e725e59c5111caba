/**
 * Reads a suite file: YAML parsed once with positions kept, then checked against the suite schema. Every
 * error names the file, the line and the field (`models.1.model_args`), as task files' errors do, and the
 * loaded suite keeps a way to locate any field for the checks that come later (validate-suite.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Document, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { AssayError, type ErrorLocation } from '../errors.js';
import { keyPathOffset } from '../tasks/yaml-loader.js';
import { type SuiteFile, suiteFileSchema } from './suite-file.js';

export type FieldPath = readonly (string | number)[];

export interface LoadedSuite {
  /** The file as given, resolved. */
  file: string;
  /** Its sha256 (hex): the record of exactly which suite ran. */
  sha256: string;
  suite: SuiteFile;
  /** Where a field is written (file, line, column, field), for errors found after the schema. */
  locate(field: FieldPath): ErrorLocation;
}

/** The deepest node of `field` present in the document, and its start offset. */
function positionOf(document: Document, field: FieldPath): number {
  return keyPathOffset(document.contents, field);
}

function valueAt(value: unknown, field: FieldPath): unknown {
  let current = value;
  for (const part of field) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}

function fieldName(field: FieldPath): string | undefined {
  return field.length ? field.join('.') : undefined;
}

/** The first schema problem, worded with its field and placed at its line. */
function schemaError(error: z.ZodError, value: unknown, locate: LoadedSuite['locate']): AssayError {
  const issue = error.issues[0];
  let field: FieldPath = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    field = [...field, issue.keys[0]];
    message = `unknown key "${issue.keys[0]}"`;
  } else if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_union') &&
    valueAt(value, field) === undefined
  ) {
    message = 'is required';
  }
  const name = fieldName(field);
  return new AssayError('invalid_config', `suite file: ${name ? `${name}: ` : ''}${message}`, {
    location: locate(field),
  });
}

/** Reads and checks a suite file; an AssayError (exit 2) names the file, line and field of the first problem. */
export function readSuiteFile(file: string): LoadedSuite {
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(resolved, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new AssayError(
      missing ? 'not_found' : 'io_error',
      `cannot read suite file ${file}: ${(error as Error).message}`,
      {
        location: { file },
        cause: error,
      },
    );
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true });
  const locate = (field: FieldPath): ErrorLocation => {
    const { line, col } = lineCounter.linePos(positionOf(document, field));
    return { file, line, column: col, field: fieldName(field) };
  };
  const syntax = document.errors[0];
  if (syntax) {
    const position = syntax.linePos?.[0];
    throw new AssayError(
      'yaml_syntax',
      `malformed YAML: ${syntax.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
      {
        location: { file, line: position?.line, column: position?.col },
      },
    );
  }
  const value: unknown = document.toJS();
  const checked = suiteFileSchema.safeParse(value);
  if (!checked.success) throw schemaError(checked.error, value, locate);
  return {
    file: resolved,
    sha256: createHash('sha256').update(text).digest('hex'),
    suite: checked.data,
    locate,
  };
}
