/**
 * The one-line verdict of a comparison row. It never says more than the test does: "better"/"worse" only
 * when the adjusted p-value clears alpha, and otherwise it says what effect this n could have detected,
 * so "no detectable difference" is not read as "no difference".
 */
export type Outcome = 'B better' | 'B worse' | 'no detectable difference';

export interface VerdictInput {
  difference: number;
  higherIsBetter: boolean;
  pValueAdjusted: number;
  alpha: number;
  power: number;
  n: number;
  /** null when no effect is detectable at this n. */
  minimumDetectableEffect: number | null;
  adjustment: string;
}

export function formatPValue(p: number): string {
  if (p === 0) return '0';
  if (p < 1e-4) return p.toExponential(1);
  return p < 0.001 ? p.toPrecision(2) : p.toFixed(p < 0.01 ? 4 : 3);
}

export function outcomeOf(
  input: Pick<VerdictInput, 'difference' | 'higherIsBetter' | 'pValueAdjusted' | 'alpha'>,
): Outcome {
  if (!(input.pValueAdjusted < input.alpha) || input.difference === 0) return 'no detectable difference';
  const improved = input.higherIsBetter ? input.difference > 0 : input.difference < 0;
  return improved ? 'B better' : 'B worse';
}

export function verdict(input: VerdictInput): { outcome: Outcome; text: string } {
  const outcome = outcomeOf(input);
  const p = `p_adj = ${formatPValue(input.pValueAdjusted)}, ${input.adjustment}`;
  if (outcome !== 'no detectable difference') return { outcome, text: `${outcome} (${p})` };
  const powerText = `${Math.round(input.power * 100)}% power`;
  const mde = input.minimumDetectableEffect;
  return {
    outcome,
    text:
      mde === null || !Number.isFinite(mde)
        ? `no detectable difference (${p}); at n = ${input.n}, no effect is detectable at ${powerText} (MDE not reachable at this n)`
        : `no detectable difference (${p}); at n = ${input.n}, the MDE at ${powerText} is ${mde.toFixed(4)}`,
  };
}
