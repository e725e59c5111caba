/** Direction of a hypothesis test, with SciPy's names and meanings. */
export type Alternative = 'two-sided' | 'less' | 'greater';

export const ALTERNATIVES: readonly Alternative[] = ['two-sided', 'less', 'greater'];
