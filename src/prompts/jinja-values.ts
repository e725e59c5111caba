/**
 * The runtime values of the template interpreter that are not Python data: StrictUndefined, callables and
 * namespaces, and the rule for printing a value (`{{ value }}` prints Python's `str(value)`).
 */
import { PythonFloat, pythonStr } from '../python/semantics/literal.js';

/** Jinja2's StrictUndefined: any use other than `is defined` or `|default` raises. */
export class Undefined {
  constructor(
    /** What was looked up: a variable name or an attribute/item. */
    readonly name: string,
    /** Jinja2's message for it. */
    readonly hint: string,
  ) {}
}

/** An error raised while evaluating a template (Jinja2's UndefinedError, TypeError, …). */
export class TemplateEvaluationError extends Error {
  constructor(
    message: string,
    readonly undefinedName?: string,
  ) {
    super(message);
    this.name = 'TemplateEvaluationError';
  }
}

/** A callable value: a bound Python method, a global function or a macro. */
export class Callable {
  constructor(
    readonly name: string,
    readonly call: (args: unknown[], kwargs: Map<string, unknown>) => unknown,
  ) {}
}

/** `namespace()`: the one mutable object Jinja2 templates may assign attributes on. */
export class Namespace {
  constructor(readonly attributes: Map<string, unknown>) {}
}

export function strictValue(value: unknown): unknown {
  if (value instanceof Undefined) throw new TemplateEvaluationError(value.hint, value.name);
  return value;
}

/** What `{{ value }}` prints: Python's `str()`. */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  strictValue(value);
  if (value instanceof Namespace) return '<Namespace>';
  if (value instanceof Callable) return `<function ${value.name}>`;
  return pythonStr(value);
}

export function makeFloat(value: number): number | PythonFloat {
  return Number.isInteger(value) ? new PythonFloat(value) : value;
}
