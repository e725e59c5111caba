/**
 * `assay gate`: a regression gate for CI. Per task, a one-sided non-inferiority test of the paired
 * difference against the margin `maxDrop` (in metric units, oriented so that positive = better):
 *
 *   pass          H₀ "B is worse by at least the margin" (μ ≤ −m) is rejected: p_noninf < α, i.e. the
 *                 one-sided (1 − α) lower bound of the improvement is above −m;
 *   fail          H₀ "B is within the margin" (μ ≥ −m) is rejected after Holm across tasks: B is
 *                 significantly worse than the margin;
 *   underpowered  neither: the data cannot tell, and the report says roughly how many items would.
 *
 * "All tasks pass" is an intersection-union test, valid at α without adjustment; the "fail" side is
 * Holm-adjusted so that many tasks do not raise the chance of a false alarm. The test depends on the scores
 * (non-inferiority.ts): Tango's score test for 0/1 scores, a betting test valid at every n for other scores in [0, 1], the one-sided paired t for scores outside [0, 1], and a
 * distribution-free bound when every difference is the same. The report names it per task. `threshold`
 * mode keeps the plain rule: fail when the point estimate drops by more than the margin.
 */
import { AssayError } from '../../errors.js';
import { mean } from '../../stats/descriptive.js';
import { adjustPValues } from '../../stats/p-value-adjustment.js';
import { type LoadedRun, loadRun } from '../read-run.js';
import { readSampleScores, type SampleScore } from '../read-samples.js';
import {
  formatJudgeAgreement,
  JUDGE_AGREEMENT_STATISTICS,
  type JudgeAgreement,
  type JudgeAgreementStatistic,
  judgeAgreement,
  judgeOf,
} from './judge-match.js';
import { NON_INFERIORITY_METHODS, type NonInferiorityMethod, nonInferiority } from './non-inferiority.js';
import { type PairingOptions, pairScores, type TimeoutTreatment } from './pair-samples.js';
import { selectTargets } from './select-targets.js';
import { formatPValue } from './verdict.js';

export type GateMode = 'test' | 'threshold';
export type GateStatus = 'pass' | 'fail' | 'underpowered';

export interface GateOptions extends PairingOptions {
  maxDrop: number;
  alpha?: number;
  /** Power used to estimate the items an underpowered task would need. Default 0.8. */
  power?: number;
  mode?: GateMode;
  tasks?: string[];
  metric?: string;
  /**
   * Judge metrics: fail a task whose judge's agreement with the labelled slice (`statistic`, default
   * cohen_kappa) is below `threshold`, or unknown (no labelled slice).
   */
  minJudgeAgreement?: { threshold: number; statistic?: JudgeAgreementStatistic };
}

export interface GateTaskResult {
  task: string;
  metric: string;
  filter: string;
  higherIsBetter: boolean;
  n: number;
  unpaired: { a: number; b: number };
  /** Timed-out docs of baseline (a) and current (b), scored as wrong or left out as `timeoutsAs` says. */
  timedOut: { a: number; b: number };
  meanA: number;
  meanB: number;
  /** meanB − meanA, as measured. */
  difference: number;
  /** The difference oriented so that positive is better (−difference for lower-is-better metrics). */
  improvement: number;
  standardError: number;
  /** The test: `tango-score` (0/1 scores), `paired-t`, or `constant-difference`; null in threshold mode. */
  method: NonInferiorityMethod | null;
  /** The test in words, as the text report prints it. */
  methodDescription: string;
  /** One-sided (1 − α) bounds of the improvement from the same test; null when nothing bounds it. */
  lowerBound: number | null;
  upperBound: number | null;
  /** p of H₀ μ ≤ −maxDrop (non-inferiority); null in threshold mode. */
  pNonInferiority: number | null;
  /** p of H₀ μ ≥ −maxDrop, raw and Holm-adjusted; null in threshold mode. */
  pInferiority: number | null;
  pInferiorityAdjusted: number | null;
  status: GateStatus;
  reason: string;
  /** Items that would decide with the given power if the true improvement were the observed one. */
  itemsNeeded: number | null;
  /** A judge metric: the current run's judge agreement with the labelled slice; null without a slice. */
  judgeAgreement?: JudgeAgreement | null;
  /** True when the task failed on its judge's agreement (below `minJudgeAgreement`, or unknown). */
  judgeAgreementFailed?: boolean;
}

export interface GateReport {
  mode: GateMode;
  maxDrop: number;
  alpha: number;
  baseline: string;
  current: string;
  /** What timed-out docs counted as. */
  timeoutsAs: TimeoutTreatment;
  status: GateStatus;
  /** 0 all pass, 1 some task fails, 3 undecided (underpowered), as the CLI exits. */
  exitCode: 0 | 1 | 3;
  tasks: GateTaskResult[];
  skipped: Array<{ task: string; reason: string }>;
}

const f4 = (value: number) => (value > 0 ? `+${value.toFixed(4)}` : value.toFixed(4));
const bound = (value: number | null) => (value === null ? 'none' : f4(value));

/** The task's docs as the run's results record them (`n-samples`), before any limit. */
function sizeOf(results: LoadedRun['results'], task: string): number | undefined {
  return results['n-samples'][task]?.original;
}

/** Whether the items needed are there to be had: in the task, or beyond it. */
function itemsNeeded(needed: number, n: number, taskSize: number): string {
  if (needed > taskSize)
    return `, more than the ${taskSize} ${taskSize === n ? 'the task has' : 'docs of the task'}`;
  if (taskSize > n)
    return `; the task has ${taskSize} docs and these runs scored ${n} of them: run more of them (a larger \`limit\`, or none)`;
  return '';
}

/**
 * What decides a task more items cannot (or no more items are there to be had): a wider margin, which
 * these samples pass when it is above −lowerBound; the threshold rule, which always decides; repeats,
 * which shrink each item's noise where answers are sampled.
 */
function alternatives(lowerBound: number | null, improvement: number, margin: number): string {
  const options: string[] = [];
  if (lowerBound !== null && lowerBound < 0 && Number.isFinite(lowerBound)) {
    // The smallest 4-decimal margin strictly above −lowerBound: the bound does not depend on the margin.
    let wider = Math.ceil(-lowerBound * 1e4) / 1e4;
    if (wider <= -lowerBound) wider += 1e-4;
    options.push(`a wider margin (these samples pass \`maxDrop\` ${+wider.toFixed(4)} or more)`);
  }
  options.push(
    `\`mode\` threshold (no test: fail only when the observed drop exceeds the margin; here it would ${improvement < -margin ? 'fail' : 'pass'})`,
  );
  options.push(
    "repeats of each item (a task's `repeats`, where answers are sampled: they average out each answer's noise)",
  );
  return options.join(', or ');
}

export function gateRuns(baseline: string, current: string, options: GateOptions): GateReport {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  const mode = options.mode ?? 'test';
  const margin = options.maxDrop;
  if (!(margin >= 0 && Number.isFinite(margin)))
    throw new AssayError('bad_option', `\`maxDrop\` must be a non-negative number, got ${margin}`, {
      location: { field: 'maxDrop' },
    });
  // Each side is a one-sided test at α; above ½ the two (1 − α) bounds would cross.
  if (!(alpha > 0 && alpha < 0.5))
    throw new AssayError('bad_option', `\`alpha\` must be in (0, 0.5) for a one-sided gate, got ${alpha}`, {
      location: { field: 'alpha' },
    });
  const required = options.minJudgeAgreement;
  const statistic = required?.statistic ?? 'cohen_kappa';
  if (required && !(Number.isFinite(required.threshold) && required.threshold <= 1))
    throw new AssayError(
      'bad_option',
      `\`minJudgeAgreement.threshold\` must be a number at most 1, got ${required.threshold}`,
      { location: { field: 'minJudgeAgreement.threshold' } },
    );
  if (required && !JUDGE_AGREEMENT_STATISTICS.includes(statistic))
    throw new AssayError(
      'bad_option',
      `\`minJudgeAgreement.statistic\` must be one of ${JUDGE_AGREEMENT_STATISTICS.join(', ')}, got ${statistic}`,
      { location: { field: 'minJudgeAgreement.statistic' } },
    );
  const runA = loadRun(baseline);
  const runB = loadRun(current);
  const selection = selectTargets(runA, runB, options);
  const cache = new Map<string, SampleScore[]>();
  const samples = (file: string) => {
    const lines = cache.get(file) ?? readSampleScores(file);
    cache.set(file, lines);
    return lines;
  };
  // Every task is paired before any is tested, so a refused task (timed-out docs) stops the gate first.
  const pairs = selection.targets.map((target) => ({
    target,
    pair: pairScores(
      samples(runA.sampleFiles.get(target.task) as string),
      samples(runB.sampleFiles.get(target.task) as string),
      target,
      options,
    ),
  }));
  const measuredRows = pairs.flatMap(({ target, pair }) => {
    if (pair.a.length < 2) {
      selection.skipped.push({ task: target.task, reason: `only ${pair.a.length} paired samples` });
      return [];
    }
    const measured = nonInferiority(pair.a, pair.b, {
      margin,
      alpha,
      power,
      higherIsBetter: target.higherIsBetter,
    });
    return [{ target, pair, measured }];
  });
  if (!measuredRows.length)
    throw new AssayError('incompatible_runs', 'no task has at least 2 paired samples to gate on');
  const adjusted = adjustPValues(
    measuredRows.map((row) => row.measured.pInferiority),
    'holm',
  );

  const tasks: GateTaskResult[] = measuredRows.map(({ target, pair, measured }, i) => {
    const { lowerBound, upperBound, pNonInferiority: pNon, pInferiority: pInf } = measured;
    const meanA = mean(pair.a);
    const meanB = mean(pair.b);
    const level = `one-sided ${Math.round((1 - alpha) * 100)}%`;
    const description = NON_INFERIORITY_METHODS[measured.method];
    const change = `${target.higherIsBetter ? 'B − A' : 'A − B (lower is better)'} = ${f4(measured.improvement)}`;
    let status: GateStatus;
    let reason: string;
    let needed: number | null = null;
    const late = pair.timedOutA + pair.timedOutB;
    const lateNote =
      late === 0
        ? ''
        : `; timed out: ${pair.timedOutA} in the baseline, ${pair.timedOutB} in the current run, ${options.timeoutsAs === 'wrong' ? 'each counted as wrong' : 'left out (the verdict covers the docs answered in both)'}`;
    if (mode === 'threshold') {
      status = measured.improvement < -margin ? 'fail' : 'pass';
      reason =
        status === 'fail'
          ? `${change} drops by more than the margin ${margin} (threshold rule, no test)`
          : `${change} is within the margin ${margin} (threshold rule, no test)`;
    } else if (adjusted[i] < alpha) {
      status = 'fail';
      reason = `${change}; upper bound ${bound(upperBound)} (${level}) < −${margin}: significantly worse than the margin (p_adj = ${formatPValue(adjusted[i])}, Holm); test: ${description}`;
    } else if (pNon < alpha) {
      status = 'pass';
      reason = `${change}; lower bound ${bound(lowerBound)} (${level}) > −${margin}: non-inferior (p = ${formatPValue(pNon)}); test: ${description}`;
    } else {
      status = 'underpowered';
      needed = measured.itemsNeeded;
      const taskSize = Math.max(measured.n, sizeOf(runB.results, target.task) ?? 0);
      const hint =
        needed !== null
          ? `about ${needed} paired items would decide with ${Math.round(power * 100)}% power if the true change were the observed one${itemsNeeded(needed, measured.n, taskSize)}`
          : measured.lowerBound === null
            ? 'every paired difference is the same and the scores are not in [0, 1], so zero variance is no evidence and no sample size decides'
            : 'no sample size decides when the observed change equals the margin';
      const bounds =
        lowerBound === null
          ? `${level} bounds: none`
          : `lower bound ${bound(lowerBound)} (${level}) is not above −${margin}${upperBound === null ? '' : ` and upper bound ${bound(upperBound)} (${level}) is not below it`}`;
      const deciders =
        needed === null || needed > taskSize
          ? `; what would decide it: ${alternatives(lowerBound, measured.improvement, margin)}`
          : '';
      reason = `${change}; ${bounds}: cannot decide at n = ${measured.n}; ${hint}${deciders}; test: ${description}`;
    }
    reason += lateNote;
    const judge = judgeOf(runB.results, target.task, target.metric);
    const agreement = judge ? judgeAgreement(judge, statistic) : undefined;
    let judgeFailed = false;
    if (judge && required) {
      const shown = formatJudgeAgreement(agreement ?? null);
      if (agreement?.estimate == null) {
        status = 'fail';
        judgeFailed = true;
        reason = `the judge (${judge.model}) of ${target.metric} in the current run has no ${statistic} with a labelled slice (${shown}), and \`minJudgeAgreement\` ${required.threshold} requires one; ${reason}`;
      } else if (agreement.estimate < required.threshold) {
        status = 'fail';
        judgeFailed = true;
        reason = `the judge (${judge.model}) of ${target.metric} agrees with the labelled slice below \`minJudgeAgreement\` ${required.threshold}: ${shown}; its scores are not gated on; ${reason}`;
      } else reason += `; judge ${judge.model}: ${shown}`;
    } else if (judge) reason += `; judge ${judge.model}: ${formatJudgeAgreement(agreement ?? null)}`;
    return {
      task: target.task,
      metric: target.metric,
      filter: target.filter,
      higherIsBetter: target.higherIsBetter,
      n: measured.n,
      unpaired: { a: pair.unpairedA, b: pair.unpairedB },
      timedOut: { a: pair.timedOutA, b: pair.timedOutB },
      meanA,
      meanB,
      difference: meanB - meanA,
      improvement: measured.improvement,
      standardError: measured.standardError,
      method: mode === 'test' ? measured.method : null,
      methodDescription: mode === 'test' ? description : 'threshold rule, no test',
      lowerBound,
      upperBound,
      pNonInferiority: mode === 'test' ? pNon : null,
      pInferiority: mode === 'test' ? pInf : null,
      pInferiorityAdjusted: mode === 'test' ? adjusted[i] : null,
      status,
      reason,
      itemsNeeded: needed,
      ...(judge ? { judgeAgreement: agreement ?? null } : {}),
      ...(judgeFailed ? { judgeAgreementFailed: true } : {}),
    };
  });
  const status: GateStatus = tasks.some((task) => task.status === 'fail')
    ? 'fail'
    : tasks.some((task) => task.status === 'underpowered')
      ? 'underpowered'
      : 'pass';
  return {
    mode,
    maxDrop: margin,
    alpha,
    baseline: runA.resultsFile,
    current: runB.resultsFile,
    timeoutsAs: options.timeoutsAs ?? 'refuse',
    status,
    exitCode: status === 'fail' ? 1 : status === 'underpowered' ? 3 : 0,
    tasks,
    skipped: selection.skipped,
  };
}
