/**
 * PyYAML's implicit typing (resolver.py and SafeConstructor at PyYAML 6), as a js-yaml schema. lm-eval
 * reads task files with PyYAML, which implements YAML 1.1 with its own regexes: `yes`/`on`/`off` are
 * booleans but `y`/`n` are not, `010` is octal 8 and `09` a string, `1e5` is a string (a float needs a
 * dot and a signed exponent), `1:30` is sexagesimal 90. js-yaml's own schemas are YAML 1.2 (or 1.1 with
 * other edge cases), so the resolvers are written out here: scores depend on configs reading as lm-eval
 * reads them. Checked against PyYAML on every file of lm-eval's task tree (bench/yaml-parity.ts).
 *
 * Timestamps are left out of the implicit types on purpose: PyYAML makes `2024-01-01` a date, which
 * JSON cannot carry; no lm-eval task file has one, and a string is the useful reading for assay.
 */
import jsYaml from 'js-yaml';

const { Type, FAILSAFE_SCHEMA } = jsYaml;

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** The sign and the digits without underscores, as SafeConstructor strips them. */
function signed(text: string): [number, string] {
  const value = text.replaceAll('_', '');
  if (value.startsWith('-')) return [-1, value.slice(1)];
  if (value.startsWith('+')) return [1, value.slice(1)];
  return [1, value];
}

function sexagesimal(digits: string): number {
  let total = 0;
  for (const part of digits.split(':')) total = total * 60 + Number(part);
  return total;
}

// Every plain scalar (keys too) is tried against each implicit type in turn; cheap length and first
// character checks keep the regexes off the common case, a word like `dataset_path`.
const NUMERIC_START = /^[-+.0-9]/;

const nullType = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => data === null || (data.length <= 4 && NULL.test(data)),
  construct: () => null,
});

const boolType = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && data.length <= 5 && BOOL.test(data),
  construct: (data: string) => TRUE.test(data),
});

const intType = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && NUMERIC_START.test(data) && INT.test(data),
  construct: (data: string) => {
    const [sign, digits] = signed(data);
    if (digits === '0') return 0;
    if (digits.startsWith('0b')) return sign * Number.parseInt(digits.slice(2), 2);
    if (digits.startsWith('0x')) return sign * Number.parseInt(digits.slice(2), 16);
    if (digits.startsWith('0')) return sign * Number.parseInt(digits, 8);
    if (digits.includes(':')) return sign * sexagesimal(digits);
    return sign * Number.parseInt(digits, 10);
  },
});

const floatType = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && NUMERIC_START.test(data) && FLOAT.test(data),
  construct: (data: string) => {
    const [sign, digits] = signed(data.toLowerCase());
    if (digits === '.inf') return sign * Number.POSITIVE_INFINITY;
    if (digits === '.nan') return Number.NaN;
    if (digits.includes(':')) return sign * sexagesimal(digits);
    return sign * Number(digits);
  },
});

const { types } = jsYaml as unknown as { types: Record<string, jsYaml.Type> };

/** The implicit types, in the order js-yaml tries them on a plain scalar. */
const IMPLICIT = [nullType, boolType, intType, floatType, types.merge];

/**
 * The first characters an implicit type's text can start with (null: `~`, `null`; booleans: `yes`, `no`,
 * `true`, `false`, `on`, `off` in three cases; numbers: a sign, a dot or a digit; merge: `<<`), and the
 * empty text. A text starting with any other character is a string to every type, which is most scalars
 * of a task file (its names: `mmlu_anatomy`, `multiple_choice`); pyyaml-schema.test.ts holds the screen to
 * the types' own answers.
 */
const MAY_BE_TYPED = new Uint8Array(128);
for (const ch of '~nNyYtTfFoO+-.0123456789<') MAY_BE_TYPED[ch.charCodeAt(0)] = 1;

function mayBeTyped(text: string): boolean {
  const first = text.charCodeAt(0);
  return text.length === 0 || (first < 128 && MAY_BE_TYPED[first] === 1);
}

/**
 * Whether a plain scalar reads as a string: none of the schema's implicit types takes it. For readers that
 * must not guess a scalar's type (yaml-keys.ts).
 */
export function isImplicitString(text: string): boolean {
  return typeof plainValue(text) === 'string';
}

/**
 * A plain scalar's value as js-yaml builds it with this schema: constructed by the first implicit type
 * that takes it, else the text itself. Undefined for the merge key `<<`, which is no value.
 */
export function plainValue(text: string): unknown {
  if (!mayBeTyped(text)) return text;
  for (const type of IMPLICIT) {
    if (type.resolve(text)) return type === types.merge ? undefined : type.construct(text);
  }
  return text;
}

/**
 * The schema with a `!function` scalar tag built by `construct` (given the scalar as written). PyYAML's
 * other explicit tags that SafeLoader knows (`!!binary`, `!!set`, `!!omap`, `!!pairs`, `!!timestamp`) come
 * from js-yaml; merge keys (`<<`) are implicit, as in PyYAML.
 */
export function pyyamlSchema(construct: (ref: string) => unknown): jsYaml.Schema {
  const functionType = new Type('!function', {
    kind: 'scalar',
    construct: (data: string | null) => construct(data ?? ''),
  });
  return FAILSAFE_SCHEMA.extend({
    implicit: IMPLICIT,
    explicit: [functionType, types.binary, types.omap, types.pairs, types.set, types.timestamp],
  });
}
