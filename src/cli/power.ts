import { AssayError } from '../errors.js';
import {
  type AccuracyMde,
  accuracyCorrelationBounds,
  accuracyMinimumDetectableEffect,
  accuracyPowerPlan,
  type InfeasibleCorrelation,
} from '../stats/power.js';
import { POWER_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { parseFlags } from './option-table.js';

/** `assay power`: items needed for a difference in accuracy, or the MDE at n items (Miller 2024 eq. 9–10). */
export async function powerCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(POWER_FLAGS, raw);
    const { baseline, delta, n, correlation, alpha, power } = flags;
    if (baseline === undefined)
      throw new AssayError('bad_option', '--baseline ACCURACY is required (e.g. --baseline 0.72)');
    if ((delta === undefined) === (n === undefined))
      throw new AssayError(
        'bad_option',
        'give exactly one of --delta (items needed) or --n (minimum detectable effect)',
      );
    if (!(correlation >= -1 && correlation <= 1))
      throw new AssayError('bad_option', `--correlation must be in [-1, 1], got ${correlation}`);
    const inputs = { baseline, correlation, alpha, power };
    const setting = `alpha = ${alpha} (two-sided), power = ${power}, correlation of per-item correctness ${correlation} (paired)`;
    if (delta !== undefined) {
      if (delta === 0) throw new AssayError('bad_option', '--delta must be non-zero');
      if (!(baseline + delta > 0 && baseline + delta < 1))
        throw new AssayError(
          'bad_option',
          `--baseline + --delta must stay in (0, 1), got ${baseline + delta}`,
        );
      const bounds = accuracyCorrelationBounds(baseline, baseline + delta);
      if (correlation > bounds.high + 1e-12 || correlation < bounds.low - 1e-12)
        throw new AssayError(
          'bad_option',
          `--correlation ${correlation} is not possible for accuracies ${baseline} and ${+(baseline + delta).toFixed(10)}: the correlation of two 0/1 scores with these means lies in [${bounds.low.toFixed(3)}, ${bounds.high.toFixed(3)}] (max correlation ${bounds.high.toFixed(3)})`,
        );
      const plan = accuracyPowerPlan(delta, inputs);
      const report = {
        baseline,
        delta,
        candidate: baseline + delta,
        alpha,
        power,
        correlation,
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
            `  unpaired (independent items per model): ${plan.unpaired.n}\n`,
        );
      return 0;
    }
    if (!(Number.isInteger(n) && (n as number) >= 2))
      throw new AssayError('bad_option', `--n must be an integer of at least 2, got ${n}`);
    let mde: AccuracyMde;
    try {
      mde = accuracyMinimumDetectableEffect(n as number, inputs);
    } catch (error) {
      if (!(error instanceof AssayError && error.location.field === 'correlation')) throw error;
      const cause = error.cause as InfeasibleCorrelation;
      throw new AssayError(
        'bad_option',
        `--correlation ${correlation} is not possible at the effect n = ${n} would detect, ${baseline} → ${+cause.candidate.toFixed(6)}: the correlation of two 0/1 scores with these means lies in [${cause.low.toFixed(3)}, ${cause.high.toFixed(3)}] (max correlation ${cause.high.toFixed(3)})`,
      );
    }
    const report = {
      baseline,
      n,
      alpha,
      power,
      correlation,
      headroom: mde.headroom,
      paired: mde.paired,
      unpaired: mde.unpaired,
    };
    const effect = (value: number | null) =>
      value === null
        ? `not reachable at this n (no improvement up to the headroom ${+mde.headroom.toFixed(10)} is detectable)`
        : `${value.toFixed(4)} (${(value * 100).toFixed(2)} points)`;
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else
      process.stdout.write(
        `Minimum detectable effect over baseline ${baseline} with n = ${n} items, Miller (2024) eq. 10; ${setting}:\n` +
          `  paired: ${effect(mde.paired)}\n` +
          `  unpaired: ${effect(mde.unpaired)}\n`,
      );
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
