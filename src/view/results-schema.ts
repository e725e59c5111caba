/**
 * The viewer reads results through these schemas: the edge where files written by any assay (or
 * lm-eval) version enter. They keep only the fields the viewer uses, and the type check below keeps
 * them in step with the writer's `ResultsFile` and `SampleLine`.
 */
import { z } from 'zod';
import type { ResultsFile } from '../results/build.js';
import type { SampleLine } from '../results/samples.js';

const entrySchema = z.record(z.string(), z.unknown());

export const viewedResultsSchema = z.object({
  results: z.record(z.string(), entrySchema),
  groups: z.record(z.string(), entrySchema).optional(),
  group_subtasks: z.record(z.string(), z.array(z.string())).default({}),
  versions: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).default({}),
  'n-shot': z.record(z.string(), z.number()).default({}),
  higher_is_better: z.record(z.string(), z.record(z.string(), z.boolean())).default({}),
  'n-samples': z.record(z.string(), z.object({ original: z.number(), effective: z.number() })).default({}),
  config: z.record(z.string(), z.unknown()).default({}),
  git_hash: z.string().nullable().default(null),
  date: z.number(),
  model_name: z.string(),
  // lm-eval files have no `partial`; their limit is in config.limit.
  partial: z.boolean().optional(),
  total_evaluation_time_seconds: z.union([z.string(), z.number()]).optional(),
  manifest: z.unknown().optional(),
});

export type ViewedResults = z.infer<typeof viewedResultsSchema>;

export const viewedSampleSchema = z.object({
  doc_id: z.number(),
  doc: z.unknown(),
  target: z.unknown(),
  arguments: z
    .union([z.record(z.string(), z.record(z.string(), z.unknown())), z.array(z.unknown())])
    .optional(),
  resps: z.array(z.unknown()).default([]),
  filtered_resps: z.array(z.unknown()).default([]),
  filter: z.string().default('none'),
  metrics: z.array(z.string()).default([]),
  error: z.string().optional(),
  gen_logprobs: z
    .array(z.array(z.object({ tokens: z.array(z.string()), logprobs: z.array(z.number()) }).nullable()))
    .optional(),
});

export type ViewedSample = z.infer<typeof viewedSampleSchema> & Record<string, unknown>;

/** The few fields the sample index keeps per line. */
export const indexedSampleSchema = z.looseObject({
  doc_id: z.number(),
  filter: z.string().default('none'),
  metrics: z.array(z.string()).default([]),
});

// Compile-time guard: what assay writes must satisfy what the viewer reads.
type Assignable<To, From extends To> = From;
export type ResultsFileIsViewable = Assignable<z.input<typeof viewedResultsSchema>, ResultsFile>;
export type SampleLineIsViewable = Assignable<z.input<typeof viewedSampleSchema>, SampleLine>;
