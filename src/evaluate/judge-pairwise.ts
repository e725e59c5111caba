/**
 * Pairwise judging: the baseline run's responses a pairwise judge compares against, a verdict read in
 * terms of the two responses, and the position-consistency block results.json records.
 */
import { AssayError } from '../errors.js';
import { locateResultsFile, sampleFilesBeside } from '../results/read-run.js';
import { readSampleLog } from '../results/read-samples.js';
import type { JudgeReport } from '../results/results-file.js';
import {
  type PairwiseJudgement,
  type PairwiseVerdict,
  positionConsistency,
} from '../stats/position-consistency.js';

/** The response shown first won (1), lost (0) or tied (0.5): the verdict in terms of the two responses. */
export function positional(score: number, first: PairwiseVerdict, second: PairwiseVerdict): PairwiseVerdict {
  return score === 1 ? first : score === 0 ? second : 'tie';
}

/** results.json `judges[].pairwise`: position consistency and the win rate over the pairs judged. */
export function pairwiseBlock(
  baseline: string,
  judgements: PairwiseJudgement[],
): NonNullable<JudgeReport['pairwise']> {
  if (judgements.length === 0) {
    return { baseline, pairs: 0, consistency: null, first_position_share: null, win_rate: null };
  }
  const consistency = positionConsistency(judgements);
  return {
    baseline,
    pairs: consistency.pairs,
    consistency: consistency.rate,
    first_position_share: Number.isNaN(consistency.firstPositionShare)
      ? null
      : consistency.firstPositionShare,
    win_rate: consistency.aWinRate,
  };
}

/** The baseline run's first filtered response per `filter` + doc id, from its sample log of `task`. */
export function baselineResponses(run: string, task: string, field: string): Map<string, string> {
  const { resultsFile } = locateResultsFile(run);
  const file = sampleFilesBeside(resultsFile, [task]).get(task);
  if (file === undefined) {
    throw new AssayError(
      'missing_sample_logs',
      `task ${task}: the pairwise baseline ${run} has no sample log of ${task} (run it with logSamples)`,
      { location: { task, field: `${field}.baseline` } },
    );
  }
  const responses = new Map<string, string>();
  for (const line of readSampleLog(file)) {
    const [first] = line.filtered_resps;
    if (first !== undefined) responses.set(`${line.filter}\u0000${line.doc_id}`, String(first));
  }
  return responses;
}
