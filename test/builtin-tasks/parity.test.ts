/**
 * Prompt parity of the built-in tasks (tasks/) with lm-eval: each task runs as a user would run it,
 * through its YAML in tasks/, the real Hub client (against a loopback Hub serving fixtures.json as
 * parquet) and the planner, and the requests it builds are compared with what lm-eval's own code built
 * for the same docs (lm-eval-expected.ts, which cites the lm-eval files).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clearHubMemo } from '../../src/data/hub/dataset.js';
import { planTask } from '../../src/evaluate/plan.js';
import { DummyBackend } from '../../src/models/dummy/dummy-backend.js';
import { docToTarget } from '../../src/prompts/doc-to.js';
import { resolveTasks } from '../../src/tasks/manager.js';
import { type LoadedTask, leafTasks } from '../../src/tasks/task.js';
import { conversionBranchDataset, type FakeHub, startFakeHub } from '../fakes/hub.js';
import { tempDir } from '../support/helpers.js';
import { type ExpectedRequest, LM_EVAL_EXPECTED } from './lm-eval-expected.js';

type Fixtures = Record<string, Record<string, Record<string, Record<string, unknown>[]>>>;
const fixtures = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'fixtures.json'), 'utf8'),
) as Fixtures;

let hub: FakeHub;
const saved = { ...process.env };

beforeAll(async () => {
  hub = await startFakeHub(
    Object.fromEntries(
      Object.entries(fixtures).map(([id, configs]) => [id, conversionBranchDataset(configs)]),
    ),
  );
  process.env.HF_ENDPOINT = hub.endpoint;
  process.env.HF_HUB_CACHE = tempDir('assay-parity-cache-');
  delete process.env.HF_HUB_OFFLINE;
  delete process.env.HF_TOKEN;
  clearHubMemo();
});

afterAll(async () => {
  process.env = saved;
  await hub.close();
});

async function builtinTask(name: string): Promise<LoadedTask> {
  const [task] = (await resolveTasks([name])).flatMap(leafTasks);
  return task;
}

function requestOf(args: import('../../src/evaluate/requests.js').RequestArgs): ExpectedRequest {
  switch (args.type) {
    case 'loglikelihood':
      return { type: 'loglikelihood', context: args.context, continuation: args.continuation };
    case 'loglikelihood_rolling':
      return { type: 'loglikelihood_rolling', text: args.text };
    case 'generate_until':
      return { type: 'generate_until', context: args.context as string, until: args.generation.until };
  }
}

async function built(name: string) {
  const task = await builtinTask(name);
  const plan = await planTask(task, {
    fewshotSeed: 1234,
    applyChatTemplate: false,
    fewshotAsMultiturn: false,
    genKwargs: {},
    backend: new DummyBackend(),
  });
  return {
    task,
    plan,
    num_fewshot: plan.numFewshot,
    docs: plan.docs.map((planned) => ({
      // doc_to_target as lm-eval defines it; for a multiple-input task (winogrande) the plan's own
      // `target` is the gold index, which lm-eval takes from doc_to_text.
      target: docToTarget(task.config, planned.doc, { task: task.name, docId: planned.docId }),
      requests: [...planned.instances]
        .sort((a, b) => a.index - b.index)
        .map((instance) => requestOf(instance.args)),
    })),
  };
}

describe('built-in tasks build the requests lm-eval builds, byte for byte', () => {
  for (const [name, expected] of Object.entries(LM_EVAL_EXPECTED)) {
    test(name, async () => {
      const { num_fewshot, docs } = await built(name);
      expect({ num_fewshot, docs }).toEqual({ num_fewshot: expected.num_fewshot, docs: expected.docs });
    });
  }
});

describe("built-in tasks' own scoring functions match lm-eval's", () => {
  test('truthfulqa_mc2 process_results_mc2: probability mass of the true answers', async () => {
    const { task, plan } = await built('truthfulqa_mc2');
    const expected = LM_EVAL_EXPECTED.truthfulqa_mc2;
    const processResults = task.config.process_results?.fn;
    expect(processResults).toBeTypeOf('function');
    plan.docs.forEach((planned, index) => {
      const results = (expected.lls as number[][])[index].map((logprob) => ({ logprob, isGreedy: false }));
      const actual = processResults?.(planned.doc, results) as { acc: number };
      expect(actual.acc).toBeCloseTo((expected.process_results as Array<{ acc: number }>)[index].acc, 14);
    });
  });

  test('wikitext process_results counts words and bytes on the original page', async () => {
    const { task, plan } = await built('wikitext');
    const processResults = task.config.process_results?.fn;
    expect(plan.docs.map((planned) => processResults?.(planned.doc, [-123.5]))).toEqual(
      LM_EVAL_EXPECTED.wikitext.process_results,
    );
  });

  test('each built-in task carries the version lm-eval gives it', async () => {
    const versions: Record<string, unknown> = {};
    for (const name of Object.keys(LM_EVAL_EXPECTED)) versions[name] = (await builtinTask(name)).version;
    const mmluSubjects = Object.keys(versions).filter((name) => name.startsWith('mmlu_'));
    expect(mmluSubjects).toHaveLength(57);
    expect(versions).toEqual({
      ...Object.fromEntries(mmluSubjects.map((name) => [name, 1])),
      hellaswag: 1,
      arc_easy: 1,
      arc_challenge: 1,
      piqa: 1,
      boolq: 2,
      openbookqa: 1,
      winogrande: 1,
      lambada_openai: 1,
      wikitext: 2,
      gsm8k: 3,
      gsm8k_cot: 3,
      truthfulqa_mc1: 2,
      truthfulqa_mc2: 3,
      triviaqa: 3,
    });
  });
});

describe('every built-in task runs end to end on the fixtures', () => {
  test('metric keys per task and group, as lm-eval names them', async () => {
    const { simpleEvaluate } = await import('../../src/run/evaluate.js');
    const names = Object.keys(LM_EVAL_EXPECTED).filter((name) => !name.startsWith('mmlu_'));
    const { results } = await simpleEvaluate({ model: new DummyBackend(), tasks: names, bootstrapIters: 0 });
    const keys = Object.fromEntries(
      Object.entries(results.results).map(([name, entry]) => [
        name,
        Object.keys(entry as object)
          .filter((key) => key.includes(',') && !key.includes('_stderr') && !key.includes('_ci'))
          .sort(),
      ]),
    );
    expect(keys).toEqual({
      arc_challenge: ['acc,none', 'acc_norm,none'],
      arc_easy: ['acc,none', 'acc_norm,none'],
      boolq: ['acc,none'],
      gsm8k: ['exact_match,flexible-extract', 'exact_match,strict-match'],
      gsm8k_cot: ['exact_match,flexible-extract', 'exact_match,strict-match'],
      hellaswag: ['acc,none', 'acc_norm,none'],
      lambada_openai: ['acc,none', 'perplexity,none'],
      openbookqa: ['acc,none', 'acc_norm,none'],
      piqa: ['acc,none', 'acc_norm,none'],
      triviaqa: ['exact_match,remove_whitespace'],
      truthfulqa_mc1: ['acc,none'],
      truthfulqa_mc2: ['acc,none'],
      wikitext: ['bits_per_byte,none', 'byte_perplexity,none', 'word_perplexity,none'],
      winogrande: ['acc,none'],
    });
    // mc2's acc is a probability mass in [0, 1], not a 0/1 hit.
    const mc2 = (results.results.truthfulqa_mc2 as Record<string, number>)['acc,none'];
    expect(mc2).toBeGreaterThan(0);
    expect(mc2).toBeLessThan(1);
  });

  test('mmlu: 57 subjects under stem, humanities, social_sciences and other, acc aggregated by size', async () => {
    const nodes = await resolveTasks(['mmlu']);
    expect(nodes).toHaveLength(1);
    const [mmlu] = nodes;
    if (mmlu.kind !== 'group') throw new Error('mmlu is a group');
    expect(mmlu.children.map((child) => child.name)).toEqual([
      'mmlu_stem',
      'mmlu_other',
      'mmlu_social_sciences',
      'mmlu_humanities',
    ]);
    expect(mmlu.children.map((child) => leafTasks(child).length)).toEqual([19, 13, 12, 13]);
    const all = leafTasks(mmlu);
    expect(all).toHaveLength(57);
    expect(new Set(all.map((task) => task.config.fewshot_split))).toEqual(new Set(['dev']));
    expect(new Set(all.map((task) => task.config.fewshot_config?.sampler))).toEqual(new Set(['first_n']));
    expect(new Set(all.map((task) => task.config.num_fewshot))).toEqual(new Set([5]));
    expect(mmlu.config.aggregate_metric_list).toEqual([
      { metric: 'acc', aggregation: 'mean', weight_by_size: true },
    ]);
  });
});
