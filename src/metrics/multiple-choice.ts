/**
 * JSONL `multiple_choice`: the first letter A–Z (either case) of the answer, uppercased, against the
 * target letter. Meant for prompts that ask for the letter alone; use `extractChoice` for free text.
 */
import { AssayError } from '../errors.js';
import { checkKwargs, requireReferences } from './kwargs.js';
import type { GenerationMetricInput, MetricDefinition } from './types.js';

export function firstLetter(answer: string): string | undefined {
  return /[A-Za-z]/.exec(answer)?.[0].toUpperCase();
}

export function multipleChoiceLetter(prediction: string, references: readonly string[]): number {
  const letter = firstLetter(prediction);
  return references.some((reference) => {
    const target = reference.trim().toUpperCase();
    if (!/^[A-Z]$/.test(target)) {
      throw new AssayError(
        'bad_data',
        `metric multiple_choice needs a target letter A–Z, got ${JSON.stringify(reference)}`,
      );
    }
    return target === letter;
  })
    ? 1
    : 0;
}

export const multipleChoiceMetric: MetricDefinition = {
  name: 'multiple_choice',
  higherIsBetter: true,
  defaultAggregation: 'mean',
  compute: ({ references, prediction, kwargs }: GenerationMetricInput) => {
    checkKwargs('multiple_choice', kwargs, []);
    requireReferences('multiple_choice', references);
    return multipleChoiceLetter(prediction, references);
  },
};
