/**
 * The results contract: zod schemas of the three files a run writes (results_<time>.json, each line of
 * samples_<task>_<time>.jsonl, leaderboard_<time>.json) and the types inferred from them. Every reader
 * (compare, gate, merge, view, export, leaderboard diff) parses through these, in read-run.ts and
 * read-samples.ts. The leaderboard's type is inferred here; the files as assay writes them have their own,
 * stricter schemas (results-file.ts, sample-line.ts), whose inferred types the writer builds and which are
 * checked against these at compile time (schema-guards.ts)
 * and by tests that parse what a run wrote.
 *
 * Versions: results.json names its version in `assay_schema` (its other keys are lm-eval's, so assay's
 * own are namespaced); lm-eval's own files have none and are read as they are. The leaderboard is
 * assay's alone and names its version in `schema`. A file from a newer major version is refused with
 * the versions this assay reads, never half-read.
 *
 * Rule 5 of the house style: schemas for outside data keep only the fields we use. Objects are loose
 * (unknown keys pass through) because merge and export copy a run's fields they do not interpret.
 */
import { z } from 'zod';

import {
  LEADERBOARD_SCHEMA,
  LEADERBOARD_SCHEMAS_READ,
  RESULTS_SCHEMA,
  RESULTS_SCHEMAS_READ,
} from './schema-versions.js';

export { LEADERBOARD_SCHEMA, LEADERBOARD_SCHEMAS_READ, RESULTS_SCHEMA, RESULTS_SCHEMAS_READ };

const entrySchema = z.record(z.string(), z.unknown());

const tokenizerSchema = z.looseObject({
  name: z.string(),
  vocab_size: z.number().nullable(),
  vocab_sha256: z.string().nullable(),
});

export const shardSchema = z.object({
  index: z.number().int().min(0),
  count: z.number().int().min(1),
  tasks: z.array(z.string()),
  include_path: z.array(z.string()).nullable(),
  samples: z.record(z.string(), z.array(z.number().int())).nullable(),
  predict_only: z.boolean(),
  /** `metadata` merged into every task's config (absent in shards written before it existed). */
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** Per request type: wall seconds and requests (assay runs). */
const requestTypeStatsSchema = z.looseObject({ seconds: z.number(), requests: z.number() });

/** Per task: the wall time of its own requests (see evaluate/request-timing.ts). */
export const taskLatencySchema = z.object({
  requests: z.number().int().min(0),
  mean_ms: z.number().nullable(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
});

const timeoutsSchema = z.looseObject({
  max_latency_s: z.number().positive(),
  samples: z.number().int().min(0),
  by_task: z.record(z.string(), z.number().int().min(0)),
});

/**
 * results.json as every reader takes it: assay's (any version in RESULTS_SCHEMAS_READ) or lm-eval's
 * own. lm-eval's keys that an older lm-eval may leave out default to empty; assay's keys are optional.
 */
export const resultsFileSchema = z.looseObject({
  results: z.record(z.string(), entrySchema),
  groups: z.record(z.string(), entrySchema).optional(),
  group_subtasks: z.record(z.string(), z.array(z.string())).default({}),
  configs: z.record(z.string(), entrySchema).default({}),
  versions: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).default({}),
  'n-shot': z.record(z.string(), z.number()).default({}),
  higher_is_better: z.record(z.string(), z.record(z.string(), z.boolean())).default({}),
  'n-samples': z
    .record(z.string(), z.looseObject({ original: z.number(), effective: z.number() }))
    .default({}),
  config: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((value) => value ?? {}),
  git_hash: z.string().nullish(),
  date: z.number().nullish(),
  task_hashes: z.record(z.string(), z.string()).nullish(),
  model_source: z.string().nullish(),
  model_name: z.string().nullish(),
  model_name_sanitized: z.string().nullish(),
  chat_template: z.string().nullish(),
  fewshot_as_multiturn: z.boolean().nullish(),
  total_evaluation_time_seconds: z.union([z.string(), z.number()]).nullish(),
  // assay's keys.
  assay_schema: z
    .string()
    .refine((value) => RESULTS_SCHEMAS_READ.includes(value), {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is not a results version this assay reads (${RESULTS_SCHEMAS_READ.join(', ')}); it was written by a newer assay`,
    })
    .optional(),
  assay_version: z.string().nullish(),
  /** lm-eval's files have none; their limit is in config.limit. */
  partial: z.boolean().optional(),
  request_stats: z
    .looseObject({
      loglikelihood: requestTypeStatsSchema.optional(),
      loglikelihood_rolling: requestTypeStatsSchema.optional(),
      generate_until: requestTypeStatsSchema.optional(),
      by_task: z.record(z.string(), taskLatencySchema).optional(),
    })
    .optional(),
  manifest: z
    .looseObject({
      tasks: z
        .record(
          z.string(),
          z.looseObject({
            /** The task's content: its config and every data file it read (what --expect_sha256 pins). */
            sha256: z.string().nullish(),
            /** The config alone (older results have only `sha256`, which was the config's). */
            config_sha256: z.string().nullish(),
            format: z.string().nullish(),
            /** What the content sha256 covers besides the config (suite run's skip check re-reads them). */
            data_files: z
              .array(z.looseObject({ split: z.string(), path: z.string(), sha256: z.string() }))
              .nullish(),
            python_modules: z.array(z.looseObject({ path: z.string(), sha256: z.string() })).nullish(),
            prompt_template_sha256: z.string().nullish(),
          }),
        )
        .optional(),
      /** The assay that wrote the run (lm-eval's files have none). */
      assay: z.looseObject({ version: z.string().nullish() }).nullish(),
      shard: shardSchema.optional(),
    })
    .optional(),
  stats: z
    .record(
      z.string(),
      z.record(z.string(), z.looseObject({ n: z.number(), ci_level: z.number().nullish() })),
    )
    .optional(),
  /** Errored samples per task (assay runs; older runs and lm-eval's have none: their sample logs tell). */
  errors: z
    .looseObject({
      samples: z.number().optional(),
      by_task: z.record(z.string(), z.number()),
      by_cause: z.record(z.string(), z.number()).optional(),
    })
    .optional(),
  /**
   * Runs with a latency cap (`--max_latency_s`): the docs a request of which went over it, per task. They
   * are neither wrong nor errors and count in no metric; each task's entry has its own `timeouts`.
   */
  timeouts: timeoutsSchema.optional(),
  /** Reasoning models: per task, generations and those that hit max_gen_toks while thinking. */
  reasoning: z
    .looseObject({
      generations: z.number().int().min(0),
      truncated_in_thinking: z.number().int().min(0),
      by_task: z.record(
        z.string(),
        z.looseObject({
          generations: z.number().int().min(0),
          truncated_in_thinking: z.number().int().min(0),
        }),
      ),
    })
    .optional(),
  /** Perplexity tasks: the tokenizer behind token counts (token_perplexity compares only under one). */
  perplexity: z
    .record(z.string(), z.looseObject({ tokenizer: tokenizerSchema.nullable().optional() }))
    .optional(),
  /** Tasks with `llm_judge` metrics: who judged, with which rubric, and how far the judge can be trusted. */
  judges: z
    .record(
      z.string(),
      z.array(
        z.looseObject({
          metric: z.string(),
          model: z.string(),
          /** compare refuses a judge metric unless one judge (model, args, jury, rubric) scored both runs. */
          model_args: z.record(z.string(), z.unknown()).optional(),
          jury: z.array(z.unknown()).optional(),
          rubric_sha256: z.string(),
          /** The verdict's form; compare reads how it is taken (`by`: generate, the default, or loglikelihood). */
          verdict: z.looseObject({ by: z.string().optional() }).optional(),
          errored: z.number(),
          statistics: z
            .looseObject({
              labelled: z.number(),
              agreement: z.looseObject({}),
              judge_mean: z.looseObject({ estimate: z.number() }),
              ppi: z.looseObject({
                estimate: z.number(),
                low: z.number(),
                high: z.number(),
                lambda: z.number(),
              }),
              moments: z
                .looseObject({
                  label_variance: z.number(),
                  judge_variance: z.number(),
                  covariance: z.number(),
                  documents: z.number(),
                })
                .optional(),
            })
            .optional(),
        }),
      ),
    )
    .optional(),
});

export type ReadResults = z.output<typeof resultsFileSchema>;

const seedSchema = z.number().nullable();

/**
 * One shard's results file as `assay merge` reads it: written by assay (`assay_schema` required), with
 * the run's settings a merge rebuilds its RunRecord from and the shard it was.
 */
export const shardResultsSchema = resultsFileSchema.extend({
  assay_schema: resultsFileSchema.shape.assay_schema.unwrap(),
  date: z.number(),
  total_evaluation_time_seconds: z.union([z.string(), z.number()]),
  git_hash: z.string().nullable(),
  model_source: z.string(),
  model_name: z.string(),
  system_instruction: z.string().nullable(),
  fewshot_as_multiturn: z.boolean(),
  chat_template: z.string().nullable(),
  partial: z.boolean(),
  config: z.looseObject({
    model_args: z.union([z.record(z.string(), z.unknown()), z.string()]),
    batch_size: z.union([z.string(), z.number()]),
    use_cache: z.string().nullable(),
    limit: z.number().nullable(),
    bootstrap_iters: z.number(),
    gen_kwargs: z.record(z.string(), z.unknown()).nullable(),
  }),
  request_stats: resultsFileSchema.shape.request_stats.unwrap().extend({
    usage: z
      .looseObject({
        requests: z.number(),
        httpRequests: z.number(),
        cachedRequests: z.number(),
        retries: z.number(),
        failedRequests: z.number(),
        seconds: z.number(),
        tokensIn: z.number(),
        tokensOut: z.number(),
        reasoningTokens: z.number().optional(),
        costUsd: z.number().nullable(),
      })
      .optional(),
  }),
  manifest: z.looseObject({
    tasks: z.record(
      z.string(),
      z.looseObject({ sha256: z.string().nullish(), config_sha256: z.string().nullish() }),
    ),
    shard: shardSchema,
    model: z.looseObject({ info: z.looseObject({ name: z.string() }) }),
    chat_template: z.looseObject({ applied: z.boolean(), name: z.string().nullable() }),
    seeds: z.looseObject({
      random: seedSchema,
      numpy: seedSchema,
      torch: seedSchema,
      fewshot: seedSchema,
      sampling: seedSchema,
    }),
    limit: z.looseObject({ used: z.boolean(), value: z.number().nullable(), samples: z.boolean() }),
    code_execution: z.record(z.string(), z.unknown()).optional(),
    python: z.record(z.string(), z.unknown()).optional(),
  }),
  errors: resultsFileSchema.shape.errors.unwrap(),
  perplexity: z
    .record(
      z.string(),
      z.looseObject({
        mode: z.string(),
        mode_source: z.string(),
        parameters: z.record(z.string(), z.unknown()),
        tokenizer: tokenizerSchema.nullable(),
        seconds: z.number(),
      }),
    )
    .optional(),
});

export type ShardResults = z.output<typeof shardResultsSchema>;

/**
 * One line of a sample log as readers take it: lm-eval's fields (the hashes and few-shot ids are
 * assay's and lm-eval ≥ 0.4's), assay's `error`, `gen_logprobs`, `ppl_doc` and `execution`, and each
 * metric's value under its own name.
 */
export const sampleLineSchema = z.looseObject({
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
  doc_hash: z.string().optional(),
  prompt_hash: z.string().optional(),
  target_hash: z.string().optional(),
  fewshot_ids: z.array(z.number()).optional(),
  error: z.string().optional(),
  /** A request of this doc went over the latency cap (`--max_latency_s`): in no metric, not an error. */
  timed_out: z.literal(true).optional(),
  gen_logprobs: z
    .array(z.array(z.object({ tokens: z.array(z.string()), logprobs: z.array(z.number()) }).nullable()))
    .optional(),
  /**
   * Reasoning models, per request and repeat (parallel to `resps`): the raw generation (`raw`, with
   * think_end_token), the server's reasoning field (`reasoning`), `truncated` (max_gen_toks reached inside
   * the thinking); null where a generation had none.
   */
  reasoning: z
    .array(
      z.array(
        z
          .object({ raw: z.string().optional(), reasoning: z.string().optional(), truncated: z.boolean() })
          .nullable(),
      ),
    )
    .optional(),
});

export type ReadSampleLine = z.output<typeof sampleLineSchema>;

/** The few fields the viewer's sample index keeps per line. */
export const indexedSampleSchema = sampleLineSchema.pick({ doc_id: true, filter: true, metrics: true });

/**
 * What pairing (compare, gate) needs of a line: the doc's identity, the filter, the outcome. Not loose:
 * the parse copies only these fields, not every doc and prompt of a 100,000-line log.
 */
export const pairingSampleSchema = z.object({
  doc_id: z.number(),
  doc_hash: z.string(),
  filter: z.string(),
  error: z.string().optional(),
  timed_out: z.literal(true).optional(),
  metrics: z.array(z.string()).optional(),
});

/** A line `assay merge` re-aggregates: everything a run wrote, with nothing defaulted. */
export const mergedSampleSchema = z.looseObject({
  doc_id: z.number().int(),
  doc: z.unknown(),
  target: z.string(),
  resps: z.array(z.unknown()),
  filtered_resps: z.array(z.unknown()),
  filter: z.string(),
  metrics: z.array(z.string()),
  doc_hash: z.string(),
  fewshot_ids: z.array(z.number()),
  error: z.string().optional(),
  timed_out: z.literal(true).optional(),
  ppl_doc: z.object({ logprob: z.number().nullable() }).optional(),
  repeat_scores: z.record(z.string(), z.array(z.number())).optional(),
  cluster_key: z.union([z.string(), z.number()]).optional(),
});

const intervalSchema = z.tuple([z.number(), z.number()]);

/** Per-task latency as the leaderboard shows it: the task's own requests, as results.json has them. */
const leaderboardLatencySchema = taskLatencySchema;

/** One task of leaderboard_<time>.json (v2). */
export const leaderboardTaskSchema = z.object({
  /** The primary metric (the task's first, as compare and gate default to); `score` for a JSONL file mixing metrics. */
  metric: z.string(),
  filter: z.string(),
  higher_is_better: z.boolean().nullable(),
  /** The range of the metric's values: `[0, 1]`, `[0, 100]`, `[-1, 1]`, `[0, inf)`, `(-inf, 0]`, `[1, inf)`; null when unknown. */
  scale: z.string().nullable(),
  /** null when nothing was scored (a predict-only run, or every doc errored). */
  value: z.number().nullable(),
  stderr: z.number().nullable(),
  /** The 95% interval results.json gives (`<metric>_ci,<filter>`); null without one. */
  ci: intervalSchema.nullable(),
  ci_level: z.number().nullable(),
  /** Docs scored (errored and timed-out docs excluded). */
  n: z.number().int().min(0),
  /** Docs scoring exactly 1 on a 0/1 metric; null for other metrics or without sample lines. */
  correct: z.number().int().nullable(),
  errors: z.number().int().min(0),
  timeouts: z.number().int().min(0),
  latency: leaderboardLatencySchema.nullable(),
  sha256: z.string().nullable(),
  /** Set when docs errored or timed out: the value covers only the answered docs. */
  partial: z.literal(true).optional(),
  /** A JSONL file whose lines name different metrics: each metric over the lines that use it. */
  metrics: z.record(z.string(), z.object({ value: z.number().nullable(), n: z.number().int() })).optional(),
  examples: z
    .array(z.object({ doc_id: z.number(), prediction: z.unknown(), target: z.unknown(), score: z.unknown() }))
    .optional(),
});

export const leaderboardSchema = z.object({
  schema: z.literal(LEADERBOARD_SCHEMA),
  model: z.string(),
  date: z.number().nullable(),
  /** The results file this leaderboard summarises, beside it. */
  results_file: z.string().nullable(),
  /** A --limit / --samples subset, or a run with errored or timed-out samples. */
  partial: z.boolean(),
  /** --predict_only: generations logged, nothing scored, so no task has a value. */
  predict_only: z.boolean(),
  errors: z.number().int().min(0),
  timeouts: z.number().int().min(0),
  tasks: z.record(z.string(), leaderboardTaskSchema),
  /** Mean of the task values, only when every task's primary metric has the same scale and direction. */
  overall: z.number().nullable(),
  /** The tasks `overall` averages (empty when it is null). */
  overall_tasks: z.array(z.string()),
  /** What `overall` is a mean of, or why it is null. */
  overall_note: z.string(),
});

/** leaderboard_<time>.json as assay ≤ 0.1 wrote it (v1): read for diffs against older runs. */
export const leaderboardV1Schema = z.looseObject({
  schema: z.literal('assay.leaderboard/v1'),
  model: z.string(),
  date: z.number().nullish(),
  partial: z.boolean().optional(),
  errors: z.number().optional(),
  tasks: z.record(
    z.string(),
    z.looseObject({
      metric: z.string(),
      filter: z.string(),
      score: z.number(),
      n: z.number(),
      errors: z.number().optional(),
      sha256: z.string().nullish(),
    }),
  ),
  overall: z.number().nullable(),
});

export type Leaderboard = z.output<typeof leaderboardSchema>;
export type LeaderboardTask = z.output<typeof leaderboardTaskSchema>;
