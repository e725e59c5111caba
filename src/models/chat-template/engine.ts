/**
 * @huggingface/jinja configured to behave as Python's jinja2 does where chat templates can tell the
 * difference. Nothing in the package is patched on disk; what differs is replaced from outside, on the
 * objects one render uses:
 *
 * - globals: `raise_exception` throws `TemplateRaised` (jinja2's TemplateError in transformers) and
 *   `strftime_now` formats with glibc's C-locale directives on an injectable clock. Template.render cannot
 *   replace a global, so the Environment is built here with the names of the engine's setupGlobals.
 * - `str.strip/lstrip/rstrip(chars)`: the engine ignores `chars` and strips JavaScript's whitespace;
 *   QwQ's and Qwen3's `content.split('</think>')[-1].lstrip('\n')` must keep a leading space. The
 *   interpreter's member lookup is wrapped to give Python's methods (python/semantics' pythonStrip) on
 *   strings, and `capitalize` (Python lowercases the rest).
 * - printing: `{{ x }}` prints `True`/`False`/`None` and lists and dicts as Python's str() does (the engine
 *   prints JSON and drops None). The interpreter's block evaluation is wrapped; a `None` that a statement
 *   (`set`, `macro`) yields still prints nothing.
 *
 * What is left as the engine has it: string concatenation with `~` of a list or dict (JSON, not repr), and
 * the one-element tuple literal `(x,)`, which does not parse (no published template in the test set uses
 * either).
 */
import { Environment, Interpreter } from '@huggingface/jinja';
import { markTuple, PythonFloat, pythonStr } from '../../python/semantics/literal.js';
import { pythonStrip } from '../../python/semantics/string.js';
import { pythonStrftime } from './strftime.js';

/** What a template raised with `raise_exception(message)` (jinja2's TemplateError in transformers). */
export class TemplateRaised extends Error {
  readonly name = 'TemplateRaised';
}

/** The engine's runtime values, as far as this file reads them. */
interface RuntimeValue {
  type: string;
  value: unknown;
  toString(): string;
}
interface Node {
  type: string;
  object?: Node;
  property?: { type: string; value?: unknown };
  computed?: boolean;
}
type RuntimeClass = new (value: unknown) => RuntimeValue;
interface InterpreterInternals {
  evaluate(node: Node, environment: Environment): RuntimeValue;
  evaluateMemberExpression(node: Node, environment: Environment): RuntimeValue;
  evaluateBlock(statements: Node[], environment: Environment): RuntimeValue;
}

/** Statements whose value is not output: a `None` they yield prints nothing. */
const STATEMENTS = new Set([
  'Set',
  'Macro',
  'Comment',
  'Break',
  'Continue',
  'If',
  'For',
  'CallStatement',
  'FilterStatement',
  'Program',
]);
const STRIPS = { strip: 'both', lstrip: 'left', rstrip: 'right' } as const;

/** The engine's FunctionValue and StringValue classes, read off values it made (it exports neither). */
function runtimeClasses(): { FunctionValue: RuntimeClass; StringValue: RuntimeClass } {
  const probe = new Environment();
  const classOf = (value: unknown) =>
    (Object.getPrototypeOf(probe.set(`probe${probe.variables.size}`, value)) as { constructor: RuntimeClass })
      .constructor;
  return { FunctionValue: classOf(() => null), StringValue: classOf('') };
}
const { FunctionValue, StringValue } = runtimeClasses();

/** A runtime value as the JavaScript value python/semantics prints (floats stay floats, tuples tuples). */
function toPython(value: RuntimeValue): unknown {
  switch (value.type) {
    case 'FloatValue':
      return new PythonFloat(value.value as number);
    case 'TupleValue':
      return markTuple((value.value as RuntimeValue[]).map(toPython));
    case 'ArrayValue':
      return (value.value as RuntimeValue[]).map(toPython);
    case 'ObjectValue':
    case 'KeywordArgumentsValue':
      return Object.fromEntries(
        [...(value.value as Map<string, RuntimeValue>)].map(([key, item]) => [key, toPython(item)]),
      );
    case 'NullValue':
    case 'UndefinedValue':
      return null;
    default:
      return value.value;
  }
}

/** `{{ value }}`: Python's str(). */
function printed(value: RuntimeValue): string {
  switch (value.type) {
    case 'BooleanValue':
    case 'ArrayValue':
    case 'TupleValue':
    case 'ObjectValue':
      return pythonStr(toPython(value));
    default:
      return value.toString();
  }
}

function pythonStringMethod(text: string, name: string): RuntimeValue | undefined {
  if (name in STRIPS) {
    const side = STRIPS[name as keyof typeof STRIPS];
    return new FunctionValue((args: RuntimeValue[]) => {
      const chars = args[0];
      const set = chars === undefined || chars.type === 'NullValue' ? null : String(chars.value);
      return new StringValue(pythonStrip(text, set, side));
    });
  }
  if (name === 'capitalize') {
    return new FunctionValue(() => {
      const [first = '', ...rest] = text;
      return new StringValue(first.toUpperCase() + rest.join('').toLowerCase());
    });
  }
  return undefined;
}

/** An interpreter over `environment` with Python's string methods and printing. */
export function pythonInterpreter(environment: Environment): Interpreter {
  const interpreter = new Interpreter(environment);
  const internals = interpreter as unknown as InterpreterInternals;
  const memberExpression = internals.evaluateMemberExpression.bind(interpreter);
  internals.evaluateMemberExpression = (node, scope) => {
    const name = node.property?.value;
    if (!node.computed && node.property?.type === 'Identifier' && typeof name === 'string') {
      if (name in STRIPS || name === 'capitalize') {
        const object = internals.evaluate(node.object as Node, scope);
        if (object.type === 'StringValue') {
          const method = pythonStringMethod(object.value as string, name);
          if (method) return method;
        }
      }
    }
    return memberExpression(node, scope);
  };
  internals.evaluateBlock = (statements, scope) => {
    let out = '';
    for (const statement of statements) {
      const value = internals.evaluate(statement, scope);
      if (value.type === 'UndefinedValue') continue;
      if (value.type === 'NullValue') {
        if (!STATEMENTS.has(statement.type)) out += 'None';
        continue;
      }
      out += printed(value);
    }
    return new StringValue(out);
  };
  return interpreter;
}

/** The engine's globals (its setupGlobals), with transformers' raise_exception and strftime_now. */
export function transformersGlobals(now: () => Date): Environment {
  const environment = new Environment();
  for (const [name, value] of [
    ['false', false],
    ['true', true],
    ['none', null],
    ['False', false],
    ['True', true],
    ['None', null],
  ] as const)
    environment.set(name, value);
  environment.set('range', pythonRange);
  environment.set('raise_exception', (message: unknown) => {
    throw new TemplateRaised(String(message));
  });
  environment.set('strftime_now', (format: unknown) => pythonStrftime(now(), String(format)));
  return environment;
}

/** Python's range(stop) / range(start, stop[, step]). */
function pythonRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new Error('range() arg 3 must not be zero');
  const out: number[] = [];
  for (let value = from; step > 0 ? value < to : value > to; value += step) out.push(value);
  return out;
}
