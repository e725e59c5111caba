/**
 * Golden tests per stage (plan, execute, score, aggregate, and the run and results file that chain them),
 * each fed what lm-eval itself logged for the same tasks and the same model: lm-eval's sample logs and
 * results for test/fixtures/lm-eval-stages/tasks, written by lm-eval's evaluator (run_lm_eval.py beside
 * them, commit in expected.json's `lm_eval_commit`; its `Fixed` model answers every request from the
 * request's text alone, and the scripted backend here gives the same answers).
 *
 * Each stage takes the previous stage's values from lm-eval, not from assay's previous stage, so a stage
 * that goes wrong fails its own test: score gets lm-eval's responses, aggregate gets lm-eval's per-doc
 * metric values and no plan.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../src/errors.js';
import { aggregateTask, aggregationSpec } from '../src/evaluate/aggregate.js';
import { executeRequests } from '../src/evaluate/execute.js';
import { metricListFor, planTask, type TaskPlan } from '../src/evaluate/plan.js';
import { instanceArguments, type Response } from '../src/evaluate/requests.js';
import { type Responses, respsOf, type TaskResponses } from '../src/evaluate/responses.js';
import { runEvaluation } from '../src/evaluate/run-evaluation.js';
import { resolveRunOptions } from '../src/evaluate/run-options.js';
import { type ScoredDoc, scoreTask } from '../src/evaluate/score.js';
import { DummyBackend } from '../src/models/dummy/dummy-backend.js';
import { scriptedBackend } from '../src/models/scripted/scripted-backend.js';
import { plainValue } from '../src/python/codec.js';
import { buildResults } from '../src/report/build.js';
import { sampleLine } from '../src/report/samples.js';
import { resolveTasks } from '../src/tasks/manager.js';
import { type LoadedTask, leafTasks } from '../src/tasks/task.js';

// biome-ignore lint/suspicious/noExplicitAny: lm-eval's JSON is read field by field
type Json = Record<string, any>;

const fixtures = path.join(import.meta.dirname, 'fixtures', 'lm-eval-stages');
const expected = JSON.parse(readFileSync(path.join(fixtures, 'expected.json'), 'utf8')) as Json;
const TASKS = ['stages_mc', 'stages_gen', 'stages_rolling'] as const;

/** lm-eval's lines of a task and filter, by doc id. */
function linesOf(task: string, filter?: string): Json[] {
  return (expected.samples[task] as Json[])
    .filter((line) => filter === undefined || line.filter === filter)
    .sort((a, b) => a.doc_id - b.doc_id);
}

/** run_lm_eval.py's `Fixed` model (Python's len counts code points). */
const length = (text: string) => [...text].length;
function fixedBackend() {
  return scriptedBackend({
    name: 'fixed',
    loglikelihood: (request) => ({
      logprob: -1 * length(request.continuation) - 0.5 * (length(request.context) % 3),
      isGreedy: false,
    }),
    loglikelihoodRolling: (request) => -1 * length(request.text),
    generate: (request) => ` answer${length(request.context) % 3}`,
  });
}

/** One lm-eval response (a repeat of an Instance) as assay holds it. */
function response(value: unknown): Response {
  if (Array.isArray(value)) return { logprob: value[0] as number, isGreedy: value[1] as boolean };
  return value as Response;
}

/** A response as lm-eval's in-memory sample holds it, for comparison. */
function asLmEval(value: unknown): unknown {
  if (value && typeof value === 'object' && 'logprob' in value) {
    const result = value as { logprob: number; isGreedy: boolean };
    return [result.logprob, result.isGreedy];
  }
  return plainValue(value);
}

const tasks = new Map<string, LoadedTask>();
beforeAll(async () => {
  const nodes = await resolveTasks(
    TASKS.map((name) => path.join(fixtures, 'tasks', `${name}.yaml`)),
    { builtinDir: false },
  );
  for (const task of nodes.flatMap(leafTasks)) tasks.set(task.name, task);
});

function plan(name: string): Promise<TaskPlan> {
  return planTask(tasks.get(name) as LoadedTask, {
    numFewshot: 0,
    fewshotSeed: 1234,
    applyChatTemplate: false,
    fewshotAsMultiturn: false,
    genKwargs: {},
    backend: new DummyBackend(),
  });
}

describe('plan: requests with lm-eval’s arguments', () => {
  it.each(TASKS)('%s: docs in order, each request’s arguments as lm-eval logged them', async (name) => {
    const planned = await plan(name);
    const lines = linesOf(name, linesOf(name)[0].filter);
    expect(planned.docs.map((doc) => doc.docId)).toEqual(lines.map((line) => line.doc_id));
    for (const [position, doc] of planned.docs.entries()) {
      const line = lines[position];
      expect(doc.doc).toEqual(line.doc);
      expect(doc.target).toEqual(line.target);
      const args = doc.instances.map((instance) => Object.values(instanceArguments(instance.args)));
      expect(args).toEqual(line.arguments);
      expect(doc.instances.every((instance) => instance.repeats === (name === 'stages_gen' ? 3 : 1))).toBe(
        true,
      );
    }
  });
});

describe('execute: a scripted backend’s answers, mapped back to each request', () => {
  it.each(TASKS)('%s: every request’s responses (one per repeat) are lm-eval’s', async (name) => {
    const planned = await plan(name);
    const instances = planned.docs.flatMap((doc) => doc.instances);
    const backend = fixedBackend();
    const { responses, latency } = await executeRequests(backend, instances);
    const answers = responses.get(name) as TaskResponses;
    const type = instances[0].args.type;
    // Identical requests are sent once (every repeat of a greedy generation shares one answer).
    expect(latency[type]?.requests).toBe(
      new Set(instances.map((instance) => JSON.stringify(instance.args))).size,
    );
    const lines = linesOf(name, linesOf(name)[0].filter);
    for (const [position, doc] of planned.docs.entries()) {
      expect(respsOf(answers, doc.instances).map((resps) => resps.map(asLmEval))).toEqual(
        lines[position].resps,
      );
    }
  });
});

/**
 * A plan, and responses built by hand from lm-eval's logged `resps` (by the plan's request ids), so
 * scoring is tested on lm-eval's inputs.
 */
async function planWithLmEvalResponses(name: string): Promise<{ planned: TaskPlan; responses: Responses }> {
  const planned = await plan(name);
  const lines = linesOf(name, linesOf(name)[0].filter);
  const answers: TaskResponses = { resps: [] };
  for (const [position, doc] of planned.docs.entries()) {
    for (const [index, instance] of doc.instances.entries())
      answers.resps[instance.id] = (lines[position].resps[index] as unknown[]).map(response);
  }
  return { planned, responses: new Map([[name, answers]]) };
}

/** Freezes a value and everything it holds, so that any write to it throws. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

describe('score: lm-eval’s responses → lm-eval’s per-doc filtered responses and metric values', () => {
  it.each(TASKS)('%s: every filter, every doc', async (name) => {
    const { planned, responses } = await planWithLmEvalResponses(name);
    const scored = await scoreTask(planned, responses, false);
    const filters = [...new Set(linesOf(name).map((line) => line.filter))].sort();
    expect([...scored.filters].sort()).toEqual(filters);
    for (const filter of filters) {
      const docs = scored.byFilter.get(filter) as ScoredDoc[];
      const lines = linesOf(name, filter);
      expect(docs.map((doc) => doc.docId)).toEqual(lines.map((line) => line.doc_id));
      for (const [position, doc] of docs.entries()) {
        const line = lines[position];
        expect(doc.error).toBeUndefined();
        expect(doc.filtered.map(asLmEval)).toEqual(line.filtered_resps);
        expect(Object.keys(doc.metrics)).toEqual(line.metrics);
        for (const metric of line.metrics as string[])
          expect(plainValue(doc.metrics[metric])).toEqual(line[metric]);
      }
    }
  });

  it.each(TASKS)('%s: writes nothing into the plan’s docs or the responses it is given', async (name) => {
    const { planned, responses } = await planWithLmEvalResponses(name);
    const answers = responses.get(name) as TaskResponses;
    const before = structuredClone({ docs: planned.docs, answers });
    deepFreeze(planned.docs);
    deepFreeze(answers);
    const scored = await scoreTask(planned, responses, false);
    expect({ docs: planned.docs, answers }).toEqual(before);
    const filter = scored.filters[0];
    expect((scored.byFilter.get(filter) as ScoredDoc[]).map((doc) => doc.filtered.map(asLmEval))).toEqual(
      linesOf(name, filter).map((line) => line.filtered_resps),
    );
  });

  it('stages_gen (repeats: 3): each repeat scored alone; lm-eval answered every repeat alike, so each repeat scores what the doc scores', async () => {
    const { planned, responses } = await planWithLmEvalResponses('stages_gen');
    const scored = await scoreTask(planned, responses, false);
    for (const filter of scored.filters) {
      const lines = linesOf('stages_gen', filter);
      for (const [position, doc] of (scored.byFilter.get(filter) as ScoredDoc[]).entries()) {
        const value = lines[position].exact_match as number;
        expect(doc.repeatScores).toEqual({ exact_match: [value, value, value] });
      }
    }
  });

  it('repeats that differ: each repeat through the filter alone (regex `answer(\\d)` against the target)', async () => {
    const { planned, responses } = await planWithLmEvalResponses('stages_gen');
    // Doc 0's target is "0": repeats answer 0, 1, 0.
    (responses.get('stages_gen') as TaskResponses).resps[planned.docs[0].instances[0].id] = [
      ' answer0',
      ' answer1',
      ' answer0',
    ];
    const scored = await scoreTask(planned, responses, false);
    for (const filter of ['digit', 'vote']) {
      const doc = (scored.byFilter.get(filter) as ScoredDoc[])[0];
      expect(doc.repeatScores).toEqual({ exact_match: [1, 0, 1] });
    }
    // The doc's own score: take_first keeps repeat 0; majority_vote picks "0" (two of three).
    expect((scored.byFilter.get('digit') as ScoredDoc[])[0].metrics.exact_match).toBe(1);
    expect((scored.byFilter.get('vote') as ScoredDoc[])[0].metrics.exact_match).toBe(1);
  });

  it('a repeat that cannot be scored alone is a scoring error naming the doc, never a silent hole', async () => {
    const { planned, responses } = await planWithLmEvalResponses('stages_gen');
    // A process_results that fails on one answer: the doc's own scoring (take_first: repeat 0) succeeds,
    // scoring repeat 1 alone does not.
    const task = { ...planned.task, config: { ...planned.task.config } };
    task.config.process_results = {
      ref: 'utils.fails_on_one',
      fn: (_doc: unknown, results: unknown[]) => {
        if (results[0] === '1') throw new Error('cannot score "1"');
        return { exact_match: 1 };
      },
    } as never;
    planned.task = task as LoadedTask;
    (responses.get('stages_gen') as TaskResponses).resps[planned.docs[0].instances[0].id] = [
      ' answer0',
      ' answer1',
      ' answer0',
    ];
    const error = await scoreTask(planned, responses, false).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AssayError);
    expect((error as AssayError).code).toBe('scoring_error');
    expect((error as AssayError).message).toContain('repeat 1 of 3');
    expect((error as AssayError).message).toContain('cannot score "1"');
    expect((error as AssayError).location).toMatchObject({ task: 'stages_gen', docId: 0 });
  });

  it('the sample line keeps lm-eval’s keys and values, and adds assay’s beside them', async () => {
    const { planned, responses } = await planWithLmEvalResponses('stages_gen');
    const scored = await scoreTask(planned, responses, false);
    const answers = responses.get('stages_gen') as TaskResponses;
    for (const filter of scored.filters) {
      const lines = linesOf('stages_gen', filter);
      for (const [position, doc] of (scored.byFilter.get(filter) as ScoredDoc[]).entries()) {
        const line = sampleLine(planned.docs[position], answers, doc);
        const lmEval = lines[position];
        for (const key of [
          'doc_id',
          'doc',
          'target',
          'filter',
          'metrics',
          'doc_hash',
          'prompt_hash',
          'target_hash',
        ])
          expect(line[key]).toEqual(lmEval[key]);
        expect(line.exact_match).toEqual(lmEval.exact_match);
        expect(line.repeat_scores).toEqual({
          exact_match: [lmEval.exact_match, lmEval.exact_match, lmEval.exact_match],
        });
      }
    }
  });
});

describe('perplexity stage: returns new scored docs, changes none it was given', () => {
  it('stages_rolling: each doc’s Σ log p (lm-eval’s response) in a new doc; the scored docs given keep theirs', async () => {
    const { PerplexityStage } = await import('../src/evaluate/perplexity/stage.js');
    const { planned, responses } = await planWithLmEvalResponses('stages_rolling');
    const backend = fixedBackend();
    const stage = await PerplexityStage.plan(backend, [planned], undefined);
    // Rolling mode: the stage answers nothing itself; it counts tokens over execute's answers.
    expect((await stage.run(backend, responses)).size).toBe(0);
    const scored = await scoreTask(planned, responses, false);
    const before = structuredClone(scored.byFilter.get('none') as ScoredDoc[]);
    const annotated = stage.annotate(scored);
    expect(scored.byFilter.get('none')).toEqual(before);
    const docs = annotated.byFilter.get('none') as ScoredDoc[];
    expect(docs.map((doc) => doc.ppl?.logprob)).toEqual(
      linesOf('stages_rolling').map((line) => line.resps[0][0]),
    );
    expect(docs.map((doc) => plainValue(doc.metrics.word_perplexity))).toEqual(
      linesOf('stages_rolling').map((line) => line.word_perplexity),
    );
  });
});

/** lm-eval's per-doc metric values as scored docs: no plan, no responses. */
function scoredFromLmEval(name: string): { filters: string[]; byFilter: Map<string, ScoredDoc[]> } {
  const filters = [...new Set(linesOf(name).map((line) => line.filter))];
  const byFilter = new Map(
    filters.map((filter): [string, ScoredDoc[]] => [
      filter,
      linesOf(name, filter).map((line) => ({
        docId: line.doc_id,
        filter,
        filtered: line.filtered_resps,
        metrics: Object.fromEntries((line.metrics as string[]).map((metric) => [metric, line[metric]])),
      })),
    ]),
  );
  return { filters, byFilter };
}

describe('aggregate: lm-eval’s per-doc values → lm-eval’s task results, with no plan', () => {
  it.each(TASKS)('%s: every metric’s value and stderr', async (name) => {
    const task = tasks.get(name) as LoadedTask;
    const scored = scoredFromLmEval(name);
    const result = await aggregateTask(
      scored,
      { task, metricList: metricListFor(task), sampleLen: linesOf(name, scored.filters[0]).length },
      { bootstrapIters: 100000, predictOnly: false },
    );
    const want = expected.results[name] as Json;
    expect(result.sampleLen).toBe(want.sample_len);
    const keys = Object.keys(want).filter((key) => key.includes(',') && !key.includes('_stderr,'));
    expect(result.metrics.map((metric) => `${metric.metric},${metric.filter}`).sort()).toEqual(keys.sort());
    for (const metric of result.metrics) {
      const key = `${metric.metric},${metric.filter}`;
      expect(metric.value).toBeCloseTo(want[key], 12);
      const stderr = want[`${metric.metric}_stderr,${metric.filter}`];
      if (stderr === 'N/A') expect(metric.stderr).toBe('N/A');
      else expect(metric.stderr).toBeCloseTo(stderr, 12);
    }
  });

  it('repeats: the within-question variance from the logged per-repeat scores (hand-computed)', async () => {
    const task = tasks.get('stages_gen') as LoadedTask;
    const perRepeat = [
      [1, 0, 1],
      [0, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
    ];
    const docs: ScoredDoc[] = perRepeat.map((scores, docId) => ({
      docId,
      filter: 'digit',
      filtered: [],
      metrics: { exact_match: scores[0] },
      repeatScores: { exact_match: scores },
    }));
    const result = await aggregateTask(
      { filters: ['digit'], byFilter: new Map([['digit', docs]]) },
      { task, metricList: metricListFor(task), sampleLen: 4 },
      { bootstrapIters: 0, predictOnly: false },
    );
    // Per question: the n−1 variance of its three scores; their mean is E[σ²ᵢ].
    const variance = (values: number[]) => {
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
    };
    const within = perRepeat.map(variance).reduce((a, b) => a + b, 0) / perRepeat.length;
    const means = perRepeat.map((scores) => scores.reduce((a, b) => a + b, 0) / scores.length);
    const repeats = result.metrics[0].repeats;
    expect(repeats?.k).toBe(3);
    expect(repeats?.questions).toBe(4);
    expect(repeats?.withinQuestionVariance).toBeCloseTo(within, 14);
    expect(repeats?.varianceOfQuestionMeans).toBeCloseTo(variance(means), 14);
    expect(repeats?.varianceOfMean).toBeCloseTo(variance(means) / 4, 14);
    // A doc without per-repeat scores for the metric (a filter that needs every response): no summary.
    delete docs[2].repeatScores;
    const without = await aggregateTask(
      { filters: ['digit'], byFilter: new Map([['digit', docs]]) },
      { task, metricList: metricListFor(task), sampleLen: 4 },
      { bootstrapIters: 0, predictOnly: false },
    );
    expect(without.metrics[0].repeats).toBeUndefined();
    expect(without.metrics[0].value).toBe(result.metrics[0].value);
  });

  it('cluster_by: clustered by the keys scoring logged; a doc without one is named', async () => {
    const base = tasks.get('stages_mc') as LoadedTask;
    const task = { ...base, config: { ...base.config, cluster_by: 'subject' } } as LoadedTask;
    const { planned, responses } = await planWithLmEvalResponses('stages_mc');
    const scored = await scoreTask({ ...planned, task }, responses, false);
    const docs = scored.byFilter.get('none') as ScoredDoc[];
    expect(docs.map((doc) => doc.clusterKey)).toEqual(linesOf('stages_mc').map((line) => line.doc.subject));
    const spec = { task, metricList: metricListFor(task), sampleLen: docs.length };
    const result = await aggregateTask(scored, spec, { bootstrapIters: 0, predictOnly: false });
    expect(result.metrics.map((metric) => metric.clustered?.clusters)).toEqual([2, 2]);
    expect(result.metrics.map((metric) => metric.clustered?.by)).toEqual(['subject', 'subject']);
    delete docs[3].clusterKey;
    const error = await aggregateTask(scored, spec, { bootstrapIters: 0, predictOnly: false }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as AssayError).code).toBe('bad_data');
    expect((error as AssayError).location).toMatchObject({
      task: 'stages_mc',
      docId: 3,
      field: 'cluster_by',
    });
  });
});

describe('run and results file: the stages chained give lm-eval’s results', () => {
  it('runEvaluation with the scripted backend, then buildResults: lm-eval’s values, stderrs, sample_len', async () => {
    const nodes = TASKS.map((name) => tasks.get(name) as LoadedTask);
    const options = resolveRunOptions({
      model: 'fixed',
      tasks: [...TASKS],
      numFewshot: 0,
      bootstrapIters: 100000,
      seeds: { random: 0, numpy: 1234, torch: 1234, fewshot: 1234 },
    });
    const run = await runEvaluation(fixedBackend(), nodes, {
      ...options,
      modelLabel: { model: 'fixed', modelArgs: '' },
    });
    expect(run.plans.map((planned) => aggregationSpec(planned).sampleLen)).toEqual(
      TASKS.map((name) => expected.results[name].sample_len),
    );
    const results = buildResults({
      record: run.record,
      nodes: run.nodes,
      plans: run.plans,
      taskResults: run.taskResults,
      groupResults: run.groupResults,
      taskHashes: {},
      latency: run.latency,
      startDate: run.startDate,
      seconds: run.seconds,
    });
    for (const name of TASKS) {
      const want = expected.results[name] as Json;
      const got = results.results[name] as Json;
      expect(Object.keys(got).sort()).toEqual(expect.arrayContaining(Object.keys(want).sort()));
      for (const [key, value] of Object.entries(want)) {
        if (typeof value === 'number') expect(got[key]).toBeCloseTo(value, 12);
        else expect(got[key]).toEqual(value);
      }
      expect(results['n-samples'][name]).toEqual(expected['n-samples'][name]);
      expect(results.higher_is_better[name]).toEqual(expected.higher_is_better[name]);
    }
  });
});
