/**
 * `llm_judge`: another model scores the generation. It has no `compute`: scoring leaves a judge request
 * where its value goes, and the judge stage (evaluate/judge-stage.ts) asks the judge model and puts the
 * verdict's score in its place.
 */
import type { MetricDefinition } from './types.js';

export const llmJudgeMetric: MetricDefinition = {
  name: 'llm_judge',
  higherIsBetter: true,
  defaultAggregation: 'mean',
};
