import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/helpers.js';
import { AssayError } from '../errors.js';
import { settingsHash } from './cells.js';
import { readSuiteFile } from './read-suite.js';
import { validateSuite } from './validate-suite.js';

/** A JSONL task of `n` multiple-choice lines. */
function writeTask(dir: string, name: string, n: number): string {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `${name}-${i}`,
      prompt: `Q${i}?\nA. x\nB. y\nAnswer:`,
      targets: [i % 2 ? 'A' : 'B'],
      metric: 'multiple_choice',
    }),
  );
  const file = path.join(dir, `${name}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function suiteIn(text: string): { dir: string; file: string } {
  const dir = tempDir('assay-suite-');
  writeTask(dir, 'alpha', 4);
  writeTask(dir, 'beta', 4);
  const file = path.join(dir, 'suite.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

const VALID = `version: 3
settings:
  limit: 2
  gen_kwargs: { max_gen_toks: 4 }
models:
  - name: one
    model: dummy
    model_args: { seed: 1 }
  - name: two
    model: dummy
    model_args: { seed: 2 }
    gen_kwargs: { max_gen_toks: 8 }
tasks:
  - task: alpha.jsonl
    name: alpha
  - name: beta
    task: beta.jsonl
    num_fewshot: 0
groups:
  all: [alpha, beta]
  b: [beta]
`;

async function failure(text: string): Promise<AssayError> {
  const { file } = suiteIn(text);
  const error = await validateSuite(file).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AssayError);
  return error as AssayError;
}

describe('suite file', () => {
  it('resolves a valid suite into cells whose settings merge suite, model and task set', async () => {
    const { file } = suiteIn(VALID);
    const validated = await validateSuite(file);
    expect(validated.loaded.suite.version).toBe('3');
    expect(validated.cells.map((cell) => `${cell.model}/${cell.taskSet}`)).toEqual([
      'one/alpha',
      'one/beta',
      'two/alpha',
      'two/beta',
    ]);
    const [oneAlpha, , twoAlpha, twoBeta] = validated.cells;
    expect(oneAlpha.settings).toMatchObject({
      model: 'dummy',
      model_args: { seed: 1 },
      tasks: ['alpha.jsonl'],
      limit: 2,
      gen_kwargs: { max_gen_toks: 4 },
    });
    // The model's gen_kwargs win over the suite's; the task set's num_fewshot is its own.
    expect(twoAlpha.settings.gen_kwargs).toEqual({ max_gen_toks: 8 });
    expect(twoBeta.settings.num_fewshot).toBe(0);
    expect(new Set(validated.cells.map((cell) => cell.settingsHash)).size).toBe(4);
    // The hash is of the settings alone: key order does not change it, any value does.
    const reordered = Object.fromEntries(
      Object.entries(oneAlpha.settings).reverse(),
    ) as typeof oneAlpha.settings;
    expect(settingsHash(reordered)).toBe(oneAlpha.settingsHash);
    expect(settingsHash({ ...oneAlpha.settings, limit: 3 })).not.toBe(oneAlpha.settingsHash);
    expect(Object.fromEntries(validated.taskSets)).toEqual({ alpha: ['alpha'], beta: ['beta'] });
    expect(Object.fromEntries(validated.groups)).toEqual({ all: ['alpha', 'beta'], b: ['beta'] });
  });

  it('names the file, line and field of an unknown key', async () => {
    const error = await failure(VALID.replace('    num_fewshot: 0', '    num_fewshots: 0'));
    expect(error.code).toBe('invalid_config');
    expect(error.location).toMatchObject({ line: 18, field: 'tasks.1.num_fewshots' });
    expect(error.format()).toMatch(
      /suite\.yaml:18:5: suite file: tasks\.1\.num_fewshots: unknown key "num_fewshots"/,
    );
  });

  it('names a missing required field and a task set with both task and tasks', async () => {
    const missing = await failure(VALID.replace('version: 3\n', ''));
    expect(missing.message).toBe('suite file: version: is required');
    const both = await failure(VALID.replace('    name: alpha', '    name: alpha\n    tasks: [beta.jsonl]'));
    expect(both.message).toBe('suite file: tasks.0: give exactly one of task or tasks');
    expect(both.location.line).toBe(14);
  });

  it("checks each model's args against its backend's schema, at the model's line", async () => {
    const error = await failure(
      VALID.replace('model_args: { seed: 2 }', 'model_args: { seed: 2, temperature: 1 }'),
    );
    expect(error.code).toBe('bad_model_args');
    expect(error.location).toMatchObject({ line: 11, field: 'models.1.model_args' });
  });

  it('refuses an unknown backend with the valid names', async () => {
    const error = await failure(
      VALID.replace('    model: dummy\n    model_args: { seed: 1 }', '    model: dumy'),
    );
    expect(error.code).toBe('unknown_model');
    expect(error.message).toMatch(/did you mean dummy/);
    expect(error.location).toMatchObject({ line: 7, field: 'models.0.model' });
  });

  it('refuses a task that does not resolve, at its task set', async () => {
    const error = await failure(VALID.replace('task: beta.jsonl', 'task: no_such_task_anywhere'));
    expect(error.code).toBe('unknown_task');
    expect(error.location).toMatchObject({ line: 17, field: 'tasks.1.task' });
  });

  it('refuses samples that name a task outside their task set, at the samples key', async () => {
    const error = await failure(VALID.replace('    num_fewshot: 0', '    samples: { alpah: [0] }'));
    // alpha is a task of the suite, but not of this task set: no did-you-mean towards it.
    expect(error.message).toBe(
      'suite file: samples name task "alpah", which is not in task set beta (its tasks: beta)',
    );
    expect(error.location).toMatchObject({ line: 18, field: 'tasks.1.samples.alpah' });
  });

  it('refuses a group member that is no task set or task, with did-you-mean', async () => {
    const error = await failure(VALID.replace('b: [beta]', 'b: [betta]'));
    expect(error.message).toBe(
      'suite file: group b names "betta", which is no task set or task of this suite; did you mean "beta"?',
    );
    expect(error.location).toMatchObject({ line: 21, field: 'groups.b.0' });
  });

  it('refuses duplicate model names, limit with max_eval_instances, and malformed YAML', async () => {
    const duplicate = await failure(VALID.replace('name: two', 'name: one'));
    expect(duplicate.message).toBe('suite file: models.1: model "one" is given twice');
    expect(duplicate.location.line).toBe(9);
    const both = await failure(VALID.replace('  limit: 2', '  limit: 2\n  max_eval_instances: 5'));
    expect(both.message).toMatch(/limit and max_eval_instances are the same setting/);
    const { file } = suiteIn('models: [\n');
    expect(() => readSuiteFile(file)).toThrow(/malformed YAML/);
  });
});
