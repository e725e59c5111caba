/**
 * HELM's mean win rate (helm-summarize, presentation/summarize.py compute_aggregate_row_win_rates): in each
 * column (a task), a row's (a model's) win rate is the chance that it beats another row picked uniformly
 * at random: the rows strictly worse than it, plus half of the other rows equal to it, over the rows with
 * a value minus one. A column with fewer than two values is skipped; a row's mean win rate is the mean of
 * its win rates over the columns where it has one (null when there are none).
 */

/** Each row's win rate in one column; null for a row without a value (or a column of fewer than two). */
export function columnWinRates(
  values: ReadonlyArray<number | null>,
  higherIsBetter: boolean,
): Array<number | null> {
  const present = values.filter((value): value is number => value !== null);
  if (present.length < 2) return values.map(() => null);
  return values.map((value) => {
    if (value === null) return null;
    let worse = 0;
    let equal = 0;
    for (const other of present) {
      if (other === value) equal++;
      else if (higherIsBetter ? other < value : other > value) worse++;
    }
    // `equal` counts the row itself.
    return (worse + (equal - 1) / 2) / (present.length - 1);
  });
}

/**
 * Mean win rate of each row of `table` (rows × columns) over the columns; `higherIsBetter[c]` orders
 * column c.
 */
export function meanWinRates(
  table: ReadonlyArray<ReadonlyArray<number | null>>,
  higherIsBetter: readonly boolean[],
): Array<number | null> {
  const sums = table.map(() => 0);
  const counts = table.map(() => 0);
  for (let column = 0; column < higherIsBetter.length; column++) {
    const rates = columnWinRates(
      table.map((row) => row[column] ?? null),
      higherIsBetter[column],
    );
    rates.forEach((rate, row) => {
      if (rate === null) return;
      sums[row] += rate;
      counts[row]++;
    });
  }
  return sums.map((sum, row) => (counts[row] > 0 ? sum / counts[row] : null));
}
