/**
 * Python's view of JSON values, checked against Python itself: json.dumps for the text, and the
 * comparison of the code_exec harness that ran in the sandbox before (its `_assay_same`, verbatim).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../../test/support/require-component.js';
import { findExecutable } from '../../sandbox/bubblewrap.js';
import { pythonJson, pythonSame } from './json-values.js';

const python = findExecutable('python3');
const hasPython = requireComponent('python3', python !== undefined);

const OLD_SAME = `
def _assay_same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_assay_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_assay_same(a[k], b[k]) for k in a)
    return type(a) in (int, float) and type(b) in (int, float) and a == b or a == b and type(a) == type(b)
`;

function inPython(script: string, input: unknown): unknown {
  const result = spawnSync(python as string, ['-I', '-S', '-c', `import json, sys\n${script}`], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

const VALUES: unknown[] = [
  0,
  -7,
  2 ** 53,
  1e16,
  1e21,
  0.5,
  1e-5,
  0.0001,
  123.456,
  -2.5e-7,
  1.5e300,
  'plain',
  'é and 😀 and \u0001 and "quotes" and \\',
  '\u007f',
  null,
  true,
  false,
  [],
  {},
  [1, [2.5, 'x'], { a: null }],
  { b: [true, 1], a: { c: 'd' } },
];

describe.skipIf(!hasPython)('Python values', () => {
  it('writes what json.dumps writes for values read from JSON', () => {
    const expected = inPython('print(json.dumps([json.dumps(v) for v in json.load(sys.stdin)]))', VALUES);
    expect(VALUES.map(pythonJson)).toEqual(expected);
  });

  it('compares as the old harness did', () => {
    const pairs: Array<[unknown, unknown]> = [];
    for (const a of VALUES) for (const b of VALUES) pairs.push([a, b]);
    pairs.push(
      [1, 1.0],
      [true, 1],
      [1, true],
      [0, false],
      [
        [1, 2],
        [1, 2.0],
      ],
      [{ a: 1 }, { a: 1, b: 2 }],
      ['1', 1],
    );
    const expected = inPython(
      `${OLD_SAME}\nprint(json.dumps([_assay_same(a, b) for a, b in json.load(sys.stdin)]))`,
      pairs,
    );
    expect(pairs.map(([a, b]) => pythonSame(a, b))).toEqual(expected);
  });
});
