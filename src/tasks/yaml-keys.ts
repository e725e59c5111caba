/**
 * A few top-level keys of a YAML task file, read without building the rest of it: what the task index
 * keeps of each of the 13,879 files of lm-eval's tree (`task`, `group`, `tag`, `output_type`, `include`).
 * js-yaml builds every value of a file (prompts, metric lists, generation settings), and that building and
 * its garbage were about half of a cold `assay ls tasks`.
 *
 * Hand-written because no YAML library reads some keys and only checks the rest. It is not a YAML parser:
 * it accepts a conservative subset of block YAML (the way lm-eval's task files are written) and answers
 * `undefined` for anything outside it, and the caller then parses the file with js-yaml as before. The
 * subset leaves out, among others: tabs, CR, a BOM, control and surrogate characters; anchors, aliases,
 * tags other than `!function` and `!!null "null"`, directives and document markers; complex keys, the
 * merge key, quoted keys with escapes, and top-level plain keys other than words;
 * multi-line flow collections; explicit block-scalar indentation; a comment inside a plain scalar's
 * lines; and any line with content indented deeper than where a value ended.
 *
 * Its contract: when it answers, js-yaml (with the PyYAML schema and `json: true`, as yaml-loader.ts
 * reads files) reads the same text without error, to a mapping whose kept keys have exactly these values.
 * A kept key's value is built when it is made of block mappings (their plain keys strings to the schema,
 * and not `__proto__`) and block sequences (of these, compact mappings included), plain scalars on one line
 * (typed as the PyYAML schema types them: `True` is a boolean, `25` a number), quoted scalars on one line
 * without escapes, empty values (null), and flow sequences of strings; any other kept value (a block
 * scalar, a tag, an escape, a scalar over several lines, a flow mapping) makes it answer `undefined`.
 * Groups list their members so: a mapping per member, with its own `task` list and aggregation settings.
 * The kept keys must read as strings themselves (not `true`, `null`, `yes`): a top-level key is compared as
 * written, and js-yaml would type such a key before making it a string. Checked by yaml-keys.test.ts (texts in
 * lm-eval's shapes, assay's task folder, each rule, seeded mutations) and by bench/yaml-keys.ts on every
 * file of a task tree (lm-eval's) and seeded mutations of each.
 */

import { isImplicitString, plainValue } from './pyyaml-schema.js';

/** Thrown (one instance) when the text leaves the subset; caught at the top. */
const OUTSIDE = new Error('outside the subset');

const SPACE = 32;
const NEWLINE = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const DOUBLE = 34;
const SINGLE = 39;
const BACKSLASH = 92;

/** Characters the subset refuses anywhere (js-yaml's non-printable set, tabs, CR, NEL and the Unicode line breaks, BOM, any surrogate). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the subset refuses.
const REFUSED = /[\x00-\x09\x0B-\x1F\x7F-\x9F\u2028\u2029\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/;
/**
 * The longest stretch of a double-quoted scalar's line that is text or escapes js-yaml knows (a backslash
 * and one of `0abtnvfre "/\N_LP`, or `x`, `u`, `U` and 2, 4 or 8 hex digits), matched by the regular
 * expression engine: lm-eval's prompts hold 234,000 escapes, each a turn of a loop in JavaScript before.
 */
const DOUBLE_QUOTED_RUN =
  /(?:[^"\\\n]+|\\[0abtnvfre "/\\N_LP]|\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*/y;

let source = '';
let end = 0;
/** The start of the line being read. */
let cursor = 0;
let kept: ReadonlySet<string> = new Set();
/**
 * The kept keys as a list: a top-level key's text is compared with each in place, where slicing it out of
 * the text to ask the set made (and hashed) a string for each of the 250,000 keys of lm-eval's tree.
 */
let keptList: readonly string[] = [];

/** The kept key written from `start` to `stop`, if the text there is one. */
function keptKey(start: number, stop: number): string | undefined {
  const length = stop - start;
  for (let index = 0; index < keptList.length; index++) {
    const key = keptList[index];
    if (key.length === length && source.startsWith(key, start)) return key;
  }
  return undefined;
}

// The next occurrence of a character at or after a position, found with indexOf and kept: the reader moves
// forward through the text, so each character's search resumes where it found the last one instead of
// scanning the same stretch again (a long prompt is scanned once, not once per character).
const foundAt = new Int32Array(128);
const searchedFrom = new Int32Array(128);

function next(code: number, from: number): number {
  if (from >= searchedFrom[code] && from <= foundAt[code]) return foundAt[code];
  const found = source.indexOf(String.fromCharCode(code), from);
  searchedFrom[code] = from;
  foundAt[code] = found < 0 ? end : found;
  return foundAt[code];
}

function isKeyStart(ch: number): boolean {
  return (ch >= 97 && ch <= 122) || (ch >= 65 && ch <= 90) || ch === 95;
}

function isKeyChar(ch: number): boolean {
  return isKeyStart(ch) || (ch >= 48 && ch <= 57) || ch === 46 || ch === DASH;
}

/** A character a plain scalar in a flow collection may hold (conservative). */
function isFlowPlainChar(ch: number): boolean {
  return isKeyChar(ch) || ch === 47 || ch === 43;
}

/**
 * A kept value's text, copied out of the file's text. A slice of a string is, in V8, a view that keeps the
 * whole string alive: the index keeps task names for the whole command, and slices would keep all 7 MB of
 * lm-eval's task files with them, for the garbage collector to copy. Slicing a concatenation copies the
 * characters into a string of their own first (a property key would too, at the cost of a hidden class
 * per name).
 */
function own(text: string): string {
  return ` ${text}`.slice(1);
}

function lineEnd(at: number): number {
  const found = source.indexOf('\n', at);
  return found < 0 ? end : found;
}

function spacesFrom(at: number): number {
  let i = at;
  while (source.charCodeAt(i) === SPACE) i++;
  return i;
}

/** A line break or the end of the text. */
function isBreak(at: number): boolean {
  return at >= end || source.charCodeAt(at) === NEWLINE;
}

/**
 * Moves `cursor` to the next line with content (not blank, not a comment) and returns its indentation, or -1
 * at the end of the text.
 */
function nextContentLine(): number {
  while (cursor < end) {
    const first = spacesFrom(cursor);
    if (first < end) {
      const ch = source.charCodeAt(first);
      if (ch !== NEWLINE && ch !== HASH) return first - cursor;
    }
    cursor = lineEnd(first) + 1;
  }
  cursor = end;
  return -1;
}

/** The rest of a line after a value: spaces, then a comment or the line's end. Moves `cursor` past the line. */
function finishLine(at: number): void {
  const i = spacesFrom(at);
  if (!isBreak(i) && (source.charCodeAt(i) !== HASH || i === at)) throw OUTSIDE;
  cursor = lineEnd(i) + 1;
}

/**
 * Where the key at `at` ends: the index of its `:`, which a space or the line's end follows; -1 when there
 * is no key there in the subset. A key is quoted on one line without escapes or doubled quotes, or plain:
 * at the top level `[A-Za-z_][A-Za-z0-9_.-]*` (its text is compared with the kept keys), deeper any plain
 * scalar on one line without a comment, not ending in a space, and not the merge key `<<`.
 */
function keyEnd(at: number, top = true): number {
  if (!top && source.charCodeAt(at) !== DOUBLE && source.charCodeAt(at) !== SINGLE) return nestedKeyEnd(at);
  const first = source.charCodeAt(at);
  let i: number;
  if (first === DOUBLE || first === SINGLE) {
    const close = source.indexOf(source[at] as string, at + 1);
    if (close < 0 || source.charCodeAt(close + 1) === first) return -1;
    for (let j = at + 1; j < close; j++) {
      const ch = source.charCodeAt(j);
      if (ch === NEWLINE || ch === BACKSLASH) return -1;
    }
    i = close + 1;
  } else {
    if (!isKeyStart(first)) return -1;
    i = at + 1;
    while (isKeyChar(source.charCodeAt(i))) i++;
  }
  if (source.charCodeAt(i) !== COLON || i - at > 1000) return -1;
  return source.charCodeAt(i + 1) === SPACE || isBreak(i + 1) ? i : -1;
}

function nestedKeyEnd(at: number): number {
  if (isBreak(at) || !startsPlain(at)) return -1;
  const stop = lineEnd(at);
  for (let colon = next(COLON, at); colon < stop; colon = next(COLON, colon + 1)) {
    if (colon + 1 !== stop && source.charCodeAt(colon + 1) !== SPACE) continue;
    const comment = next(HASH, at);
    for (let hash = comment; hash < colon; hash = next(HASH, hash + 1))
      if (source.charCodeAt(hash - 1) === SPACE) return -1;
    if (source.charCodeAt(colon - 1) === SPACE || colon - at > 1000) return -1;
    if (colon - at === 2 && source.startsWith('<<', at)) return -1;
    return colon;
  }
  return -1;
}

/** The text of the key from `at` to its `:`. */
function keyText(at: number, colon: number): string {
  const first = source.charCodeAt(at);
  return first === DOUBLE || first === SINGLE ? source.slice(at + 1, colon - 1) : source.slice(at, colon);
}

/** Whether the content at `at` is a block sequence entry (`-` then a space or the line's end). */
function isEntry(at: number): boolean {
  return source.charCodeAt(at) === DASH && (source.charCodeAt(at + 1) === SPACE || isBreak(at + 1));
}

/**
 * Collections nest at most this deep. js-yaml refuses more than 100 levels (a compact mapping in a sequence
 * entry counts twice), and the reader recurses: a deeper text would exhaust its stack.
 */
const MAX_DEPTH = 40;
let depth = 0;

function enter(): void {
  if (++depth > MAX_DEPTH) throw OUTSIDE;
}

/**
 * A block mapping whose keys are at `column`, its first key at `first`. `into`: where its entries go, the
 * kept keys' of the top level (`whole` false), or every entry of a kept value (`whole`); absent: it is
 * only checked.
 */
function mapping(column: number, first: number, into?: Record<string, unknown>, whole = false): void {
  enter();
  mappingEntries(column, first, into, whole);
  depth--;
}

function mappingEntries(
  column: number,
  first: number,
  into: Record<string, unknown> | undefined,
  whole: boolean,
): void {
  entry(first, column, into, whole);
  for (;;) {
    const indent = nextContentLine();
    if (indent < column) return;
    if (indent > column || isEntry(cursor + indent)) throw OUTSIDE;
    entry(cursor + indent, column, into, whole);
  }
}

function entry(at: number, column: number, into: Record<string, unknown> | undefined, whole: boolean): void {
  const colon = keyEnd(at, into !== undefined && !whole);
  if (colon < 0) throw OUTSIDE;
  let key: string | undefined;
  let spanKey: string | undefined;
  if (into !== undefined) {
    const first = source.charCodeAt(at);
    const quotedKey = first === DOUBLE || first === SINGLE;
    if (!whole && spansInto !== undefined) {
      // Every top-level key, named as js-yaml names it: a quoted key (one line, no escape) is its text, a
      // plain one must read as a string.
      spanKey = keyText(at, colon);
      if ((!quotedKey && !isImplicitString(spanKey)) || spanKey === '__proto__') throw OUTSIDE;
    }
    if (whole) {
      // js-yaml types a plain key as it types a value, then makes it a string: only a key that reads as
      // a string is in the subset. `__proto__` would set the object's prototype here, where js-yaml
      // defines a property.
      key = keyText(at, colon);
      if ((!quotedKey && !isImplicitString(key)) || key === '__proto__') throw OUTSIDE;
      key = own(key);
    } else key = quotedKey ? keptKey(at + 1, colon - 1) : keptKey(at, colon);
  }
  const start = spacesFrom(colon + 1);
  const result = value(start, column, key !== undefined, true);
  // A later duplicate key replaces the earlier one, as js-yaml's `json` option has it.
  if (key !== undefined) (into as Record<string, unknown>)[key] = result;
  if (spanKey !== undefined) (spansInto as Map<string, string>).set(spanKey, source.slice(start, cursor));
}

/**
 * The value starting at `at` (after `key: ` or `- `), owned by a node at indentation `parent`.
 * `inMapping`: a block sequence at the parent's own indentation is the value (YAML allows it for keys).
 */
function value(at: number, parent: number, keep: boolean, inMapping: boolean): unknown {
  if (isBreak(at) || source.charCodeAt(at) === HASH) {
    cursor = lineEnd(at) + 1;
    return blockNode(parent, keep, inMapping);
  }
  switch (source.charCodeAt(at)) {
    case DOUBLE:
    case SINGLE:
      return quotedValue(at, keep);
    case 124: // |
    case 62: // >
      if (keep) throw OUTSIDE;
      blockScalar(at, parent);
      return undefined;
    case 91: // [
    case 123: {
      // {
      const after = flow(at, keep);
      const result = flowList;
      finishLine(after);
      return result;
    }
    case 33: // !
      if (keep) throw OUTSIDE;
      if (source.startsWith('!function ', at)) functionTag(spacesFrom(at + 10), parent);
      else if (source.startsWith('!!null ', at)) nullTag(spacesFrom(at + 7));
      else throw OUTSIDE;
      return undefined;
    default:
      return plain(at, parent, keep);
  }
}

/** After an empty value: a nested block collection, a scalar on the next lines, or null. */
function blockNode(parent: number, keep: boolean, inMapping: boolean): unknown {
  const indent = nextContentLine();
  // An empty sequence entry is outside the subset: after one, js-yaml 4 takes a less indented entry into
  // the inner sequence (`-` then `  -` then `- b` reads as [[null, "b"]]), where YAML ends it.
  if (indent < parent) {
    if (!inMapping) throw OUTSIDE;
    return null;
  }
  const at = cursor + indent;
  if (indent === parent) {
    if (inMapping && isEntry(at)) return sequence(indent, keep);
    if (!inMapping) throw OUTSIDE;
    return null;
  }
  if (isEntry(at)) return sequence(indent, keep);
  if (keyEnd(at, false) >= 0) {
    const built = keep ? {} : undefined;
    mapping(indent, at, built, true);
    return built;
  }
  // A scalar on the line after its key.
  const first = source.charCodeAt(at);
  if (first === DOUBLE || first === SINGLE) return quotedValue(at, keep);
  return plain(at, parent, keep);
}

function sequence(column: number, keep: boolean): unknown[] | undefined {
  enter();
  const items = sequenceEntries(column, keep);
  depth--;
  return items;
}

function sequenceEntries(column: number, keep: boolean): unknown[] | undefined {
  const items: unknown[] | undefined = keep ? [] : undefined;
  for (;;) {
    const at = spacesFrom(cursor + column + 1);
    let item: unknown;
    if (isBreak(at) || source.charCodeAt(at) === HASH) {
      cursor = lineEnd(at) + 1;
      item = blockNode(column, keep, false);
    } else if (isEntry(at)) {
      throw OUTSIDE; // a sequence in a sequence, on one line
    } else if (keyEnd(at, false) >= 0) {
      // A mapping in the entry, its first key on the entry's line.
      item = keep ? {} : undefined;
      mapping(at - cursor, at, item as Record<string, unknown> | undefined, true);
    } else {
      item = value(at, column, keep, false);
    }
    if (items) items.push(item);
    const indent = nextContentLine();
    if (indent < column) return items;
    if (indent > column) throw OUTSIDE;
    if (!isEntry(cursor + indent)) return items;
  }
}

/** Whether a plain scalar may start with the character at `at` (indicators; `-` only before a non-space). */
const INDICATORS = new Uint8Array(128);
for (const indicator of ',[]{}#&*!|>\'"%@`?:') INDICATORS[indicator.charCodeAt(0)] = 1;

function startsPlain(at: number): boolean {
  const ch = source.charCodeAt(at);
  if (ch < 128 && INDICATORS[ch] === 1) return false;
  return !(ch === DASH && (source.charCodeAt(at + 1) === SPACE || isBreak(at + 1)));
}

/** One line of a plain scalar, from `at` to `stop`: where its comment starts (or `stop`); refuses `: `. */
function plainLine(at: number, stop: number): number {
  let comment = next(HASH, at);
  while (comment < stop && source.charCodeAt(comment - 1) !== SPACE) comment = next(HASH, comment + 1);
  if (comment > stop) comment = stop;
  for (let colon = next(COLON, at); colon < comment; colon = next(COLON, colon + 1)) {
    if (colon + 1 === stop || source.charCodeAt(colon + 1) === SPACE) throw OUTSIDE;
  }
  return comment;
}

/**
 * A plain scalar, owned by a node at indentation `parent`: its first line, then the lines indented deeper
 * than `parent` that continue it (none after a comment).
 */
function plain(at: number, parent: number, keep: boolean): unknown {
  if (!startsPlain(at)) throw OUTSIDE;
  let stop = lineEnd(at);
  let last = plainLine(at + 1, stop);
  const firstStop = stop;
  cursor = stop + 1;
  while (last === stop) {
    let line = cursor;
    let first = spacesFrom(line);
    while (first < end && source.charCodeAt(first) === NEWLINE) {
      line = first + 1;
      first = spacesFrom(line);
    }
    if (first >= end || first - line <= parent) break;
    stop = lineEnd(first);
    last = plainLine(first, stop);
    if (last !== stop) throw OUTSIDE; // a comment on a continuation line
    cursor = stop + 1;
  }
  if (!keep) return undefined;
  if (stop !== firstStop) throw OUTSIDE;
  while (source.charCodeAt(last - 1) === SPACE) last--;
  const text = source.slice(at, last);
  const typed = plainValue(text);
  if (typed === undefined) throw OUTSIDE;
  return typed === text ? own(text) : typed;
}

/** `!function` and its scalar. */
function functionTag(at: number, parent: number): void {
  if (isBreak(at)) throw OUTSIDE; // the scalar on the next line (not in the subset)
  const ch = source.charCodeAt(at);
  if (ch === DOUBLE || ch === SINGLE) quotedValue(at, false);
  else plain(at, parent, false);
}

/** `!!null` and a quoted null word on one line (`!!null "null"`, as some generated task files write). */
function nullTag(at: number): void {
  const quote = source.charCodeAt(at);
  if (quote !== DOUBLE && quote !== SINGLE) throw OUTSIDE;
  const close = source.indexOf(source[at] as string, at + 1);
  if (close < 0 || !/^(?:~|null|Null|NULL|)$/.test(source.slice(at + 1, close))) throw OUTSIDE;
  finishLine(close + 1);
}

/**
 * The start of a quoted scalar's continuation line at `at`: a document marker (`---` or `...` at the line's
 * start) would end the document inside the scalar, which js-yaml refuses.
 */
function continuation(at: number): void {
  if (at >= end) throw OUTSIDE;
  if (source.startsWith('---', at) || source.startsWith('...', at)) throw OUTSIDE;
}

/**
 * What `quoted` and `flow` read last, when kept: the index after a scalar or collection is their return
 * value, and its content is left here, where a pair returned per scalar would allocate one (about 7 MB of
 * them over lm-eval's tree, for the garbage collector).
 */
let quotedText: string | undefined;
let flowList: unknown[] | undefined;
/** Where `readTopKeys` puts each top-level value's text, when asked. */
let spansInto: Map<string, string> | undefined;

/**
 * A quoted scalar, from its opening quote at `open`: the index after its closing quote and, when kept, its
 * text in `quotedText` (kept only on one line, without escapes or doubled quotes). `oneLine` (in a flow
 * collection): a line break inside is outside the subset; else the scalar goes on over lines, none a
 * document marker.
 */
function quoted(open: number, keep: boolean, oneLine: boolean): number {
  const quote = source.charCodeAt(open);
  let i = open + 1;
  for (;;) {
    if (quote === DOUBLE) {
      DOUBLE_QUOTED_RUN.lastIndex = i;
      try {
        DOUBLE_QUOTED_RUN.test(source);
      } catch {
        // Millions of escapes in one scalar exhaust the engine's backtracking stack (a RangeError).
        throw OUTSIDE;
      }
      i = DOUBLE_QUOTED_RUN.lastIndex;
    } else i = Math.min(next(SINGLE, i), next(NEWLINE, i));
    if (i >= end) throw OUTSIDE;
    const ch = source.charCodeAt(i);
    if (ch === quote) {
      if (quote === DOUBLE || source.charCodeAt(i + 1) !== SINGLE) break;
      i += 2; // a doubled single quote
    } else if (ch === NEWLINE || (ch === BACKSLASH && source.charCodeAt(i + 1) === NEWLINE)) {
      // A line break, or an escaped one.
      if (oneLine) throw OUTSIDE;
      i += ch === NEWLINE ? 1 : 2;
      continuation(i);
    } else throw OUTSIDE; // an escape js-yaml does not know
  }
  quotedText = undefined;
  if (!keep) return i + 1;
  const text = source.slice(open + 1, i);
  // Kept only without escapes, line breaks or doubled quotes: as written, it is its value.
  if (text.includes('\n') || text.includes(quote === DOUBLE ? '\\' : "''")) throw OUTSIDE;
  quotedText = own(text);
  return i + 1;
}

/** A quoted scalar as a block value: nothing but a comment may follow it on its last line. */
function quotedValue(open: number, keep: boolean): string | undefined {
  const after = quoted(open, keep, false);
  const text = quotedText;
  finishLine(after);
  return text;
}

/**
 * A block scalar (`|` or `>`, with an optional chomping indicator), owned by a node at indentation
 * `parent`: its lines are those indented deeper than the first non-blank one's indentation allows.
 */
function blockScalar(at: number, parent: number): void {
  let i = at + 1;
  const indicator = source.charCodeAt(i);
  if (indicator === 43 || indicator === DASH) i++;
  finishLine(i);
  let deepestBlank = 0;
  let indent = -1;
  while (cursor < end) {
    const first = spacesFrom(cursor);
    const width = first - cursor;
    if (isBreak(first)) {
      if (indent < 0 && width > deepestBlank) deepestBlank = width;
    } else if (indent < 0) {
      // js-yaml takes leading blank lines' spaces as the indentation too: deeper ones would end the scalar.
      if (width <= parent || width < deepestBlank) throw OUTSIDE;
      indent = width;
    } else if (width < indent) {
      if (width > parent) throw OUTSIDE;
      return;
    }
    cursor = lineEnd(first) + 1;
  }
  if (indent < 0) throw OUTSIDE;
}

/** A flow collection on one line; returns the index after it and, when kept, leaves its strings in `flowList`. */
function flow(open: number, keep: boolean): number {
  enter();
  const after = flowItems(open, keep);
  depth--;
  return after;
}

function flowItems(open: number, keep: boolean): number {
  const mappingClose = source.charCodeAt(open) === 123;
  if (keep && mappingClose) throw OUTSIDE;
  const close = mappingClose ? 125 : 93;
  const items: unknown[] | undefined = keep ? [] : undefined;
  let i = spacesFrom(open + 1);
  if (source.charCodeAt(i) === close) {
    flowList = items;
    return i + 1;
  }
  for (;;) {
    if (mappingClose) {
      if (source.charCodeAt(i) === DOUBLE || source.charCodeAt(i) === SINGLE) i = quoted(i, false, true);
      else {
        if (!isKeyStart(source.charCodeAt(i))) throw OUTSIDE;
        while (isKeyChar(source.charCodeAt(i))) i++;
      }
      if (source.charCodeAt(i) !== COLON || source.charCodeAt(i + 1) !== SPACE) throw OUTSIDE;
      i = spacesFrom(i + 1);
    }
    const ch = source.charCodeAt(i);
    if (ch === DOUBLE || ch === SINGLE) {
      i = quoted(i, keep, true);
      if (items) items.push(quotedText);
    } else if (ch === 91 || ch === 123) {
      if (keep) throw OUTSIDE;
      i = flow(i, false);
    } else {
      const start = i;
      if (!isKeyChar(ch) || ch === DASH || ch === 46) throw OUTSIDE;
      while (isFlowPlainChar(source.charCodeAt(i))) i++;
      if (items) {
        const text = source.slice(start, i);
        if (!isImplicitString(text)) throw OUTSIDE;
        items.push(own(text));
      }
    }
    i = spacesFrom(i);
    const next = source.charCodeAt(i);
    if (next === close) {
      flowList = items;
      return i + 1;
    }
    if (next !== 44) throw OUTSIDE; // ,
    i = spacesFrom(i + 1);
    if (source.charCodeAt(i) === close) throw OUTSIDE; // a trailing comma
  }
}

/**
 * The values of the `keys` present at the top level of `text` (a key absent from the file is absent from
 * the answer), or undefined when the text is outside the subset this reader vouches for. With `spans`,
 * every top-level key's value is also put there (when it answers) as written: its text from after `key: ` to the start of
 * the next line the value does not take (blank and comment lines before it included), a later duplicate
 * key's over an earlier one's, in the order js-yaml gives the keys. The subset has no anchors, aliases
 * or tags but `!function` and `!!null`, so two values written alike are alike (config-compare.ts).
 */
export function readTopKeys(
  text: string,
  keys: ReadonlySet<string>,
  spans?: Map<string, string>,
): Record<string, unknown> | undefined {
  if (REFUSED.test(text)) return undefined;
  source = text;
  end = text.length;
  cursor = 0;
  // The list is made again for another set, or for this one grown or shrunk since (the loader passes one
  // set, never changed, for every file).
  if (kept !== keys || keptList.length !== keys.size) {
    for (const key of keys) {
      if (!isImplicitString(key)) throw new TypeError(`readTopKeys: the kept key ${key} reads as no string`);
    }
    kept = keys;
    keptList = [...keys];
  }
  searchedFrom.fill(0x7fffffff);
  depth = 0;
  spansInto = spans;
  try {
    if (nextContentLine() !== 0) return undefined;
    const top: Record<string, unknown> = {};
    mapping(0, cursor, top);
    return cursor >= end ? top : undefined;
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  } finally {
    source = '';
    quotedText = undefined;
    flowList = undefined;
    spansInto = undefined;
  }
}
