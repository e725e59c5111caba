/**
 * Jinja2's attribute and item lookup (`obj.name`, `obj[key]`) over Python values: Jinja2's getattr
 * tries the Python attribute before the item for `.`, and the item before the attribute for `[]`.
 * The methods themselves are Python's (python/semantics/methods.ts); here they become template
 * callables whose Python exceptions surface as template errors with Python's messages.
 */

import { PythonError } from '../python/semantics/errors.js';
import { pythonStr } from '../python/semantics/literal.js';
import { pythonMethod } from '../python/semantics/methods.js';
import { characters } from '../python/semantics/string.js';
import { dictGet, isDict, pythonIndex, typeName } from '../python/semantics/values.js';
import { Callable, renderValue, strictValue, TemplateEvaluationError, Undefined } from './jinja-values.js';

/** Python's `getattr(value, name)` as a template callable, or undefined when the type has no such attribute. */
function pythonAttribute(value: unknown, name: string): Callable | undefined {
  const method = pythonMethod(value, name, renderValue);
  if (method === undefined) return undefined;
  if (typeof method !== 'function') {
    const owner = method.unsupported;
    return new Callable(name, () => {
      throw new TemplateEvaluationError(`${owner}.${name}() is not supported by assay's template engine`);
    });
  }
  return new Callable(name, (args, kwargs) => {
    try {
      return method(args, kwargs);
    } catch (error) {
      if (error instanceof PythonError) throw new TemplateEvaluationError(error.message);
      throw error;
    }
  });
}

function describe(value: unknown): string {
  return `'${typeName(value)} object'`;
}

/** Python's `value[key]`, or not found when it raises a LookupError/TypeError. */
function pythonItem(value: unknown, key: unknown): { found: boolean; value?: unknown } {
  if (isDict(value)) return dictGet(value, key);
  if (
    (typeof value === 'string' || Array.isArray(value)) &&
    (typeof key === 'number' || typeof key === 'boolean')
  ) {
    const index = Number(key);
    if (!Number.isInteger(index)) return { found: false };
    const items = typeof value === 'string' ? characters(value) : value;
    const item = pythonIndex(items, index);
    return item === undefined && (index >= items.length || index < -items.length)
      ? { found: false }
      : { found: true, value: item };
  }
  return { found: false };
}

/** Jinja2's `obj.name`: Python attribute first, then `obj['name']`. */
export function getAttribute(value: unknown, name: string): unknown {
  strictValue(value);
  const attribute = pythonAttribute(value, name);
  if (attribute) return attribute;
  const item = pythonItem(value, name);
  if (item.found) return item.value;
  return new Undefined(name, `${describe(value)} has no attribute '${name}'`);
}

/** Jinja2's `obj[key]`: the item first, then (for a string key) the attribute. */
export function getItem(value: unknown, key: unknown): unknown {
  strictValue(value);
  const item = pythonItem(value, key);
  if (item.found) return item.value;
  if (typeof key === 'string') {
    const attribute = pythonAttribute(value, key);
    if (attribute) return attribute;
    return new Undefined(key, `${describe(value)} has no attribute '${key}'`);
  }
  const label =
    typeof value === 'string' || Array.isArray(value) ? `${typeName(value)} object` : describe(value);
  return new Undefined(String(key), `${label} has no element ${pythonStr(key)}`);
}
