/** (gold, pred) label pairs for the sklearn-backed aggregations (f1, matthews_corrcoef). */
import { AssayError } from '../errors.js';

export type Label = number | string;

/** Splits items into gold and predicted labels. Booleans become 0/1, as Python's True == 1. */
export function readLabelPairs(
  aggregation: string,
  items: readonly unknown[],
): { golds: Label[]; preds: Label[] } {
  if (items.length === 0) {
    throw new AssayError('scoring_error', `aggregation ${aggregation} needs at least one (gold, pred) item`);
  }
  const golds: Label[] = [];
  const preds: Label[] = [];
  for (const item of items) {
    if (!Array.isArray(item) || item.length !== 2) {
      throw new AssayError(
        'scoring_error',
        `aggregation ${aggregation} expects (gold, pred) pairs, got ${JSON.stringify(item)}`,
      );
    }
    golds.push(toLabel(aggregation, item[0]));
    preds.push(toLabel(aggregation, item[1]));
  }
  const kinds = new Set([...golds, ...preds].map((label) => typeof label));
  if (kinds.size > 1) {
    // sklearn: "Labels in y_true and y_pred should be of the same type".
    throw new AssayError(
      'scoring_error',
      `aggregation ${aggregation}: gold and predicted labels mix numbers and strings`,
    );
  }
  return { golds, preds };
}

function toLabel(aggregation: string, value: unknown): Label {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new AssayError(
    'scoring_error',
    `aggregation ${aggregation} needs a single class label per item, got ${JSON.stringify(value)} (a multiple-target gold?)`,
  );
}

/** sklearn's `unique_labels`: sorted distinct labels. */
export function uniqueLabels(golds: readonly Label[], preds: readonly Label[]): Label[] {
  const labels = [...new Set([...golds, ...preds])];
  return labels.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
