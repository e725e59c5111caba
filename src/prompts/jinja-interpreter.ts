/**
 * A Jinja2 interpreter with Python value semantics, over the AST that @huggingface/jinja parses.
 *
 * @huggingface/jinja's own runtime is built for chat templates: it prints lists as JSON (`["a"]` where
 * Jinja2 prints `['a']`), drops `None`, has no StrictUndefined, no way to add a filter such as lm-eval's
 * `regex_replace`, and JS string methods where Python's differ (`strip`, `split`). lm-eval prompts must
 * match byte for byte, so only the lexer and parser are reused and evaluation happens here, on plain JS
 * values read as Python values (see python/semantics/literal.ts for the mapping).
 */
import type { parse } from '@huggingface/jinja';
import { PythonError } from '../python/semantics/errors.js';
import { percentFormat } from '../python/semantics/methods.js';
import { characters } from '../python/semantics/string.js';
import {
  asTuple,
  dictGet,
  isDict,
  isFloat,
  isNumber,
  numeric,
  pythonCompare,
  pythonEquals,
  pythonIterate,
  pythonSlice,
  truthy,
  typeName,
} from '../python/semantics/values.js';
import { getAttribute, getItem } from './jinja-attributes.js';
import { callFilter, callTest, isKnownFilter } from './jinja-filters.js';
import {
  Callable,
  makeFloat,
  Namespace,
  renderValue,
  strictValue,
  TemplateEvaluationError,
  Undefined,
} from './jinja-values.js';

class Scope {
  /** Made at the first `set`: most renders (a doc's prompt) assign nothing. */
  private variables: Map<string, unknown> | undefined;
  constructor(
    private readonly parent: Scope | undefined,
    private readonly root?: Readonly<Record<string, unknown>>,
  ) {}

  lookup(name: string): unknown {
    if (this.variables?.has(name)) return this.variables.get(name);
    if (this.parent) return this.parent.lookup(name);
    if (this.root && Object.hasOwn(this.root, name)) return this.root[name];
    return GLOBALS.has(name) ? GLOBALS.get(name) : new Undefined(name, `'${name}' is undefined`);
  }

  set(name: string, value: unknown): void {
    this.variables ??= new Map();
    this.variables.set(name, value);
  }
}

/** The keyword arguments of a call that passes none; callables read their kwargs and never write them. */
const NO_KEYWORDS: ReadonlyMap<string, unknown> = new Map();

const LITERALS = new Map<string, unknown>([
  ['true', true],
  ['True', true],
  ['false', false],
  ['False', false],
  ['none', null],
  ['None', null],
]);

const GLOBALS = new Map<string, unknown>([
  [
    'range',
    new Callable('range', (args) => {
      const numbers = args.map((arg) => toInt(arg, 'range'));
      const [start, stop, step] =
        numbers.length === 1 ? [0, numbers[0], 1] : [numbers[0], numbers[1], numbers[2] ?? 1];
      if (step === 0) throw new TemplateEvaluationError('range() arg 3 must not be zero');
      const result: number[] = [];
      // Jinja2's sandbox caps range at 100k items; lm-eval does not sandbox, but a template never needs more.
      for (let i = start; step > 0 ? i < stop : i > stop; i += step) result.push(i);
      return result;
    }),
  ],
  [
    'dict',
    new Callable('dict', (args, kwargs) => {
      const result: Record<string, unknown> = {};
      if (args[0] !== undefined && isDict(args[0])) Object.assign(result, args[0]);
      for (const [key, value] of kwargs) result[key] = value;
      return result;
    }),
  ],
  [
    'namespace',
    new Callable('namespace', (args, kwargs) => {
      const attributes = new Map<string, unknown>();
      if (args[0] !== undefined && isDict(args[0])) {
        for (const [key, value] of Object.entries(args[0])) attributes.set(key, value);
      }
      for (const [key, value] of kwargs) attributes.set(key, value);
      return new Namespace(attributes);
    }),
  ],
]);

function toInt(value: unknown, where: string): number {
  const number = numeric(strictValue(value));
  if (number === undefined || isFloat(value)) {
    throw new TemplateEvaluationError(
      `'${typeName(value)}' object cannot be interpreted as an integer (${where})`,
    );
  }
  return number;
}

type Program = ReturnType<typeof parse>;
type Statement = Program['body'][number];

// The AST classes are not exported by the package; nodes are read through this loose shape.
// biome-ignore lint/suspicious/noExplicitAny: AST nodes are dispatched on their `type` tag.
type Node = any;

export class JinjaInterpreter {
  render(program: Program, context: Readonly<Record<string, unknown>>): string {
    const scope = new Scope(undefined, context);
    return this.block(program.body, scope);
  }

  private block(statements: Statement[], scope: Scope): string {
    let out = '';
    for (const statement of statements) out += this.statement(statement as Node, scope);
    return out;
  }

  private statement(node: Node, scope: Scope): string {
    switch (node.type) {
      case 'Set':
        this.set(node, scope);
        return '';
      case 'If':
        return truthy(strictValue(this.expr(node.test, scope)))
          ? this.block(node.body, scope)
          : this.block(node.alternate, scope);
      case 'For':
        return this.forLoop(node, scope);
      case 'Comment':
        return '';
      case 'FilterStatement':
        return renderValue(this.filter(this.block(node.body, scope), node.filter, scope));
      case 'Macro':
      case 'CallStatement':
        throw new TemplateEvaluationError(
          `{% ${node.type === 'Macro' ? 'macro' : 'call'} %} is not supported`,
        );
      case 'Break':
      case 'Continue':
        // lm-eval's Environment does not enable the loopcontrols extension, so Jinja2 rejects these.
        throw new TemplateEvaluationError(`Encountered unknown tag '${node.type.toLowerCase()}'`);
      default:
        return renderValue(this.expr(node, scope));
    }
  }

  private set(node: Node, scope: Scope): void {
    const value = node.value ? this.expr(node.value, scope) : this.block(node.body, scope);
    const target = node.assignee;
    if (target.type === 'Identifier') scope.set(target.value, value);
    else if (target.type === 'TupleLiteral') {
      const items = pythonIterate(strictValue(value));
      if (items.length !== target.value.length) {
        throw new TemplateEvaluationError(`cannot unpack ${items.length} values into ${target.value.length}`);
      }
      target.value.forEach((element: Node, index: number) => {
        scope.set(element.value, items[index]);
      });
    } else if (target.type === 'MemberExpression') {
      const object = strictValue(this.expr(target.object, scope));
      if (!(object instanceof Namespace)) {
        throw new TemplateEvaluationError('cannot assign attribute on non-namespace object');
      }
      object.attributes.set(target.property.value, value);
    } else throw new TemplateEvaluationError(`cannot assign to ${target.type}`);
  }

  private forLoop(node: Node, scope: Scope): string {
    const select = node.iterable.type === 'SelectExpression' ? node.iterable : undefined;
    const source = strictValue(this.expr(select ? select.lhs : node.iterable, scope));
    const all = pythonIterate(source);
    const bind = (target: Scope, item: unknown) => {
      if (node.loopvar.type === 'Identifier') target.set(node.loopvar.value, item);
      else {
        const parts = pythonIterate(strictValue(item));
        if (parts.length !== node.loopvar.value.length) {
          throw new TemplateEvaluationError(
            `cannot unpack ${parts.length} values into ${node.loopvar.value.length}`,
          );
        }
        node.loopvar.value.forEach((element: Node, index: number) => {
          target.set(element.value, parts[index]);
        });
      }
    };
    let items = all;
    if (select) {
      items = all.filter((item) => {
        const probe = new Scope(scope);
        bind(probe, item);
        return truthy(strictValue(this.expr(select.test, probe)));
      });
    }
    if (items.length === 0) return this.block(node.defaultBlock, scope);
    let out = '';
    const length = items.length;
    for (let index = 0; index < length; index++) {
      const inner = new Scope(scope);
      inner.set('loop', {
        index: index + 1,
        index0: index,
        revindex: length - index,
        revindex0: length - index - 1,
        first: index === 0,
        last: index === length - 1,
        length,
        previtem:
          index > 0 ? items[index - 1] : new Undefined('previtem', "'loop' has no attribute 'previtem'"),
        nextitem:
          index < length - 1
            ? items[index + 1]
            : new Undefined('nextitem', "'loop' has no attribute 'nextitem'"),
      });
      bind(inner, items[index]);
      out += this.block(node.body, inner);
    }
    return out;
  }

  expr(node: Node, scope: Scope): unknown {
    switch (node.type) {
      case 'StringLiteral':
        return node.value;
      case 'IntegerLiteral':
        return node.value;
      case 'FloatLiteral':
        return makeFloat(node.value);
      case 'Identifier':
        // Jinja2 parses true/false/none (any case of the first letter) as constants, never as variables.
        return LITERALS.has(node.value) ? LITERALS.get(node.value) : scope.lookup(node.value);
      case 'ArrayLiteral':
        return node.value.map((item: Node) => this.expr(item, scope));
      case 'TupleLiteral':
        return asTuple(node.value.map((item: Node) => this.expr(item, scope)));
      case 'ObjectLiteral': {
        const entries: Array<[unknown, unknown]> = [];
        for (const [key, value] of node.value as Map<Node, Node>) {
          entries.push([strictValue(this.expr(key, scope)), this.expr(value, scope)]);
        }
        if (entries.every(([key]) => typeof key === 'string')) {
          return Object.fromEntries(entries as Array<[string, unknown]>);
        }
        return new Map(entries);
      }
      case 'MemberExpression':
        return this.member(node, scope);
      case 'CallExpression':
        return this.call(node, scope);
      case 'FilterExpression':
        return this.filter(this.expr(node.operand, scope), node.filter, scope);
      case 'TestExpression': {
        const result = callTest(node.test.value, this.expr(node.operand, scope));
        return node.negate ? !result : result;
      }
      case 'UnaryExpression':
        return this.unary(node, scope);
      case 'BinaryExpression':
        return this.binary(node, scope);
      case 'Ternary':
        return truthy(strictValue(this.expr(node.condition, scope)))
          ? this.expr(node.trueExpr, scope)
          : this.expr(node.falseExpr, scope);
      case 'SelectExpression':
        // `a if cond` without else: Jinja2 prints nothing when cond is false.
        return truthy(strictValue(this.expr(node.test, scope))) ? this.expr(node.lhs, scope) : '';
      default:
        throw new TemplateEvaluationError(`unsupported expression ${node.type}`);
    }
  }

  private member(node: Node, scope: Scope): unknown {
    const object = this.expr(node.object, scope);
    if (object instanceof Undefined) return strictValue(object);
    const property = node.property;
    if (property.type === 'SliceExpression') {
      const bound = (part: Node | undefined) => {
        if (!part) return undefined;
        const value = strictValue(this.expr(part, scope));
        return value === null ? undefined : toInt(value, 'slice');
      };
      const [start, stop, step] = [bound(property.start), bound(property.stop), bound(property.step)];
      if (typeof object === 'string') return pythonSlice(characters(object), start, stop, step).join('');
      if (Array.isArray(object)) return pythonSlice(object, start, stop, step);
      throw new TemplateEvaluationError(`'${typeName(object)}' object is not subscriptable`);
    }
    if (object instanceof Namespace) {
      const name = node.computed ? strictValue(this.expr(property, scope)) : property.value;
      return object.attributes.has(name as string)
        ? object.attributes.get(name as string)
        : new Undefined(String(name), `'Namespace' object has no attribute '${String(name)}'`);
    }
    if (!node.computed && property.type === 'Identifier') {
      // `obj.name`: Jinja2 tries the Python attribute first, then the item.
      return getAttribute(object, property.value);
    }
    const key = node.computed ? strictValue(this.expr(property, scope)) : property.value;
    return getItem(object, key);
  }

  private arguments(nodes: Node[], scope: Scope): [unknown[], Map<string, unknown>] {
    const positional: unknown[] = [];
    if (nodes.length === 0) return [positional, NO_KEYWORDS as Map<string, unknown>];
    const keywords = new Map<string, unknown>();
    for (const argument of nodes) {
      if (argument.type === 'KeywordArgumentExpression')
        keywords.set(argument.key.value, this.expr(argument.value, scope));
      else if (argument.type === 'SpreadExpression')
        positional.push(...pythonIterate(strictValue(this.expr(argument.argument, scope))));
      else if (argument.type === 'KeywordSpreadExpression') {
        const mapping = strictValue(this.expr(argument.argument, scope));
        if (!isDict(mapping)) throw new TemplateEvaluationError('argument after ** must be a mapping');
        for (const [key, value] of Object.entries(mapping)) keywords.set(key, value);
      } else positional.push(this.expr(argument, scope));
    }
    return [positional, keywords];
  }

  private call(node: Node, scope: Scope): unknown {
    const callee = strictValue(this.expr(node.callee, scope));
    if (!(callee instanceof Callable))
      throw new TemplateEvaluationError(`'${typeName(callee)}' object is not callable`);
    const [positional, keywords] = this.arguments(node.args, scope);
    return callee.call(positional.map(strictValue), keywords);
  }

  private filter(value: unknown, filterNode: Node, scope: Scope): unknown {
    const isCall = filterNode.type === 'CallExpression';
    const name: string = isCall ? filterNode.callee.value : filterNode.value;
    if (!isKnownFilter(name)) throw new TemplateEvaluationError(`No filter named '${name}'.`);
    const [positional, keywords] = isCall
      ? this.arguments(filterNode.args, scope)
      : [[], new Map<string, unknown>()];
    return callFilter(name, value, positional.map(strictValue), keywords);
  }

  private unary(node: Node, scope: Scope): unknown {
    const value = strictValue(this.expr(node.argument, scope));
    switch (node.operator.value) {
      case 'not':
        return !truthy(value);
      case '-':
      case '+': {
        const number = numeric(value);
        if (number === undefined)
          throw new TemplateEvaluationError(
            `bad operand type for unary ${node.operator.value}: '${typeName(value)}'`,
          );
        const result = node.operator.value === '-' ? -number : number;
        return isFloat(value) ? makeFloat(result) : result;
      }
      default:
        throw new TemplateEvaluationError(`unknown operator ${node.operator.value}`);
    }
  }

  private binary(node: Node, scope: Scope): unknown {
    const operator: string = node.operator.value;
    if (operator === 'and' || operator === 'or') {
      const left = strictValue(this.expr(node.left, scope));
      if (operator === 'and') return truthy(left) ? strictValue(this.expr(node.right, scope)) : left;
      return truthy(left) ? left : strictValue(this.expr(node.right, scope));
    }
    const left = strictValue(this.expr(node.left, scope));
    const right = strictValue(this.expr(node.right, scope));
    try {
      return binaryOperation(operator, left, right);
    } catch (error) {
      if (error instanceof PythonError) throw new TemplateEvaluationError(error.message);
      throw error;
    }
  }
}

function binaryOperation(operator: string, left: unknown, right: unknown): unknown {
  switch (operator) {
    case '==':
      return pythonEquals(left, right);
    case '!=':
      return !pythonEquals(left, right);
    case '<':
      return pythonCompare(left, right, operator) < 0;
    case '>':
      return pythonCompare(left, right, operator) > 0;
    case '<=':
      return pythonCompare(left, right, operator) <= 0;
    case '>=':
      return pythonCompare(left, right, operator) >= 0;
    case 'in':
      return contains(right, left);
    case 'not in':
      return !contains(right, left);
    case '~':
      return renderValue(left) + renderValue(right);
  }
  const a = numeric(left);
  const b = numeric(right);
  const floatResult = isFloat(left) || isFloat(right);
  if (
    a !== undefined &&
    b !== undefined &&
    (isNumber(left) || typeof left === 'boolean') &&
    (isNumber(right) || typeof right === 'boolean')
  ) {
    switch (operator) {
      case '+':
        return floatResult ? makeFloat(a + b) : a + b;
      case '-':
        return floatResult ? makeFloat(a - b) : a - b;
      case '*':
        return floatResult ? makeFloat(a * b) : a * b;
      case '/':
        if (b === 0) throw new TemplateEvaluationError('division by zero');
        return makeFloat(a / b);
      case '//': {
        if (b === 0) throw new TemplateEvaluationError('integer division or modulo by zero');
        const result = Math.floor(a / b);
        return floatResult ? makeFloat(result) : result;
      }
      case '%': {
        if (b === 0) throw new TemplateEvaluationError('integer division or modulo by zero');
        // Python's modulo takes the sign of the divisor.
        const result = ((a % b) + b) % b;
        return floatResult ? makeFloat(result) : result;
      }
      case '**': {
        const result = a ** b;
        return floatResult || b < 0 ? makeFloat(result) : result;
      }
    }
  }
  if (operator === '+') {
    if (typeof left === 'string' && typeof right === 'string') return left + right;
    if (Array.isArray(left) && Array.isArray(right) && typeName(left) === typeName(right)) {
      const joined = [...left, ...right];
      return typeName(left) === 'tuple' ? asTuple(joined) : joined;
    }
  }
  if (operator === '*') {
    const [sequence, count] = typeof right === 'number' ? [left, right] : [right, left];
    if (typeof count === 'number' && Number.isInteger(count)) {
      if (typeof sequence === 'string') return sequence.repeat(Math.max(0, count));
      if (Array.isArray(sequence)) return Array.from({ length: Math.max(0, count) }, () => sequence).flat();
    }
  }
  if (operator === '%' && typeof left === 'string') return percentFormat(left, right, renderValue);
  throw new TemplateEvaluationError(
    `unsupported operand type(s) for ${operator}: '${typeName(left)}' and '${typeName(right)}'`,
  );
}

function contains(container: unknown, item: unknown): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw new TemplateEvaluationError(
        `'in <string>' requires string as left operand, not ${typeName(item)}`,
      );
    }
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((element) => pythonEquals(element, item));
  if (isDict(container)) return dictGet(container, item).found;
  throw new TemplateEvaluationError(`argument of type '${typeName(container)}' is not iterable`);
}
