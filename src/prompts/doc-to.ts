/**
 * `doc_to_text`, `doc_to_target` and `doc_to_choice` with the exact rules of lm-eval's ConfigurableTask
 * (lm_eval/api/task.py at 4e7e0d47): a string naming a doc column returns the column as is, any other
 * string is a Jinja template, a number is a constant, a function is called on the doc; rendered digits
 * become an int when the task has choices, rendered `[...]` targets and choice templates go through
 * `ast.literal_eval`.
 */
import { AssayError } from '../errors.js';
import { parsePythonLiteral, pythonStr } from '../python/semantics/literal.js';
import { isDict } from '../python/semantics/values.js';
import type { Doc } from '../task-config/doc.js';
import type { FunctionRef } from '../task-config/function-ref.js';
import type { ChoiceField, TaskConfig, TemplateField } from '../task-config/task-config.js';
import { renderTemplate } from './template.js';

export interface DocLocation {
  task: string;
  docId: number | string;
}

/** The config fields these functions read. */
export type DocToConfig = Pick<TaskConfig, 'task' | 'doc_to_text' | 'doc_to_target' | 'doc_to_choice'>;

export interface DocToOptions {
  /**
   * A field to use instead of the config's (lm-eval's `doc_to_text(doc, fewshot_config.doc_to_text)`).
   * `undefined` falls back to the config.
   */
  field?: TemplateField | string[] | ChoiceField;
  /**
   * The dataset's column names. lm-eval compares a field with the eval split's `features`; by default the
   * doc's own keys stand in for them (the same set unless a few-shot doc has other columns).
   */
  features?: ReadonlySet<string>;
}

/** doc_to_text returns a string, or an int for multiple-input tasks (winogrande: the gold context index). */
export type DocText = string | number;
/** doc_to_target returns a string, an int (index into the choices) or a list (several gold answers). */
export type DocTarget = string | number | unknown[];

function isFunctionRef(value: unknown): value is FunctionRef {
  return typeof value === 'object' && value !== null && (value as FunctionRef).kind === 'function';
}

function isColumn(name: string, doc: Doc, features: ReadonlySet<string> | undefined): boolean {
  return features ? features.has(name) : Object.hasOwn(doc, name);
}

function callFunction(ref: FunctionRef, doc: Doc, location: DocLocation, field: string): unknown {
  try {
    return (ref.fn as (doc: Doc) => unknown)(doc);
  } catch (error) {
    if (error instanceof AssayError) throw error;
    throw new AssayError(
      'template_error',
      `${field} function ${ref.ref} failed on doc ${location.docId} of task ${location.task}: ${(error as Error).message}`,
      { location: { ...location, file: ref.file, field }, cause: error },
    );
  }
}

function literal(text: string, location: DocLocation, field: string): unknown {
  try {
    return parsePythonLiteral(text);
  } catch (error) {
    throw new AssayError(
      'template_error',
      `${field} of task ${location.task} rendered ${JSON.stringify(text.slice(0, 200))} for doc ${location.docId}, which is not a Python literal (ast.literal_eval): ${(error as Error).message}`,
      { location: { ...location, field }, cause: error },
    );
  }
}

// Python's str.isdigit() also accepts non-ASCII digits; ast.literal_eval then rejects them, as below.
const DIGITS = /^[\p{Nd}\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]+$/u;

function missingField(field: string, location: DocLocation): never {
  throw new AssayError('invalid_config', `task ${location.task} has no ${field}`, {
    location: { ...location, field },
  });
}

export function docToText(
  config: DocToConfig,
  doc: Doc,
  location: DocLocation,
  options: DocToOptions = {},
): DocText {
  const field = (options.field ?? config.doc_to_text) as TemplateField | undefined;
  const name = 'doc_to_text';
  if (field === undefined || field === null) return missingField(name, location);
  if (typeof field === 'number') return field;
  if (typeof field === 'string') {
    if (isColumn(field, doc, options.features)) return doc[field] as DocText;
    const text = renderTemplate(field, doc, { ...location, field: name });
    if (config.doc_to_choice !== undefined && DIGITS.test(text))
      return literal(text, location, name) as number;
    return text;
  }
  if (isFunctionRef(field)) return callFunction(field, doc, location, name) as DocText;
  throw new AssayError(
    'invalid_config',
    `${name} of task ${location.task} must be a string, a number or a function`,
    {
      location: { ...location, field: name },
    },
  );
}

export function docToTarget(
  config: DocToConfig,
  doc: Doc,
  location: DocLocation,
  options: DocToOptions = {},
): DocTarget {
  const field = (options.field ?? config.doc_to_target) as TemplateField | string[] | undefined;
  const name = 'doc_to_target';
  if (field === undefined || field === null) return missingField(name, location);
  if (typeof field === 'number') return field;
  if (typeof field === 'string') {
    if (isColumn(field, doc, options.features)) return doc[field] as DocTarget;
    const text = renderTemplate(field, doc, { ...location, field: name });
    if (config.doc_to_choice !== undefined && DIGITS.test(text))
      return literal(text, location, name) as number;
    if (text.length >= 2 && text.startsWith('[') && text.endsWith(']')) {
      // lm-eval keeps the string when literal_eval fails on something that only looks like a list.
      try {
        return parsePythonLiteral(text) as DocTarget;
      } catch {
        return text;
      }
    }
    return text;
  }
  if (Array.isArray(field)) return field;
  if (isFunctionRef(field)) return callFunction(field, doc, location, name) as DocTarget;
  throw new AssayError(
    'invalid_config',
    `${name} of task ${location.task} must be a string, a number, a list or a function`,
    {
      location: { ...location, field: name },
    },
  );
}

/**
 * The answer choices. lm-eval builds continuations with an f-string (`f"{delimiter}{choice}"`), which is
 * `str(choice)`; non-string choices are converted the same way here so callers always get strings.
 */
export function docToChoice(
  config: DocToConfig,
  doc: Doc,
  location: DocLocation,
  options: DocToOptions = {},
): string[] {
  const field = (options.field ?? config.doc_to_choice) as ChoiceField | undefined;
  const name = 'doc_to_choice';
  if (field === undefined || field === null) return missingField(name, location);
  let choices: unknown;
  if (typeof field === 'string') {
    choices = isColumn(field, doc, options.features)
      ? doc[field]
      : literal(renderTemplate(field, doc, { ...location, field: name }), location, name);
  } else if (Array.isArray(field)) choices = field;
  else if (isFunctionRef(field)) choices = callFunction(field, doc, location, name);
  else if (isDict(field)) choices = Object.values(field);
  if (!Array.isArray(choices)) {
    throw new AssayError(
      'template_error',
      `${name} of task ${location.task} must give a list for doc ${location.docId}, got ${pythonStr(choices)}`,
      { location: { ...location, field: name } },
    );
  }
  if (choices === field) return literalChoices(field);
  return choices.map((choice) => (typeof choice === 'string' ? choice : pythonStr(choice)));
}

/** A literal doc_to_choice list's strings, made once per config list: every doc has the same choices. */
const literalLists = new WeakMap<readonly unknown[], readonly string[]>();

function literalChoices(field: readonly unknown[]): string[] {
  let choices = literalLists.get(field);
  if (!choices) {
    choices = Object.freeze(field.map((choice) => (typeof choice === 'string' ? choice : pythonStr(choice))));
    literalLists.set(field, choices);
  }
  return choices as string[];
}

/** lm-eval resolves `description` and `gen_prefix` with `doc[field] if field in doc else apply_template(field, doc)`. */
export function resolveField(
  field: string | undefined,
  doc: Doc,
  location: DocLocation,
  name: string,
): string | undefined {
  if (!field) return undefined;
  if (Object.hasOwn(doc, field)) return doc[field] as string;
  return renderTemplate(field, doc, { ...location, field: name });
}
