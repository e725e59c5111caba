/**
 * JSON text read as Python's json module reads it: a number written with a fraction or an exponent
 * (`18.0`, `1e3`) is a float, one written without is an int. JSON.parse gives both as the same JS
 * number, so `18.0` would print as `18` in a template and in json.dumps. Here a float with an integral
 * value becomes a `PythonFloat`; other numbers stay JS numbers (a non-integral number is a float anyway).
 *
 * Hand-written because Node 20's JSON.parse has no access to a number's source text (the reviver's
 * `context.source` came with V8 11.4, Node 21). The text is parsed by JSON.parse all the same: float
 * tokens outside strings are first wrapped as one-key objects under a key the text does not contain,
 * then unwrapped. Text without a digit followed by `.`, `e` or `E` is parsed as it is.
 */
import { PythonFloat } from './literal.js';

const FLOATISH = /\d[.eE]/;

/** The marker key: NUL then a letter, plus a suffix if the text happens to contain that escape already. */
function markerFor(text: string): string {
  let marker = '\\u0000f';
  while (text.includes(marker)) marker += 'f';
  return marker;
}

/**
 * `text` with each float token outside strings wrapped as `{"<marker>":<token>}`, or undefined when it
 * has none. A scan by character codes that jumps over strings with indexOf (a regex with a callback
 * per string token costs several times more on text that is mostly strings).
 */
function wrapFloats(text: string, marker: string): string | undefined {
  let parts: string[] | undefined;
  let last = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === 34 /* " */) {
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return undefined; // unterminated: JSON.parse reports it on the text as written
        let slash = end - 1;
        while (text.charCodeAt(slash) === 92 /* \ */) slash--;
        if ((end - 1 - slash) % 2 === 0) break;
      }
      i = end + 1;
    } else if (code === 45 /* - */ || (code >= 48 && code <= 57)) {
      let end = i + 1;
      let float = false;
      while (end < length) {
        const next = text.charCodeAt(end);
        if ((next >= 48 && next <= 57) || next === 43 || next === 45) end++;
        else if (next === 46 || next === 101 || next === 69) {
          float = true;
          end++;
        } else break;
      }
      if (float) {
        parts ??= [];
        parts.push(text.slice(last, i), `{"${marker}":`, text.slice(i, end), '}');
        last = end;
      }
      i = end;
    } else i++;
  }
  if (!parts) return undefined;
  parts.push(text.slice(last));
  return parts.join('');
}

function asFloat(value: number): number | PythonFloat {
  return Number.isInteger(value) ? new PythonFloat(value) : value;
}

/** Replaces the marker objects in place (the parse's own fresh objects), returning the value. */
function unwrap(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item !== null && typeof item === 'object') value[i] = unwrap(item, key);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const inner = record[key];
  if (typeof inner === 'number') {
    let keys = 0;
    for (const _ in record) keys++;
    if (keys === 1) return asFloat(inner);
  }
  for (const name in record) {
    const item = record[name];
    if (item !== null && typeof item === 'object') record[name] = unwrap(item, key);
  }
  return record;
}

/**
 * Text with its float tokens wrapped, for a caller that parses it in pieces (JSON lines: one scan of the
 * file, then a parse per line). Lines keep their places: nothing is added across a newline. `key` is the
 * marker key as JSON.parse gives it, for `unwrapFloats`; `marker` its JSON spelling, to tell which pieces
 * hold one.
 */
export interface WrappedFloats {
  text: string;
  marker: string;
  key: string;
}

export function wrapFloatTokens(text: string): WrappedFloats | undefined {
  if (!FLOATISH.test(text)) return undefined;
  const marker = markerFor(text);
  const wrapped = wrapFloats(text, marker);
  if (wrapped === undefined) return undefined;
  return { text: wrapped, marker, key: JSON.parse(`"${marker}"`) as string };
}

/** A value parsed from wrapped text, with its marker objects turned back into floats (changed in place). */
export function unwrapFloats(value: unknown, key: string): unknown {
  return unwrap(value, key);
}

/** JSON.parse, with Python's int/float distinction kept (integral floats as PythonFloat). */
export function parseJsonKeepingFloats(text: string): unknown {
  const wrapped = wrapFloatTokens(text);
  if (wrapped === undefined) return JSON.parse(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(wrapped.text);
  } catch {
    // Invalid JSON: the error (and its position) of the text as written.
    return JSON.parse(text);
  }
  return unwrap(parsed, wrapped.key);
}
