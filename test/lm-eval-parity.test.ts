/**
 * Results that must equal lm-eval's own, for task configs with Python utils (issue 28 D2–D4): the task
 * folder test/fixtures/lm-eval-parity/tasks runs through assay with FixedBackend, and the expected values
 * are lm-eval's results for the same folder and the same answers, written by lm-eval's evaluator itself
 * (fixtures/lm-eval-parity/run_lm_eval.py, commit in expected.json's `lm_eval_commit`; CI has no lm-eval
 * checkout, hence the stored output). With LM_EVAL_SRC set to a checkout (and numpy, jinja2, PyYAML in
 * python3), the script is run again and must give the stored file.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  GenerateCallOptions,
  LoglikelihoodCallOptions,
  ModelBackend,
  RollingCallOptions,
} from '../src/models/backend.js';
import { simpleEvaluate } from '../src/run/evaluate.js';
import { testInterpreters } from './support/python-interpreters.js';
import { requireComponent } from './support/require-component.js';

type Json = Record<string, any>;

const fixtures = path.join(import.meta.dirname, 'fixtures', 'lm-eval-parity');
const expected = JSON.parse(readFileSync(path.join(fixtures, 'expected.json'), 'utf8')) as Json;

/** run_lm_eval.py's `Fixed` model: every answer from the request's text alone. */
class FixedBackend implements ModelBackend {
  readonly specificationVersion = 'v2';
  readonly name = 'fixed';
  readonly capabilities = {
    loglikelihood: true,
    loglikelihoodRolling: true,
    generate: true,
    tokenScoring: false,
    generationLogprobs: false,
    chatTemplate: false,
    usage: false,
  };
  async loglikelihood({ requests }: LoglikelihoodCallOptions) {
    return requests.map((request) => ({
      logprob: -1 * [...request.continuation].length - 0.5 * ([...request.context].length % 3),
      isGreedy: false,
    }));
  }
  async loglikelihoodRolling({ requests }: RollingCallOptions) {
    return requests.map((request) => -1 * [...request.text].length);
  }
  async generate({ requests }: GenerateCallOptions) {
    return requests.map((request) => ` answer${[...String(request.context)].length % 3}`);
  }
  info() {
    return { name: 'fixed' };
  }
}

const interpreters = testInterpreters();
const present = requireComponent('python3', interpreters.length > 0);
const lmEval = requireComponent('lm-eval checkout', Boolean(process.env.LM_EVAL_SRC));

/** One assay run of some of the fixture's tasks (each case its own run: one failing stops no other). */
async function run(tasks: string[]): Promise<Json> {
  const output = await simpleEvaluate({
    model: new FixedBackend(),
    tasks,
    includePath: [path.join(fixtures, 'tasks')],
    numFewshot: 0,
    python: interpreters[0],
    bootstrapIters: 100000,
  });
  return output.results as Json;
}

describe.skipIf(!present)('lm-eval parity of task configs with Python utils', () => {
  it('D4: a group writes sample_len as lm-eval does, in results and groups', async () => {
    const results = await run(['parity_group']);
    for (const section of ['results', 'groups'] as const) {
      const group = results[section].parity_group;
      expect(group.sample_len).toBe(expected[section].parity_group.sample_len);
      expect(group.sample_count).toEqual(expected[section].parity_group.sample_count);
      expect(group['acc,none']).toBeCloseTo(expected[section].parity_group['acc,none'], 12);
      expect(group['acc_stderr,none']).toBeCloseTo(expected[section].parity_group['acc_stderr,none'], 12);
    }
    // The key comes where lm-eval puts it: after name, before the metrics.
    expect(Object.keys(results.results.parity_group).slice(0, 3)).toEqual(['alias', 'name', 'sample_len']);
  });

  it("D2: a Python aggregation's stderr is lm-eval's N/A; a resample that raises fails nothing", async () => {
    const results = await run(['parity_custom_f1']);
    const task = results.results.parity_custom_f1;
    const lmEval = expected.results.parity_custom_f1;
    expect(task['f1,none']).toBe(lmEval['f1,none']);
    expect(task['f1_stderr,none']).toBe(lmEval['f1_stderr,none']);
    expect(task.sample_len).toBe(lmEval.sample_len);
    // assay's own bootstrap: unknown, because a resample without a gold 0 divides by zero, and it says so.
    const bootstrap = results.stats.parity_custom_f1['f1,none'].bootstrap;
    expect(bootstrap.stderr).toBeNull();
    expect(bootstrap.note).toMatch(
      /^bootstrap resample \d+ raised ZeroDivisionError: division by zero \(.*utils\.py:\d+ in recall_of_rare_class/,
    );
    expect(task['f1_ci,none']).toBeUndefined();
  });

  it("D3: pass@k under a create_test filter is lm-eval's value and stderr", async () => {
    const results = await run(['parity_pass_at_k']);
    const task = results.results.parity_pass_at_k;
    const lmEval = expected.results.parity_pass_at_k;
    expect(task['pass@1,create_test']).toBeCloseTo(lmEval['pass@1,create_test'], 12);
    expect(task['pass@1_stderr,create_test']).toBeCloseTo(lmEval['pass@1_stderr,create_test'], 12);
    expect(results.higher_is_better.parity_pass_at_k['pass@1']).toBe(true);
  });

  it('the leaf tasks score as in lm-eval (same inputs, same answers)', async () => {
    const results = await run(['parity_a', 'parity_b']);
    for (const name of ['parity_a', 'parity_b']) {
      expect(results.results[name]['acc,none']).toBeCloseTo(expected.results[name]['acc,none'], 12);
      expect(results.results[name]['acc_stderr,none']).toBeCloseTo(
        expected.results[name]['acc_stderr,none'],
        12,
      );
      expect(results.results[name].sample_len).toBe(expected.results[name].sample_len);
    }
  });
});

describe.skipIf(!lmEval)('the stored lm-eval output', () => {
  it('is what run_lm_eval.py gives with the lm-eval checkout in LM_EVAL_SRC', () => {
    const run = spawnSync(
      'python3',
      [path.join(fixtures, 'run_lm_eval.py'), String(process.env.LM_EVAL_SRC)],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const { lm_eval_commit: _commit, ...stored } = expected;
    expect(JSON.parse(run.stdout)).toEqual({ lm_eval_commit: null, ...stored });
  });
});
