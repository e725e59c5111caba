import {
  adjustPValues,
  isBinary,
  mcnemarTest,
  pairedDifference,
  pairedDifferenceInterval,
  pairedPermutationTest,
} from '../stats/index.js';
import {
  COMPARE_DISCORDANT_MAX,
  type CompareResponse,
  type DiscordantSample,
  type TaskComparison,
} from './api.js';
import type { DiscoveredRun } from './discover.js';
import type { SampleIndex } from './sample-index.js';
import { sampleView } from './sample-view.js';

export type IndexFor = (run: DiscoveredRun, task: string) => SampleIndex;

interface Paired {
  baselineLines: number[];
  candidateLines: number[];
  baseline: number[];
  candidate: number[];
}

/** Pairs two logs' lines by doc_id for one filter and metric, keeping docs scored in both. */
function pairByDoc(baseline: SampleIndex, candidate: SampleIndex, filter: string, metric: string): Paired {
  const bFilter = baseline.filters.indexOf(filter);
  const cFilter = candidate.filters.indexOf(filter);
  const bValues = baseline.metricValues[baseline.metrics.indexOf(metric)];
  const cValues = candidate.metricValues[candidate.metrics.indexOf(metric)];
  const candidateLineByDoc = new Map<number, number>();
  for (let line = 0; line < candidate.lineCount; line++) {
    // Sampled repeats log one line per doc and filter, so the first is the only one.
    if (candidate.filterIds[line] === cFilter && !candidateLineByDoc.has(candidate.docIds[line])) {
      candidateLineByDoc.set(candidate.docIds[line], line);
    }
  }
  const paired: Paired = { baselineLines: [], candidateLines: [], baseline: [], candidate: [] };
  for (let line = 0; line < baseline.lineCount; line++) {
    if (baseline.filterIds[line] !== bFilter) continue;
    const other = candidateLineByDoc.get(baseline.docIds[line]);
    if (other === undefined) continue;
    const b = bValues[line];
    const c = cValues[other];
    if (!Number.isFinite(b) || !Number.isFinite(c)) continue;
    paired.baselineLines.push(line);
    paired.candidateLines.push(other);
    paired.baseline.push(b);
    paired.candidate.push(c);
  }
  return paired;
}

async function discordantSamples(
  baseline: SampleIndex,
  candidate: SampleIndex,
  paired: Paired,
  positions: number[],
): Promise<DiscordantSample[]> {
  const shown = positions.slice(0, COMPARE_DISCORDANT_MAX);
  const bSamples = await baseline.readLines(shown.map((i) => paired.baselineLines[i]));
  const cSamples = await candidate.readLines(shown.map((i) => paired.candidateLines[i]));
  return shown.map((position, i) => {
    const b = sampleView(bSamples[i], paired.baselineLines[position]);
    const c = sampleView(cSamples[i], paired.candidateLines[position]);
    return {
      docId: b.docId,
      prompt: b.prompt,
      target: b.target,
      baselineResponse: b.filteredResponse,
      candidateResponse: c.filteredResponse,
      baselineScore: paired.baseline[position],
      candidateScore: paired.candidate[position],
    };
  });
}

/**
 * Paired statistics of each later run against the first (the baseline), per shared task, filter and
 * metric, from the sample logs: the difference with its 95% interval (Tango's score interval for 0/1
 * scores, as `assay compare`), McNemar's test for 0/1 scores
 * (a permutation test otherwise), and Holm-adjusted p-values across every row.
 */
export async function compareRuns(runs: DiscoveredRun[], indexFor: IndexFor): Promise<CompareResponse> {
  const [baseline, ...candidates] = runs;
  const rows: Omit<TaskComparison, 'adjustedPValue'>[] = [];
  const skipped: CompareResponse['skipped'] = [];
  for (const candidate of candidates) {
    for (const task of baseline.summary.tasks) {
      if (!candidate.summary.tasks.includes(task)) continue;
      const skip = (reason: string) => skipped.push({ task, candidateRun: candidate.summary.id, reason });
      if (!baseline.sampleFiles.has(task) || !candidate.sampleFiles.has(task)) {
        skip('no sample log in both runs (run with --log_samples)');
        continue;
      }
      const bIndex = indexFor(baseline, task);
      const cIndex = indexFor(candidate, task);
      await Promise.all([bIndex.waitFor(Number.POSITIVE_INFINITY), cIndex.waitFor(Number.POSITIVE_INFINITY)]);
      for (const filter of bIndex.filters) {
        if (!cIndex.filters.includes(filter)) continue;
        for (const metric of bIndex.metrics) {
          if (!cIndex.metrics.includes(metric)) continue;
          const paired = pairByDoc(bIndex, cIndex, filter, metric);
          if (paired.baseline.length < 2) {
            skip(`${metric} (${filter}): fewer than 2 docs scored in both runs`);
            continue;
          }
          const stats = pairedDifference(paired.baseline, paired.candidate);
          // The same interval `assay compare` reports: Tango's score interval for 0/1 scores.
          const interval = pairedDifferenceInterval(paired.baseline, paired.candidate);
          const binary = isBinary(paired.baseline) && isBinary(paired.candidate);
          const differing: number[] = [];
          for (let i = 0; i < paired.baseline.length; i++)
            if (paired.baseline[i] !== paired.candidate[i]) differing.push(i);
          let flips: TaskComparison['flips'] = null;
          let pValue: number;
          if (binary && stats.flips) {
            const rightToWrong = stats.flips.rightToWrong.length;
            const wrongToRight = stats.flips.wrongToRight.length;
            let bothRight = 0;
            for (let i = 0; i < paired.baseline.length; i++)
              if (paired.baseline[i] === 1 && paired.candidate[i] === 1) bothRight++;
            flips = {
              bothRight,
              bothWrong: paired.baseline.length - bothRight - rightToWrong - wrongToRight,
              rightToWrong,
              wrongToRight,
            };
            pValue = mcnemarTest(rightToWrong, wrongToRight).pValue;
          } else {
            const differences = paired.candidate.map((value, i) => value - paired.baseline[i]);
            pValue = differing.length === 0 ? 1 : pairedPermutationTest(differences, { seed: 0 }).pValue;
          }
          rows.push({
            task,
            metric,
            filter,
            baselineRun: baseline.summary.id,
            candidateRun: candidate.summary.id,
            n: stats.n,
            baselineMean: stats.baselineMean,
            candidateMean: stats.candidateMean,
            difference: stats.difference,
            standardError: stats.standardError,
            ci: [interval.low, interval.high],
            test: binary ? 'mcnemar' : 'permutation',
            pValue,
            flips,
            discordantCount: differing.length,
            discordant: await discordantSamples(bIndex, cIndex, paired, differing),
          });
        }
      }
    }
  }
  const adjusted = rows.length
    ? adjustPValues(
        rows.map((row) => row.pValue),
        'holm',
      )
    : [];
  return {
    runs: runs.map((run) => run.summary),
    baseline: baseline.summary.id,
    rows: rows.map((row, i) => ({ ...row, adjustedPValue: adjusted[i] })),
    skipped,
  };
}
