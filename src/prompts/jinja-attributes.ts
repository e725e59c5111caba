/**
 * Jinja2's attribute and item lookup (`obj.name`, `obj[key]`) over Python values: Jinja2's getattr
 * tries the Python attribute before the item for `.`, and the item before the attribute for `[]`.
 * The methods themselves are Python's (python/semantics/methods.ts); here they become template
 * callables whose Python exceptions surface as template errors with Python's messages.
 */

import { PythonError } from '../python/semantics/errors.js';
import { pythonStr } from '../python/semantics/literal.js';
import { pythonMethod } from '../python/semantics/methods.js';
import { characterAt } from '../python/semantics/string.js';
import { dictLookup, isDict, pythonPosition, typeName } from '../python/semantics/values.js';
import { Callable, renderValue, strictValue, TemplateEvaluationError, Undefined } from './jinja-values.js';

/** Python's `getattr(value, name)` as a template callable, or undefined when the type has no such attribute. */
function pythonAttribute(value: unknown, name: string): Callable | undefined {
  const method = pythonMethod(value, name);
  if (method === undefined) return undefined;
  if (typeof method !== 'function') {
    const owner = method.unsupported;
    return new Callable(name, () => {
      throw new TemplateEvaluationError(`${owner}.${name}() is not supported by assay's template engine`);
    });
  }
  return new Callable(name, (args, kwargs) => {
    try {
      return method(value as never, args, kwargs, renderValue);
    } catch (error) {
      if (error instanceof PythonError) throw new TemplateEvaluationError(error.message);
      throw error;
    }
  });
}

function describe(value: unknown): string {
  return `'${typeName(value)} object'`;
}

/** What `pythonItem` returns where Python raises a LookupError/TypeError. */
const NOT_FOUND = Symbol('not found');

/** Python's `value[key]`, or NOT_FOUND when it raises a LookupError/TypeError. */
function pythonItem(value: unknown, key: unknown): unknown {
  if (isDict(value)) return dictLookup(value, key, NOT_FOUND);
  if (
    (typeof value === 'string' || Array.isArray(value)) &&
    (typeof key === 'number' || typeof key === 'boolean')
  ) {
    const index = Number(key);
    if (!Number.isInteger(index)) return NOT_FOUND;
    if (typeof value === 'string') return characterAt(value, index) ?? NOT_FOUND;
    const position = pythonPosition(value.length, index);
    return position === undefined ? NOT_FOUND : value[position];
  }
  return NOT_FOUND;
}

/** Jinja2's `obj.name`: Python attribute first, then `obj['name']`. */
export function getAttribute(value: unknown, name: string): unknown {
  strictValue(value);
  const attribute = pythonAttribute(value, name);
  if (attribute) return attribute;
  const item = pythonItem(value, name);
  if (item !== NOT_FOUND) return item;
  return new Undefined(name, `${describe(value)} has no attribute '${name}'`);
}

/** Jinja2's `obj[key]`: the item first, then (for a string key) the attribute. */
export function getItem(value: unknown, key: unknown): unknown {
  strictValue(value);
  const item = pythonItem(value, key);
  if (item !== NOT_FOUND) return item;
  if (typeof key === 'string') {
    const attribute = pythonAttribute(value, key);
    if (attribute) return attribute;
    return new Undefined(key, `${describe(value)} has no attribute '${key}'`);
  }
  const label =
    typeof value === 'string' || Array.isArray(value) ? `${typeName(value)} object` : describe(value);
  return new Undefined(String(key), `${label} has no element ${pythonStr(key)}`);
}
