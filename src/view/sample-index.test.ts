import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResults } from '../results/read-run.js';
import { compareRuns } from './compare.js';
import type { DiscoveredRun } from './discover.js';
import { SampleIndex } from './sample-index.js';

function line(docId: number, correct: number, response: string, filter = 'none') {
  return {
    doc_id: docId,
    doc: { question: `Q${docId} é “quoted” \n newline` },
    target: '7',
    arguments: { gen_args_0: { arg_0: `Question ${docId}: "what"?`, arg_1: { until: ['\n'] } } },
    resps: [[response]],
    filtered_resps: [response],
    filter,
    metrics: ['exact_match', 'score'],
    doc_hash: `hash of doc ${docId}`,
    prompt_hash: 'y',
    target_hash: 'z',
    fewshot_ids: [],
    exact_match: correct,
    score: docId / 10,
  };
}

function writeLog(lines: object[]): string {
  const file = path.join(
    mkdtempSync(path.join(os.tmpdir(), 'assay-index-')),
    'samples_t_2026-01-01T00-00-00.000000.jsonl',
  );
  writeFileSync(file, lines.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  return file;
}

describe('SampleIndex', () => {
  it('indexes by byte offset across chunk boundaries and multibyte text, and pages', async () => {
    // ~6 MB, so lines straddle the 1 MB read chunks; the padding is multibyte.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      line(i, i % 3 === 0 ? 1 : 0, `answer ${i} ${'ü'.repeat(1000)}`),
    );
    const index = SampleIndex.open(writeLog(lines));
    const page = await index.page('t', { offset: 1995, limit: 10 });
    expect(page.items.map((item) => item.docId)).toEqual([
      1995, 1996, 1997, 1998, 1999, 2000, 2001, 2002, 2003, 2004,
    ]);
    expect(page.items[5].responses).toEqual([lines[2000].resps[0][0]]);
    await index.waitFor(Number.POSITIVE_INFINITY);
    expect(index.lineCount).toBe(3000);
    const last = await index.page('t', { offset: 2998, limit: 10 });
    expect(last.items.map((item) => item.docId)).toEqual([2998, 2999]);
    expect(last).toMatchObject({
      total: 3000,
      matched: 3000,
      complete: true,
      metrics: ['exact_match', 'score'],
      filters: ['none'],
    });
  });

  it('filters by outcome, metric range, filter name and text (quotes and newlines included)', async () => {
    const lines = [
      line(0, 1, 'seven'),
      line(1, 0, 'say "hi"\nthere'),
      line(2, 0, 'eight', 'strict-match'),
      line(3, 1, 'SEVEN', 'strict-match'),
    ];
    const index = SampleIndex.open(writeLog(lines));
    const ids = async (query: object) =>
      (await index.page('t', { offset: 0, limit: 50, ...query })).items.map((item) => item.docId);
    expect(await ids({ correct: 'incorrect' })).toEqual([1, 2]);
    expect(await ids({ correct: 'correct' })).toEqual([0, 3]);
    expect(await ids({ filter: 'strict-match' })).toEqual([2, 3]);
    expect(await ids({ metric: 'score', min: 0.15, max: 0.25 })).toEqual([2]);
    expect(await ids({ min: 1 })).toEqual([0, 3]);
    expect(await ids({ text: 'seven' })).toEqual([0, 3]);
    expect(await ids({ text: 'say "hi"\nthere' })).toEqual([1]);
    // Field names in the raw JSON are not text a reader sees.
    expect(await ids({ text: 'doc_hash' })).toEqual([]);
    expect(await ids({ text: '“quoted”' })).toEqual([0, 1, 2, 3]);
    // A doc id finds its line again (the samples page's address); with a filter name, one line of it.
    expect(await ids({ doc: 2 })).toEqual([2]);
    expect(await ids({ doc: 2, filter: 'none' })).toEqual([]);
    expect(await ids({ doc: 9 })).toEqual([]);
    const docPage = await index.page('t', { offset: 0, limit: 1, doc: 3 });
    expect(docPage).toMatchObject({ matched: 1, total: 4 });
    expect(docPage.items[0]).toMatchObject({ line: 3, docId: 3, filter: 'strict-match' });
    const page = await index.page('t', { offset: 1, limit: 1, correct: 'incorrect' });
    expect(page).toMatchObject({ matched: 2, total: 4, offset: 1 });
    expect(page.items[0]).toMatchObject({
      docId: 2,
      correct: false,
      filter: 'strict-match',
      filteredResponse: 'eight',
      prompt: 'Question 2: "what"?',
    });
  });

  it('reports a line that is not a sample, with its line number, as that line alone', async () => {
    const file = writeLog([line(0, 1, 'a')]);
    writeFileSync(
      file,
      `${JSON.stringify(line(0, 1, 'a'))}\n{"nope":1}\n${JSON.stringify(line(2, 0, 'b'))}\n`,
    );
    const index = SampleIndex.open(file);
    await index.waitFor(Number.POSITIVE_INFINITY);
    expect(index.failure).toBe(null);
    expect([...index.invalid]).toEqual([
      [
        1,
        'line 2 of the sample log is not a sample line: doc_id: Invalid input: expected number, received undefined',
      ],
    ]);
    const page = await index.page('t', { offset: 0, limit: 10 });
    expect(page.items.map((item) => [item.docId, item.error])).toEqual([
      [0, null],
      [
        -1,
        'line 2 of the sample log is not a sample line: doc_id: Invalid input: expected number, received undefined',
      ],
      [2, null],
    ]);
  });
});

describe('compareRuns', () => {
  const run = (id: string, file: string): DiscoveredRun =>
    ({
      summary: {
        id,
        label: id,
        root: 0,
        model: 'm',
        modelArgs: '',
        tasks: ['t'],
        date: 0,
        gitHash: null,
        partial: false,
        limit: null,
        sampleTasks: ['t'],
      },
      resultsFile: `${id}/results_2026-01-01T00-00-00.000000.json`,
      // exact_match is the task's first metric: the one compared, as `assay compare` does.
      results: parseResults(
        {
          results: { t: { alias: 't', 'exact_match,none': 0.5, 'score,none': 0.25 } },
          configs: { t: {} },
          higher_is_better: { t: { exact_match: true, score: true } },
        },
        'results.json',
      ),
      sampleFiles: new Map([['t', file]]),
    }) as DiscoveredRun;

  it('pairs docs by content hash and counts flips; discordant samples carry both responses', async () => {
    const baseline = [1, 1, 0, 0, 1, 0].map((value, i) => line(i, value, `b${i}`));
    // Candidate written in another order: pairing is by doc_hash, not position.
    const candidate = [1, 0, 1, 0, 1, 1].map((value, i) => line(i, value, `c${i}`)).reverse();
    const indexes = new Map<string, SampleIndex>();
    const indexFor = (entry: DiscoveredRun) => {
      const file = entry.sampleFiles.get('t') as string;
      if (!indexes.has(file)) indexes.set(file, SampleIndex.open(file));
      return indexes.get(file) as SampleIndex;
    };
    const result = await compareRuns([run('a', writeLog(baseline)), run('b', writeLog(candidate))], indexFor);
    const accuracy = result.rows.find((row) => row.metric === 'exact_match');
    expect(accuracy).toMatchObject({
      n: 6,
      baselineMean: 0.5,
      candidateMean: 4 / 6,
      test: 'mcnemar',
      discordantCount: 3,
    });
    expect(accuracy?.flips).toEqual({ bothRight: 2, bothWrong: 1, rightToWrong: 1, wrongToRight: 2 });
    expect(accuracy?.difference).toBeCloseTo(1 / 6, 12);
    expect(
      accuracy?.discordant.map((sample) => [sample.docId, sample.baselineResponse, sample.candidateResponse]),
    ).toEqual([
      [1, 'b1', 'c1'],
      [2, 'b2', 'c2'],
      [5, 'b5', 'c5'],
    ]);
    // Issue 18: the engine of `assay compare`, which compares each task on its first metric: one row,
    // so Holm leaves p as it is (the viewer used to add a `score` row and adjust over both).
    expect(result.rows.map((row) => [row.kind, row.task, row.metric])).toEqual([
      ['task', 't', 'exact_match'],
    ]);
    expect(accuracy?.adjustedPValue).toBe(accuracy?.pValue);
  });

  it('reports the Tango score interval for 0/1 scores, inside [−1, 1]', async () => {
    // 9 of 10 docs go from right to wrong: the normal interval was −0.9 ± 0.196 = [−1.096, −0.704].
    const baseline = Array.from({ length: 10 }, (_, i) => line(i, 1, `b${i}`));
    const candidate = Array.from({ length: 10 }, (_, i) => line(i, i === 0 ? 1 : 0, `c${i}`));
    const indexes = new Map<string, SampleIndex>();
    const indexFor = (entry: DiscoveredRun) => {
      const file = entry.sampleFiles.get('t') as string;
      if (!indexes.has(file)) indexes.set(file, SampleIndex.open(file));
      return indexes.get(file) as SampleIndex;
    };
    const result = await compareRuns([run('a', writeLog(baseline)), run('b', writeLog(candidate))], indexFor);
    const row = result.rows.find((entry) => entry.metric === 'exact_match');
    // SciPy brentq on Tango's statistic (test/fixtures/stats/edge_vectors.json).
    expect(row?.ci[0]).toBeCloseTo(-0.9821237869049272, 9);
    expect(row?.ci[1]).toBeCloseTo(-0.37268768026051047, 9);
  });
});
