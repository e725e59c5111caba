/** A task's `output_type`: which kind of request it sends the model (lm-eval's four). */
export type OutputType = 'loglikelihood' | 'loglikelihood_rolling' | 'multiple_choice' | 'generate_until';
export const OUTPUT_TYPES: readonly OutputType[] = [
  'loglikelihood',
  'loglikelihood_rolling',
  'multiple_choice',
  'generate_until',
];
