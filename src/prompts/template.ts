/**
 * `renderTemplate`: lm-eval's `utils.apply_template(template, doc)`, i.e. Jinja2 with
 * `Environment(undefined=StrictUndefined, keep_trailing_newline=True)` plus the `regex_replace` filter,
 * rendering `template.render(**doc)`. Values print as Python prints them (see jinja-interpreter.ts).
 */
import { parse, tokenize } from '@huggingface/jinja';
import { AssayError } from '../errors.js';
import { JinjaInterpreter } from './jinja-interpreter.js';
import { TemplateEvaluationError } from './jinja-values.js';

/** Where a template is rendered, for error messages: the task, the doc and the config field. */
export interface TemplateLocation {
  task: string;
  docId: number | string;
  /** The config field the template came from, e.g. `doc_to_text`. */
  field: string;
}

type Program = ReturnType<typeof parse>;

// Compiled once per source: a task renders the same few templates for every doc.
const compiled = new Map<string, Program | AssayError>();
/**
 * Programs of text and comments only (a description without `{{ }}`): what they render, worked out once.
 * Such a template renders the same for every doc, so the interpreter is not run per doc.
 */
const constants = new WeakMap<Program, string | null>();
const interpreter = new JinjaInterpreter();

/** The text a program renders whatever the doc, or null when it reads the doc. */
function constantText(program: Program): string | null {
  let known = constants.get(program);
  if (known === undefined) {
    known = '';
    for (const node of program.body as Array<{ type: string; value?: unknown }>) {
      if (node.type === 'Comment') continue;
      if (node.type !== 'StringLiteral' || typeof node.value !== 'string') {
        known = null;
        break;
      }
      known += node.value;
    }
    constants.set(program, known);
  }
  return known;
}

function compile(source: string, location: TemplateLocation): Program {
  let program = compiled.get(source);
  if (program === undefined) {
    try {
      const tokens = tokenize(encodeIdentifiers(prepareSource(source)), {
        lstrip_blocks: false,
        trim_blocks: false,
      });
      for (const token of tokens) {
        if (token.type === 'Identifier' && token.value.includes(ENCODED))
          token.value = decodeIdentifier(token.value);
      }
      program = parse(tokens);
    } catch (error) {
      program = new AssayError('template_error', `invalid Jinja template: ${(error as Error).message}`, {
        cause: error,
      });
    }
    compiled.set(source, program);
  }
  if (program instanceof AssayError) {
    throw new AssayError(
      'template_error',
      `${program.message} in ${location.field} of task ${location.task}`,
      {
        location: { task: location.task, docId: location.docId, field: location.field },
        cause: program.cause,
      },
    );
  }
  return program;
}

/**
 * Adapts the source to the @huggingface/jinja lexer so that it tokenizes as Jinja2 would:
 * - Jinja2 turns `\r\n` and `\r` into `\n` (its default newline_sequence) in text and string literals.
 * - The lexer always drops one trailing newline (Jinja2's default); lm-eval sets keep_trailing_newline,
 *   so a final `\n` is protected by an empty comment after it.
 */
function prepareSource(source: string): string {
  const normalized = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  return normalized.endsWith('\n') ? `${normalized}{##}` : normalized;
}

/**
 * Jinja2 names are Python identifiers, so `{{0 if Avaliación == 0 else 1}}` (galician_bench's
 * parafrases_gl) reads the doc field `Avaliación`; the @huggingface/jinja lexer takes ASCII word
 * characters only. Inside `{{ }}` and `{% %}` (outside string literals and comments), each non-ASCII
 * identifier character is spelled in ASCII before lexing, and identifier tokens are decoded after.
 */
const ENCODED = '__assay_u';
const IDENTIFIER_CHARACTER = /[\p{ID_Continue}]/u;

function encodeIdentifiers(source: string): string {
  if (!/[^\p{ASCII}]/u.test(source)) return source;
  let out = '';
  let position = 0;
  while (position < source.length) {
    const open = source.indexOf('{', position);
    if (open < 0 || open === source.length - 1) break;
    const kind = source[open + 1];
    if (kind !== '{' && kind !== '%' && kind !== '#') {
      out += source.slice(position, open + 1);
      position = open + 1;
      continue;
    }
    const close = kind === '{' ? '}}' : kind === '%' ? '%}' : '#}';
    out += source.slice(position, open + 2);
    let cursor = open + 2;
    let quote: string | undefined;
    while (cursor < source.length) {
      const character = source[cursor];
      if (kind === '#') {
        if (source.startsWith(close, cursor)) break;
        out += character;
        cursor++;
        continue;
      }
      if (quote) {
        out += character;
        if (character === '\\' && cursor + 1 < source.length) {
          out += source[cursor + 1];
          cursor += 2;
          continue;
        }
        if (character === quote) quote = undefined;
        cursor++;
        continue;
      }
      if (character === "'" || character === '"') {
        quote = character;
        out += character;
        cursor++;
        continue;
      }
      if (source.startsWith(close, cursor)) break;
      const codePoint = source.codePointAt(cursor) as number;
      const text = String.fromCodePoint(codePoint);
      out +=
        codePoint > 0x7f && IDENTIFIER_CHARACTER.test(text) ? `${ENCODED}${codePoint.toString(16)}__` : text;
      cursor += text.length;
    }
    position = cursor;
  }
  return out + source.slice(position);
}

function decodeIdentifier(value: string): string {
  return value.replace(/__assay_u([0-9a-f]+)__/g, (_match, hex: string) =>
    String.fromCodePoint(Number.parseInt(hex, 16)),
  );
}

/** Renders a Jinja template against a doc as lm-eval does; errors name the task, doc and field. */
export function renderTemplate(
  source: string,
  doc: Readonly<Record<string, unknown>>,
  location: TemplateLocation,
): string {
  const program = compile(source, location);
  const constant = constantText(program);
  if (constant !== null) return constant;
  try {
    return interpreter.render(program, doc);
  } catch (error) {
    if (error instanceof AssayError) throw error;
    const where = `${location.field} of task ${location.task}, doc ${location.docId}`;
    const message =
      error instanceof TemplateEvaluationError && error.undefinedName !== undefined
        ? `template field ${error.undefinedName} is missing: ${error.message} (in ${where})`
        : `template error in ${where}: ${(error as Error).message}`;
    throw new AssayError('template_error', message, {
      location: { task: location.task, docId: location.docId, field: location.field },
      cause: error,
    });
  }
}

/** Compiles a template without rendering it, so task loading can report syntax errors early. */
export function checkTemplate(source: string, location: Omit<TemplateLocation, 'docId'>): void {
  compile(source, { ...location, docId: '-' });
}
