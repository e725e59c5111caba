/**
 * The ordered list of categories an agreement statistic works over: the labels given, or the distinct
 * values seen, sorted as scikit-learn's `unique_labels` sorts them (numbers ascending, strings by code
 * unit). Weighted κ and ordinal α read distances off this order, so it is explicit, never insertion order.
 */
export type Category = string | number;

export function sortedCategories(values: Iterable<Category>): Category[] {
  const distinct = [...new Set(values)];
  const allNumbers = distinct.every((value) => typeof value === 'number');
  return allNumbers
    ? (distinct as number[]).sort((a, b) => a - b)
    : distinct.map(String).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
