/**
 * The compare page's data: each later run against the first (the baseline), computed by the engine of
 * `assay compare` (results/compare/compare-runs.ts), so the page and the CLI show the same numbers for
 * the same two runs: samples paired by doc_hash, each task on its first metric (every filter), McNemar
 * for 0/1 scores and the sign-flip permutation test otherwise, Holm over the task rows of each candidate
 * and over its group rows apart. The viewer adds what the CLI prints as ids: the discordant docs, with
 * both responses, read from the sample-log indexes.
 */
import { AssayError } from '../errors.js';
import { compareLoadedRuns, type PooledPairs } from '../results/compare/compare-runs.js';
import {
  COMPARE_DISCORDANT_MAX,
  type CompareResponse,
  type DiscordantSample,
  type FlipCounts,
  type TaskComparison,
} from './api.js';
import type { DiscoveredRun } from './discover.js';
import type { SampleIndex } from './sample-index.js';
import { sampleView } from './sample-view.js';

export type IndexFor = (run: DiscoveredRun, task: string) => SampleIndex;

/** Each doc's line under a filter (sampled repeats log one line per doc and filter: the first is it). */
async function linesByDoc(index: SampleIndex, filter: string): Promise<Map<number, number>> {
  await index.waitFor(Number.POSITIVE_INFINITY);
  const filterId = index.filters.indexOf(filter);
  const lines = new Map<number, number>();
  for (let line = 0; line < index.lineCount; line++)
    if (index.filterIds[line] === filterId && !lines.has(index.docIds[line]))
      lines.set(index.docIds[line], line);
  return lines;
}

function flipCounts(a: Float64Array, b: Float64Array): FlipCounts {
  const counts: FlipCounts = { bothRight: 0, bothWrong: 0, rightToWrong: 0, wrongToRight: 0 };
  for (let i = 0; i < a.length; i++) {
    if (a[i] === 1 && b[i] === 1) counts.bothRight++;
    else if (a[i] === 1) counts.rightToWrong++;
    else if (b[i] === 1) counts.wrongToRight++;
    else counts.bothWrong++;
  }
  return counts;
}

/** The first discordant docs of a task row, with both runs' prompts and responses. */
async function discordantSamples(
  entry: PooledPairs,
  baseline: SampleIndex,
  candidate: SampleIndex,
  positions: number[],
): Promise<DiscordantSample[]> {
  const pairs = entry.pairs ?? [];
  const [linesA, linesB] = await Promise.all([
    linesByDoc(baseline, entry.target.filter),
    linesByDoc(candidate, entry.target.filter),
  ]);
  const shown: Array<{ position: number; lineA: number; lineB: number }> = [];
  for (const position of positions) {
    if (shown.length >= COMPARE_DISCORDANT_MAX) break;
    const pair = pairs[position];
    const lineA = pair && linesA.get(pair.docIdA);
    const lineB = pair && linesB.get(pair.docIdB);
    if (lineA !== undefined && lineB !== undefined) shown.push({ position, lineA, lineB });
  }
  const aSamples = await baseline.readLines(shown.map((entry) => entry.lineA));
  const bSamples = await candidate.readLines(shown.map((entry) => entry.lineB));
  return shown.map(({ position, lineA, lineB }, i) => {
    const a = sampleView(aSamples[i], lineA);
    const b = sampleView(bSamples[i], lineB);
    return {
      docId: a.docId,
      prompt: a.prompt,
      target: a.target,
      baselineResponse: a.filteredResponse,
      candidateResponse: b.filteredResponse,
      baselineScore: entry.a[position],
      candidateScore: entry.b[position],
    };
  });
}

export async function compareRuns(runs: DiscoveredRun[], indexFor: IndexFor): Promise<CompareResponse> {
  const [baseline, ...candidates] = runs;
  const rows: TaskComparison[] = [];
  const skipped: CompareResponse['skipped'] = [];
  for (const candidate of candidates) {
    const candidateRun = candidate.summary.id;
    for (const task of baseline.summary.tasks) {
      if (
        candidate.summary.tasks.includes(task) &&
        !(baseline.sampleFiles.has(task) && candidate.sampleFiles.has(task))
      )
        skipped.push({
          task,
          candidateRun,
          reason:
            'no sample log in both runs (paired tests need runs made with --log_samples, `logSamples` in the library)',
        });
    }
    let comparison: ReturnType<typeof compareLoadedRuns>;
    try {
      comparison = compareLoadedRuns(baseline, candidate);
    } catch (error) {
      // "Nothing to compare" and the like: shown on the page, not an error of the whole request.
      if (!(error instanceof AssayError)) throw error;
      skipped.push({ task: '*', candidateRun, reason: error.message });
      continue;
    }
    for (const entry of comparison.skipped) {
      // Tasks without logs in both runs are listed above, in the viewer's words.
      if (entry.reason === 'not in run B' || entry.reason === 'not in run A') continue;
      skipped.push({ task: entry.task, candidateRun, reason: entry.reason });
    }
    const families = [
      { rows: comparison.tasks, pooled: comparison.pooled.tasks },
      { rows: comparison.groups, pooled: comparison.pooled.groups },
    ];
    for (const family of families) {
      for (const [i, row] of family.rows.entries()) {
        const entry = family.pooled[i];
        const differing: number[] = [];
        for (let position = 0; position < entry.a.length; position++)
          if (entry.a[position] !== entry.b[position]) differing.push(position);
        const discordant =
          row.kind === 'task'
            ? await discordantSamples(
                entry,
                indexFor(baseline, row.name),
                indexFor(candidate, row.name),
                differing,
              )
            : [];
        rows.push({
          kind: row.kind,
          task: row.name,
          metric: row.metric,
          filter: row.filter,
          baselineRun: baseline.summary.id,
          candidateRun,
          n: row.n,
          baselineMean: row.meanA,
          candidateMean: row.meanB,
          difference: row.difference,
          standardError: row.standardError,
          ci: row.interval,
          test: row.defaultTest,
          pValue: row.pValue,
          adjustedPValue: row.pValueAdjusted,
          flips: row.binary ? flipCounts(entry.a, entry.b) : null,
          discordantCount: differing.length,
          discordant,
        });
      }
    }
  }
  return { runs: runs.map((run) => run.summary), baseline: baseline.summary.id, rows, skipped };
}
