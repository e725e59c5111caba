import { AssayError } from '../errors.js';
import { accuracyMinimumDetectableEffect, accuracyPowerPlan } from '../stats/power.js';
import { reportError } from './errors.js';
import { numberFlag, probabilityFlag } from './flag-values.js';

/** `assay power`: items needed for a difference in accuracy, or the MDE at n items (Miller 2024 eq. 9–10). */
export async function powerCommand(flags: Record<string, unknown>): Promise<number> {
  try {
    const baseline = probabilityFlag(flags.baseline, '--baseline');
    if (baseline === undefined)
      throw new AssayError('bad_argument', '--baseline ACCURACY is required (e.g. --baseline 0.72)');
    const delta = numberFlag(flags.delta, '--delta');
    const n = numberFlag(flags.n, '--n');
    if ((delta === undefined) === (n === undefined))
      throw new AssayError(
        'bad_argument',
        'give exactly one of --delta (items needed) or --n (minimum detectable effect)',
      );
    const correlation = numberFlag(flags.correlation, '--correlation') ?? 0.5;
    if (!(correlation >= -1 && correlation <= 1))
      throw new AssayError('bad_argument', `--correlation must be in [-1, 1], got ${correlation}`);
    const alpha = probabilityFlag(flags.alpha, '--alpha') ?? 0.05;
    const power = probabilityFlag(flags.power, '--power') ?? 0.8;
    const inputs = { baseline, correlation, alpha, power };
    const setting = `alpha = ${alpha} (two-sided), power = ${power}, correlation of per-item correctness ${correlation} (paired)`;
    if (delta !== undefined) {
      if (delta === 0) throw new AssayError('bad_argument', '--delta must be non-zero');
      if (!(baseline + delta > 0 && baseline + delta < 1))
        throw new AssayError(
          'bad_argument',
          `--baseline + --delta must stay in (0, 1), got ${baseline + delta}`,
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
      throw new AssayError('bad_argument', `--n must be an integer of at least 2, got ${n}`);
    const mde = accuracyMinimumDetectableEffect(n as number, inputs);
    const report = { baseline, n, alpha, power, correlation, paired: mde.paired, unpaired: mde.unpaired };
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else
      process.stdout.write(
        `Minimum detectable effect over baseline ${baseline} with n = ${n} items, Miller (2024) eq. 10; ${setting}:\n` +
          `  paired: ${mde.paired.toFixed(4)} (${(mde.paired * 100).toFixed(2)} points)\n` +
          `  unpaired: ${mde.unpaired.toFixed(4)} (${(mde.unpaired * 100).toFixed(2)} points)\n`,
      );
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
