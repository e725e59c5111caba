import { describe, expect, test } from 'vitest';
import type { CompareResponse, PrimaryScore, RunSummary, TaskComparison } from './api.js';
import {
  distinguishingArgs,
  groupByModel,
  matrixColumns,
  pairableRuns,
  shortModelName,
  significance,
  starOf,
} from './results-matrix.js';

function score(value: number | null, extra: Partial<PrimaryScore> = {}): PrimaryScore {
  return { metric: 'acc', filter: 'none', value, stderr: 0.01, ci: null, higherIsBetter: true, ...extra };
}

function run(
  id: string,
  model: string,
  scores: Record<string, PrimaryScore>,
  extra: Partial<RunSummary> = {},
): RunSummary {
  return {
    id,
    label: `${id}/results.json`,
    root: 0,
    model,
    modelArgs: '',
    modelArgEntries: [],
    tasks: Object.keys(scores),
    date: 1000,
    gitHash: null,
    partial: false,
    limit: null,
    sampleTasks: Object.keys(scores),
    scores,
    timeouts: null,
    ...extra,
  };
}

const runs = [
  run('a', 'llama', {
    arc: score(0.6),
    ppl: score(9.1, { metric: 'word_perplexity', higherIsBetter: false }),
  }),
  run('b', 'llama', {
    arc: score(0.7),
    ppl: score(8.5, { metric: 'word_perplexity', higherIsBetter: false }),
  }),
  run('c', 'qwen', { arc: score(0.7) }),
  // A --limit run with the top score: it ranks with nothing.
  run('d', 'qwen', { arc: score(0.9) }, { partial: true, limit: 5 }),
  // Reports another metric first for arc: not ranked in the acc column.
  run('e', 'mistral', { arc: score(0.95, { metric: 'acc_norm' }) }),
];

describe('results matrix', () => {
  test('columns rank on the most common primary metric; a star is matched to its column by metric and filter', () => {
    const columns = matrixColumns(runs);
    expect(columns).toEqual([
      { task: 'arc', metric: 'acc', filter: 'none', higherIsBetter: true },
      { task: 'ppl', metric: 'word_perplexity', filter: 'none', higherIsBetter: false },
    ]);
    // Which run gets the ★ is the server's paired tests (best-runs.test.ts); the page only finds the entry.
    const star = { task: 'arc', metric: 'acc', filter: 'none', run: 'b', entrants: 3, beaten: [], note: '' };
    const stars = { stars: [star, { ...star, metric: 'acc_norm', run: 'e' }] };
    expect(starOf(stars, columns[0])).toBe(star);
    expect(starOf(stars, columns[1])).toBeUndefined();
    expect(starOf(undefined, columns[0])).toBeUndefined();
  });

  test('a row shows the model name: a file path by its last part; the args that tell a model’s runs apart', () => {
    expect(shortModelName('/data/models/stories260K.gguf')).toBe('stories260K.gguf');
    expect(shortModelName('./models/tiny.gguf')).toBe('tiny.gguf');
    expect(shortModelName('C:\\models\\tiny.gguf')).toBe('tiny.gguf');
    expect(shortModelName('EleutherAI/pythia-70m')).toBe('EleutherAI/pythia-70m');
    const entries = (text: string) =>
      text.split(',').map((part) => ({ key: part.split('=')[0], value: part.split('=')[1] }));
    const group = [
      run('x', 'm', {}, { modelArgEntries: entries('model=m.gguf,seed=1,temperature=0') }),
      run('y', 'm', {}, { modelArgEntries: entries('model=m.gguf,seed=2,temperature=0') }),
      run('z', 'm', {}, { modelArgEntries: entries('model=m.gguf,temperature=0') }),
    ];
    expect(distinguishingArgs(group)).toEqual(
      new Map([
        ['x', 'seed=1'],
        ['y', 'seed=2'],
        ['z', ''],
      ]),
    );
    expect(distinguishingArgs(group.slice(0, 1))).toEqual(new Map([['x', '']]));
  });

  test('runs are grouped by model; groups follow their first row; runs without the value sort last', () => {
    const byArc = groupByModel(runs, { key: 'task:arc', descending: true });
    expect(byArc.map((group) => [group.model, group.runs.map((entry) => entry.id)])).toEqual([
      ['mistral', ['e']],
      ['qwen', ['d', 'c']],
      ['llama', ['b', 'a']],
    ]);
    const byPpl = groupByModel(runs, { key: 'task:ppl', descending: false });
    expect(byPpl.map((group) => group.model)).toEqual(['llama', 'mistral', 'qwen']);
    expect(byPpl[0].runs.map((entry) => entry.id)).toEqual(['b', 'a']);
  });

  test('a cell is flagged only when its Holm-adjusted p is below 0.05, in the direction of the metric', () => {
    const row = (
      candidateRun: string,
      difference: number,
      adjustedPValue: number,
      metric = 'acc',
    ): TaskComparison => ({
      kind: 'task',
      task: metric === 'acc' ? 'arc' : 'ppl',
      metric,
      filter: 'none',
      baselineRun: 'a',
      candidateRun,
      n: 100,
      baselineMean: 0.6,
      candidateMean: 0.6 + difference,
      difference,
      standardError: 0.01,
      ci: [difference - 0.02, difference + 0.02],
      test: 'mcnemar',
      pValue: adjustedPValue / 2,
      adjustedPValue,
      flips: null,
      discordantCount: 0,
      discordant: [],
    });
    const compare: CompareResponse = {
      runs,
      baseline: 'a',
      rows: [row('b', 0.1, 0.001), row('c', 0.1, 0.2), row('b', -0.6, 0.01, 'word_perplexity')],
      skipped: [],
    };
    const [arc, ppl] = matrixColumns(runs);
    expect(significance(compare, arc, 'b')).toEqual({
      difference: 0.1,
      pValue: 0.0005,
      adjustedPValue: 0.001,
      significant: true,
      direction: 'better',
    });
    expect(significance(compare, arc, 'c')?.direction).toBeNull();
    // Lower perplexity is better: a negative difference is an improvement.
    expect(significance(compare, ppl, 'b')?.direction).toBe('better');
    expect(significance(compare, arc, 'e')).toBeUndefined();
    expect(pairableRuns(runs, runs[0]).map((entry) => entry.id)).toEqual(['b', 'c', 'd', 'e']);
  });
});
