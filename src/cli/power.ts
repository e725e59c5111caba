import { AssayError } from '../errors.js';
import { powerInputsFromRuns, type TaskPowerInputs } from '../results/compare/power-inputs.js';
import { locateResultsFile, readResultsFile } from '../results/read-run.js';
import {
  type AccuracyMde,
  accuracyCorrelationBounds,
  accuracyMinimumDetectableEffect,
  accuracyPowerPlan,
  type InfeasibleCorrelation,
} from '../stats/power.js';
import { ppiSampleSize } from '../stats/ppi-sample-size.js';
import { POWER_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { type FlagValues, parseFlags } from './option-table.js';

type PowerFlags = FlagValues<typeof POWER_FLAGS>;

/** The correlation a plan does not know until two runs are measured. */
const ASSUMED_CORRELATION = 0.5;

type CorrelationSource = 'given' | 'assumed' | 'measured';

/** What r is and why it matters, said where a plan uses it. */
function correlationNote(source: CorrelationSource): string {
  const what =
    "r is the correlation between the two models' per-item correctness (1: they get the same items right and wrong). A paired comparison gains with r: the variance of the paired difference is σ²_A + σ²_B − 2r·σ_A·σ_B, and r = 0 is the unpaired design.";
  if (source === 'measured') return `${what} Here it is measured on the two runs' paired items.`;
  if (source === 'given') return `${what} Here it is the --correlation given.`;
  return `${what} r = ${ASSUMED_CORRELATION} is an assumption: real pairs vary widely (two real runs had r = 0.004, where pairing gained almost nothing). Measure it with --baseline RUN_A --current RUN_B.`;
}

const points = (value: number) => `${value.toFixed(4)} (${(value * 100).toFixed(2)} points)`;

function infeasible(correlation: number, baseline: number, candidate: number, low: number, high: number) {
  return new AssayError(
    'bad_option',
    `--correlation ${correlation} is not possible for accuracies ${baseline} and ${+candidate.toFixed(10)}: the correlation of two 0/1 scores with these means lies in [${low.toFixed(3)}, ${high.toFixed(3)}] (max correlation ${high.toFixed(3)})`,
  );
}

/** The MDE at n, paired and unpaired; an infeasible correlation is an error unless `clip` (a measured one). */
function mdeAt(
  n: number,
  inputs: { baseline: number; correlation: number; alpha: number; power: number },
  clip: boolean,
): AccuracyMde {
  try {
    return accuracyMinimumDetectableEffect(n, { ...inputs, clipCorrelation: clip });
  } catch (error) {
    if (!(error instanceof AssayError && error.location.field === 'correlation')) throw error;
    const cause = error.cause as InfeasibleCorrelation;
    throw new AssayError(
      'bad_option',
      `--correlation ${inputs.correlation} is not possible at the effect n = ${n} would detect, ${inputs.baseline} → ${+cause.candidate.toFixed(6)}: the correlation of two 0/1 scores with these means lies in [${cause.low.toFixed(3)}, ${cause.high.toFixed(3)}] (max correlation ${cause.high.toFixed(3)})`,
    );
  }
}

function effectText(mde: AccuracyMde, value: number | null): string {
  return value === null
    ? `not reachable at this n (no improvement up to the headroom ${+mde.headroom.toFixed(10)} is detectable)`
    : points(value);
}

/** `assay power`: items needed for a difference in accuracy, or the MDE at n items (Miller 2024 eq. 9–10). */
export async function powerCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(POWER_FLAGS, raw);
    if (flags.judge_run !== undefined) return powerForJudgeLabels(flags.judge_run, flags);
    if (flags.half_width !== undefined)
      throw new AssayError('bad_option', '--half_width plans judge labels: give --judge_run RUN');
    const { baseline, delta, n, correlation } = flags;
    if (baseline === undefined)
      throw new AssayError(
        'bad_option',
        '--baseline is required: an accuracy (e.g. --baseline 0.72) or a run with sample logs (e.g. --baseline runs/a)',
      );
    if (correlation !== undefined && !(correlation >= -1 && correlation <= 1))
      throw new AssayError('bad_option', `--correlation must be in [-1, 1], got ${correlation}`);
    if (delta !== undefined && n !== undefined)
      throw new AssayError(
        'bad_option',
        'give exactly one of --delta (items needed) or --n (minimum detectable effect)',
      );
    if (n !== undefined && !(Number.isInteger(n) && n >= 2))
      throw new AssayError('bad_option', `--n must be an integer of at least 2, got ${n}`);
    if (delta === 0) throw new AssayError('bad_option', '--delta must be non-zero');
    if (typeof baseline === 'string') return powerFromRuns(baseline, flags);
    for (const [flag, value] of [
      ['--current', flags.current],
      ['--tasks', flags.tasks],
      ['--metric', flags.metric],
    ] as const)
      if (value !== undefined)
        throw new AssayError('bad_option', `${flag} reads a run: give --baseline a run, not an accuracy`);
    return powerFromAccuracy(baseline, flags);
  } catch (error) {
    return reportError(error);
  }
}

function powerFromAccuracy(baseline: number, flags: PowerFlags): number {
  const { delta, n, alpha, power } = flags;
  if (delta === undefined && n === undefined)
    throw new AssayError(
      'bad_option',
      'give exactly one of --delta (items needed) or --n (minimum detectable effect)',
    );
  const correlation = flags.correlation ?? ASSUMED_CORRELATION;
  const source: CorrelationSource = flags.correlation === undefined ? 'assumed' : 'given';
  const inputs = { baseline, correlation, alpha, power };
  const setting = `alpha = ${alpha} (two-sided), power = ${power}, per-item correlation r = ${correlation} (${source})`;
  if (delta !== undefined) {
    if (!(baseline + delta > 0 && baseline + delta < 1))
      throw new AssayError('bad_option', `--baseline + --delta must stay in (0, 1), got ${baseline + delta}`);
    const bounds = accuracyCorrelationBounds(baseline, baseline + delta);
    if (correlation > bounds.high + 1e-12 || correlation < bounds.low - 1e-12)
      throw infeasible(correlation, baseline, baseline + delta, bounds.low, bounds.high);
    const plan = accuracyPowerPlan(delta, inputs);
    const report = {
      baseline,
      delta,
      candidate: baseline + delta,
      alpha,
      power,
      correlation,
      correlationSource: source,
      paired: plan.paired.n,
      unpaired: plan.unpaired.n,
      pairedExact: plan.paired.nExact,
      unpairedExact: plan.unpaired.nExact,
    };
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else
      process.stdout.write(
        `Items needed to detect ${baseline} → ${+(baseline + delta).toFixed(10)} (delta ${delta}), Miller (2024) eq. 9; ${setting}:\n` +
          `  paired (both models on the same items): ${plan.paired.n}\n` +
          `  unpaired (independent items per model): ${plan.unpaired.n}\n` +
          `${correlationNote(source)}\n`,
      );
    return 0;
  }
  const mde = mdeAt(n as number, inputs, false);
  const report = {
    baseline,
    n,
    alpha,
    power,
    correlation,
    correlationSource: source,
    headroom: mde.headroom,
    paired: mde.paired,
    unpaired: mde.unpaired,
  };
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else
    process.stdout.write(
      `Minimum detectable effect over baseline ${baseline} with n = ${n} items, Miller (2024) eq. 10; ${setting}:\n` +
        `  paired: ${effectText(mde, mde.paired)}\n` +
        `  unpaired: ${effectText(mde, mde.unpaired)}\n` +
        `${correlationNote(source)}\n`,
    );
  return 0;
}

interface TaskPlan {
  task: string;
  metric: string;
  filter: string;
  /** The task's items in the run(s). */
  items: number;
  accuracy: number;
  currentAccuracy: number | null;
  /** Measured between the two runs; null with one run or a constant run. */
  measuredCorrelation: number | null;
  /** The correlation used: given, measured (clipped to what the accuracies allow), or assumed. */
  correlation: number;
  correlationSource: CorrelationSource;
  /** Set when the measured or assumed correlation was outside what the planned accuracies allow. */
  correlationClipped?: number;
  n?: number;
  headroom?: number;
  delta?: number;
  paired: number | null;
  unpaired: number | null;
  pairedExact?: number;
  unpairedExact?: number;
}

function planTask(task: TaskPowerInputs, flags: PowerFlags): TaskPlan | { skip: string } {
  const { alpha, power, delta } = flags;
  if (!task.binary)
    return {
      skip: `the scores of ${task.metric} are not 0/1, and these formulas are for accuracies; assay compare gives the MDE of two runs of it from their observed variance`,
    };
  const baseline = task.accuracy;
  const source: CorrelationSource =
    flags.correlation !== undefined ? 'given' : task.correlation !== null ? 'measured' : 'assumed';
  const wanted = flags.correlation ?? task.correlation ?? ASSUMED_CORRELATION;
  const common = {
    task: task.task,
    metric: task.metric,
    filter: task.filter,
    items: task.n,
    accuracy: baseline,
    currentAccuracy: task.currentAccuracy,
    measuredCorrelation: task.correlation,
    correlation: wanted,
    correlationSource: source,
  };
  if (delta !== undefined) {
    const candidate = baseline + delta;
    if (!(candidate > 0 && candidate < 1))
      return { skip: `accuracy ${baseline.toFixed(4)} + --delta ${delta} leaves (0, 1)` };
    const bounds = accuracyCorrelationBounds(baseline, candidate);
    let used = wanted;
    if (wanted > bounds.high + 1e-12 || wanted < bounds.low - 1e-12) {
      if (source === 'given') throw infeasible(wanted, baseline, candidate, bounds.low, bounds.high);
      used = Math.min(bounds.high, Math.max(bounds.low, wanted));
    }
    const plan = accuracyPowerPlan(delta, { baseline, correlation: used, alpha, power });
    return {
      ...common,
      correlation: used,
      ...(used !== wanted ? { correlationClipped: wanted } : {}),
      delta,
      paired: plan.paired.n,
      unpaired: plan.unpaired.n,
      pairedExact: plan.paired.nExact,
      unpairedExact: plan.unpaired.nExact,
    };
  }
  const n = flags.n ?? task.n;
  if (n < 2) return { skip: `only ${n} item` };
  const mde = mdeAt(n, { baseline, correlation: wanted, alpha, power }, source !== 'given');
  return { ...common, n, headroom: mde.headroom, paired: mde.paired, unpaired: mde.unpaired };
}

function powerFromRuns(baseline: string, flags: PowerFlags): number {
  const inputs = powerInputsFromRuns(baseline, flags.current, {
    tasks: flags.tasks,
    metric: flags.metric,
    timeoutsAs: flags.timeouts_as,
  });
  const plans: TaskPlan[] = [];
  const skipped = [...inputs.skipped];
  for (const task of inputs.tasks) {
    const plan = planTask(task, flags);
    if ('skip' in plan) skipped.push({ task: task.task, reason: plan.skip });
    else plans.push(plan);
  }
  if (flags.json) {
    const report = {
      baseline: inputs.baseline,
      current: inputs.current,
      alpha: flags.alpha,
      power: flags.power,
      tasks: plans,
      skipped,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const out: string[] = [];
  const what =
    flags.delta === undefined
      ? 'Minimum detectable effect (MDE) per task, Miller (2024) eq. 10'
      : `Items needed per task to detect a change of ${flags.delta}, Miller (2024) eq. 9`;
  out.push(
    `${what}; baseline ${inputs.baseline}${inputs.current ? `, second run ${inputs.current}` : ''}; alpha = ${flags.alpha} (two-sided), power = ${flags.power}:`,
  );
  for (const plan of plans) {
    const r = `r = ${plan.correlation.toFixed(4)} (${plan.correlationSource}${plan.correlationClipped !== undefined ? `; ${plan.correlationClipped.toFixed(4)} is more than accuracies ${plan.accuracy.toFixed(4)} and the planned one allow, so their bound is used` : ''})`;
    const current = plan.currentAccuracy === null ? '' : `, second run ${plan.currentAccuracy.toFixed(4)}`;
    out.push(
      `  ${plan.task} (${plan.metric}${plan.filter === 'none' ? '' : `, filter ${plan.filter}`}, ${plan.items} items): accuracy ${plan.accuracy.toFixed(4)}${current}, ${r}`,
    );
    if (plan.delta !== undefined)
      out.push(
        `    items needed to detect ${plan.accuracy.toFixed(4)} → ${(plan.accuracy + plan.delta).toFixed(4)}: paired ${plan.paired}, unpaired ${plan.unpaired} (the task has ${plan.items})`,
      );
    else {
      const mde = { headroom: plan.headroom as number } as AccuracyMde;
      out.push(
        `    MDE at n = ${plan.n}: paired ${effectText(mde, plan.paired)}, unpaired ${effectText(mde, plan.unpaired)}`,
      );
    }
  }
  for (const entry of skipped) out.push(`  skipped ${entry.task}: ${entry.reason}`);
  const sources = [...new Set(plans.map((plan) => plan.correlationSource))];
  for (const source of sources) out.push(correlationNote(source));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/**
 * `assay power --judge_run RUN --half_width H`: per judged task, the human labels a PPI++ interval of ±H
 * needs (stats/ppi-sample-size.ts), from the variances and covariance the run's labelled slice measured,
 * beside the labels the classical (labels-only) interval would need.
 */
function powerForJudgeLabels(run: string, flags: PowerFlags): number {
  const halfWidth = flags.half_width;
  if (halfWidth === undefined || !(halfWidth > 0)) {
    throw new AssayError(
      'bad_option',
      '--judge_run needs --half_width, a positive target half-width (e.g. 0.02)',
    );
  }
  const { resultsFile } = locateResultsFile(run);
  const results = readResultsFile(resultsFile);
  const plans = Object.entries(results.judges ?? {}).flatMap(([task, reports]) =>
    reports.flatMap((report) => {
      const statistics = report.statistics;
      const moments = statistics?.moments;
      if (!statistics || !moments) return [];
      const plan = ppiSampleSize({
        labelVariance: moments.label_variance,
        judgeVariance: moments.judge_variance,
        covariance: moments.covariance,
        documents: moments.documents,
        halfWidth,
      });
      return [
        { task, metric: report.metric, labelled: statistics.labelled, documents: moments.documents, ...plan },
      ];
    }),
  );
  if (plans.length === 0) {
    throw new AssayError(
      'bad_option',
      `${resultsFile} has no llm_judge metric with judge_labels statistics: --judge_run needs a run judged with a labelled slice`,
    );
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ halfWidth, plans }, null, 2)}\n`);
    return 0;
  }
  const lines = plans.map((plan) => {
    const ppi =
      plan.labels === null
        ? `not reachable with ${plan.documents} documents`
        : `${plan.labels} labels (λ = ${(plan.lambda as number).toFixed(3)})`;
    return `  ${plan.task} ${plan.metric}: ${ppi}; labels alone: ${plan.classicalLabels}; labelled now: ${plan.labelled}`;
  });
  process.stdout.write(
    `Human labels for a PPI++ 95% interval of ±${halfWidth} over the judged documents (Angelopoulos, Duchi & Zrnic 2024), from the labelled slice's variances:\n${lines.join('\n')}\n`,
  );
  return 0;
}
