/**
 * The confusion matrix of a judge's labels against reference labels, and the accuracy it implies:
 * rows are the reference's categories, columns the judge's, as scikit-learn's `confusion_matrix(y_true,
 * y_pred)` lays them out.
 */
import { type Category, sortedCategories } from './category-order.js';
import { badArgument, requireSameLength } from './validate.js';

export interface ConfusionMatrix {
  labels: Category[];
  /** counts[i][j]: items whose reference is labels[i] and whose judge label is labels[j]. */
  counts: number[][];
  total: number;
  /** Share of items on the diagonal. */
  accuracy: number;
}

export function confusionMatrix(
  reference: readonly Category[],
  judged: readonly Category[],
  labels: readonly Category[] = sortedCategories([...reference, ...judged]),
): ConfusionMatrix {
  const where = 'confusionMatrix';
  requireSameLength(where, reference, judged, 'reference and judged');
  if (reference.length === 0) throw badArgument(where, 'needs at least one item');
  const index = new Map<Category, number>(labels.map((label, i) => [label, i]));
  const counts = labels.map(() => labels.map(() => 0));
  let agreeing = 0;
  for (let i = 0; i < reference.length; i++) {
    const row = index.get(reference[i]);
    const column = index.get(judged[i]);
    if (row === undefined || column === undefined) {
      throw badArgument(
        where,
        `item ${i}: ${JSON.stringify(row === undefined ? reference[i] : judged[i])} is not a listed label`,
      );
    }
    counts[row][column]++;
    if (row === column) agreeing++;
  }
  return { labels: [...labels], counts, total: reference.length, accuracy: agreeing / reference.length };
}
