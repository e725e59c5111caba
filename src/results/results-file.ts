/**
 * results_<time>.json as assay writes it: lm-eval's keys in lm-eval's order, then assay's additions. The
 * writer (report/build.ts, report/merge/assemble.ts) builds values of `ResultsFile`, the type inferred
 * from `writtenResultsSchema`; the evaluator's values that end up in the file (request latency, the
 * perplexity block, a shard's record, an interval's method) are typed by this contract too, so there is
 * one declaration of each. Readers parse with the laxer resultsFileSchema (schema.ts, which also takes
 * lm-eval's files and older versions); schema-guards.ts keeps every written file readable by it.
 *
 * Blocks owned by a lower folder (the backend's ModelInfo and usage, the sandbox's and the interpreter's
 * descriptions) are named by their owner's type (`z.custom`), not declared twice.
 */
import { z } from 'zod';
import type { ModelInfo, UsageSummary } from '../models/backend.js';
import type { PythonDescription } from '../python/python-runtime.js';
import type { SandboxDescription } from '../sandbox/sandbox.js';
import { PPL_MODES } from './ppl-modes.js';
import { shardSchema, taskLatencySchema } from './schema.js';

export { PPL_MODES };

const requestTypeStatsSchema = z.object({ seconds: z.number(), requests: z.number() });

/** The tokenizer behind token counts; vocab fields are null when the backend cannot see the vocabulary. */
const tokenizerBlockSchema = z.object({
  name: z.string(),
  vocab_size: z.number().nullable(),
  vocab_sha256: z.string().nullable(),
  /** Why the vocabulary is unknown (served models whose server does not expose it). */
  note: z.string().optional(),
});

/** One task's entry in results.json `perplexity`. */
const perplexityReportSchema = z.object({
  mode: z.enum(PPL_MODES),
  /** Where the mode came from: --ppl_mode (`cli`), the task's metadata.ppl_mode, or the default. */
  mode_source: z.enum(['cli', 'task', 'default']),
  parameters: z.record(z.string(), z.unknown()),
  tokenizer: tokenizerBlockSchema.nullable(),
  docs: z.number(),
  windows: z.number().nullable(),
  /** Tokens of the texts (BOS excluded) and how many of them were scored. */
  text_tokens: z.number().nullable(),
  scored_tokens: z.number().nullable(),
  /** The denominators behind token_perplexity, word_perplexity, byte_perplexity and bits_per_byte. */
  counts: z.object({
    tokens: z.number().nullable(),
    words: z.number().nullable(),
    bytes: z.number().nullable(),
  }),
  /** "text": counted on each doc as the task counts it; "scored spans": on the detokenized scored tokens. */
  counts_from: z.enum(['text', 'scored spans', 'text and scored spans']),
  loglikelihood: z.number(),
  token_perplexity: z.number().nullable(),
  word_perplexity: z.number().nullable(),
  byte_perplexity: z.number().nullable(),
  bits_per_byte: z.number().nullable(),
  /** chunked: llama-perplexity's "Final estimate: PPL = … +/- …" over every scored token of the task. */
  llama_cpp: z.object({ ppl: z.number(), ppl_stderr: z.number().nullable(), chunks: z.number() }).optional(),
  seconds: z.number(),
});

/** One task's entry in the manifest. */
const taskManifestSchema = z.object({
  version: z.union([z.number(), z.string(), z.null()]),
  source: z.string(),
  format: z.string(),
  /** The task's content: its config and every data file in `data_files` (what --expect_sha256 pins). */
  sha256: z.string(),
  /** The config alone: the task file, its includes and the modules it imports. */
  config_sha256: z.string(),
  dataset_path: z.string().nullable(),
  dataset_name: z.string().nullable(),
  /** Hub data: the revision the task asked for and the commit it resolved to. */
  dataset_revision: z.string().nullable(),
  dataset_commit: z.string().nullable(),
  /** Every data file read, local or Hub (Hub: the repo path; local: relative to the task's folder). */
  data_files: z.array(
    z.object({ split: z.string(), path: z.string(), sha256: z.string(), size: z.number() }),
  ),
  /**
   * Tasks with Python functions: every module of their code, the `!function` modules and the task-code
   * modules they import (relative to the task's folder), which `sha256` covers.
   */
  python_modules: z.array(z.object({ path: z.string(), sha256: z.string() })).optional(),
  split: z.string().nullable(),
  fewshot_split: z.string().nullable(),
  num_fewshot: z.number(),
  fewshot_sampler: z.string(),
  fewshot_seed: z.number().nullable(),
  prompt_template_sha256: z.string(),
  scoring_mode: z.enum(['loglikelihood', 'rolling', 'generation']),
  length_normalisation: z.string().nullable(),
  repeats: z.number(),
});

const seedSchema = z.number().nullable();

/** What produced the results: model, code, tasks and their data, seeds, hardware (`manifest`). */
const manifestSchema = z.object({
  schema: z.literal('assay.manifest/v1'),
  model: z.object({
    backend: z.string(),
    name: z.string(),
    revision: z.string().nullable(),
    sha256: z.string().nullable(),
    model_args: z.record(z.string(), z.unknown()),
    info: z.custom<ModelInfo>(),
  }),
  assay: z.object({ version: z.string(), git_commit: z.string().nullable() }),
  tasks: z.record(z.string(), taskManifestSchema),
  chat_template: z.object({
    applied: z.boolean(),
    name: z.string().nullable(),
    sha256: z.string().nullable(),
  }),
  system_instruction_sha256: z.string().nullable(),
  fewshot_as_multiturn: z.boolean(),
  seeds: z.object({
    random: seedSchema,
    numpy: seedSchema,
    torch: seedSchema,
    fewshot: seedSchema,
    sampling: seedSchema,
  }),
  limit: z.object({ used: z.boolean(), value: z.number().nullable(), samples: z.boolean() }),
  hardware: z.object({
    cpu: z.string(),
    cores: z.number(),
    memory_bytes: z.number(),
    gpu: z.string().nullable(),
    numeric_format: z.string().nullable(),
  }),
  runtime: z.object({ node: z.string(), platform: z.string(), arch: z.string() }),
  /** How model-written code ran; present only for runs that executed code. */
  code_execution: z.custom<SandboxDescription>().optional(),
  /**
   * The interpreter that ran the tasks' Python functions (path, version, and the versions of datasets,
   * numpy and lm_eval when importable, else null); present only for runs that needed one.
   */
  python: z.custom<PythonDescription>().optional(),
  /** Present only in the results of one `--shard i/N` run; `assay merge` removes it. */
  shard: shardSchema.optional(),
});

/** The statistics behind one `metric,filter` of results.json, beyond lm-eval's value and stderr. */
const metricStatsSchema = z.object({
  n: z.number(),
  ci_level: z.number().nullable(),
  /** wilson (0/1 means), t (other means), percentile-bootstrap, normal (group means: value ± z·stderr). */
  ci_method: z.enum(['wilson', 't', 'percentile-bootstrap', 'normal']).nullable(),
  clustered: z
    .object({
      by: z.string(),
      clusters: z.number(),
      /** null with fewer than 2 clusters, with `note` saying why. */
      stderr: z.number().nullable(),
      stderr_cr1: z.number().nullable(),
      naive_stderr: z.number(),
      note: z.string().optional(),
      estimator: z.literal('miller-2024-eq4'),
      cluster_correction_applied: z.literal(false),
    })
    .optional(),
  /**
   * A custom aggregation's bootstrap (assay's own: lm-eval bootstraps no function, and writes a
   * `!function` aggregation's `_stderr` as "N/A"). `stderr` is null when a resample could not be
   * aggregated (the function raised on it, or gave no finite number), with the reason in `note`.
   */
  bootstrap: z
    .object({ stderr: z.number().nullable(), iterations: z.number(), note: z.string().optional() })
    .optional(),
  repeats: z
    .object({
      k: z.number(),
      questions: z.number(),
      within_question_variance: z.number(),
      variance_of_question_means: z.number(),
      variance_of_mean: z.number(),
      within_share: z.number().nullable(),
    })
    .optional(),
});

/**
 * The run's errored samples. Every task (and group) with any also says so in its own entry:
 * `partial: true`, `errors`, `answered` (the docs its metrics are computed over) and a `note`.
 */
const errorsBlockSchema = z.object({
  samples: z.number(),
  by_task: z.record(z.string(), z.number()),
  /** Absent when the causes are not known (a merged run: sample logs keep the messages only). */
  by_cause: z.record(z.string(), z.number()).optional(),
  first: z.object({ task: z.string(), doc_id: z.number(), message: z.string() }).nullable().optional(),
});

/**
 * A capped run's timed-out samples: docs with a request not answered within `max_latency_s` seconds.
 * They are neither wrong nor errors and count in no metric; each task's entry has its `timeouts` count.
 */
const timeoutsBlockSchema = z.object({
  max_latency_s: z.number(),
  samples: z.number(),
  by_task: z.record(z.string(), z.number()),
});

/**
 * Per task, the generations of a reasoning model and how many hit max_gen_toks inside the thinking
 * section (answer empty, or under the think_end_token rule the thinking text itself); the sample log marks
 * each with `reasoning[i][j].truncated`.
 */
const reasoningBlockSchema = z.object({
  generations: z.number(),
  truncated_in_thinking: z.number(),
  by_task: z.record(z.string(), z.object({ generations: z.number(), truncated_in_thinking: z.number() })),
});

const entrySchema = z.record(z.string(), z.unknown());

/** results_<time>.json as assay writes it (`assay_schema` RESULTS_SCHEMA). */

const estimateSchema = z.object({
  estimate: z.number(),
  standard_error: z.number(),
  low: z.number(),
  high: z.number(),
});

const agreementSchema = z.object({
  estimate: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** Bootstrap replicates on which the statistic was undefined (e.g. κ when one category remained). */
  undefined_replicates: z.number(),
});

/** One `llm_judge` metric of a task: who judged, with what rubric, and how far its scores can be trusted. */
const judgeReportSchema = z.object({
  metric: z.string(),
  model: z.string(),
  /** The judge's model args (an API key redacted). */
  model_args: z.record(z.string(), z.unknown()),
  /** A jury: each juror's model and args, and how their scores combine. */
  jury: z.array(z.object({ model: z.string(), model_args: z.record(z.string(), z.unknown()) })).optional(),
  aggregate: z.enum(['mean', 'majority']).optional(),
  /** A jury's inter-judge agreement: Krippendorff's α over the docs, jurors as raters. */
  jury_agreement: z
    .object({
      krippendorff_alpha: agreementSchema,
      krippendorff_level: z.enum(['nominal', 'ordinal', 'interval', 'ratio']),
      units: z.number(),
    })
    .optional(),
  rubric_sha256: z.string(),
  mode: z.enum(['reference-based', 'reference-free', 'pairwise']),
  /**
   * Pairwise judging: the baseline run, the pairs judged, the share whose verdict survived swapping the
   * order, the first position's share of decisive verdicts (0.5 without position bias), and this run's win
   * rate (wins + ½ ties; a pair whose two orders disagree is a tie).
   */
  pairwise: z
    .object({
      baseline: z.string(),
      pairs: z.number(),
      consistency: z.number().nullable(),
      first_position_share: z.number().nullable(),
      win_rate: z.number().nullable(),
    })
    .optional(),
  verdict: z.record(z.string(), z.unknown()),
  /** Judge calls made (after deduplication), and samples errored by a failed call or an unparseable verdict. */
  requests: z.number(),
  errored: z.number(),
  /**
   * Served judges: what this task's judge calls cost each judge (jury order; null for a judge that reports
   * no usage). Answers from the response cache count in `cached_requests` and send nothing.
   */
  usage: z
    .array(
      z
        .object({
          requests: z.number(),
          http_requests: z.number(),
          cached_requests: z.number(),
          retries: z.number(),
          tokens_in: z.number(),
          tokens_out: z.number(),
          cost_usd: z.number().nullable(),
        })
        .nullable(),
    )
    .optional(),
  /** With `judge_labels`: agreement with the human labels, and the prediction-powered (PPI++) estimate. */
  statistics: z
    .object({
      labels_file: z.string(),
      confidence: z.number(),
      /** Docs with a judge score and a human label / with a judge score only. */
      labelled: z.number(),
      unlabelled: z.number(),
      bootstrap: z.object({ iterations: z.number(), seed: z.number() }),
      agreement: z.object({
        accuracy: agreementSchema,
        cohen_kappa: agreementSchema,
        /** Score verdicts (ordinal scales): quadratic-weighted κ. */
        weighted_kappa: agreementSchema.optional(),
        krippendorff_alpha: agreementSchema,
        krippendorff_level: z.enum(['nominal', 'ordinal', 'interval', 'ratio']),
        /** Label verdicts: counts[i][j] = docs the humans labelled labels[i] and the judge labels[j]. */
        confusion: z.object({ labels: z.array(z.string()), counts: z.array(z.array(z.number())) }).optional(),
      }),
      /** The raw judge mean over every scored doc, with the interval that takes the judge for the truth. */
      judge_mean: estimateSchema,
      /** The human labels' mean alone. */
      labels_mean: estimateSchema,
      /** PPI++: the judge mean corrected by the labelled slice, λ tuned. */
      ppi: estimateSchema.extend({ lambda: z.number() }),
      /** The labels' and judge scores' variances (n − 1) and covariance, and the docs judged: for `assay power`. */
      moments: z.object({
        label_variance: z.number(),
        judge_variance: z.number(),
        covariance: z.number(),
        documents: z.number(),
      }),
    })
    .optional(),
});

export const writtenResultsSchema = z.object({
  results: z.record(z.string(), entrySchema),
  groups: z.record(z.string(), entrySchema).optional(),
  group_subtasks: z.record(z.string(), z.array(z.string())),
  configs: z.record(z.string(), z.record(z.string(), z.unknown())),
  versions: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  'n-shot': z.record(z.string(), z.number()),
  higher_is_better: z.record(z.string(), z.record(z.string(), z.boolean())),
  'n-samples': z.record(z.string(), z.object({ original: z.number(), effective: z.number() })),
  config: z.record(z.string(), z.unknown()),
  git_hash: z.string().nullable(),
  date: z.number(),
  task_hashes: z.record(z.string(), z.string()),
  model_source: z.string(),
  model_name: z.string(),
  model_name_sanitized: z.string(),
  system_instruction: z.string().nullable(),
  system_instruction_sha: z.string().nullable(),
  fewshot_as_multiturn: z.boolean(),
  chat_template: z.string().nullable(),
  chat_template_sha: z.string().nullable(),
  total_evaluation_time_seconds: z.string(),
  assay_schema: z.string(),
  assay_version: z.string(),
  partial: z.boolean(),
  /**
   * Timing, not scores. Per request type: wall seconds and count; `usage` from served backends
   * (requests/s, p50/p95, tokens, cost); `by_task`: each task's own requests (evaluate/request-timing.ts).
   */
  request_stats: z.object({
    loglikelihood: requestTypeStatsSchema.optional(),
    loglikelihood_rolling: requestTypeStatsSchema.optional(),
    generate_until: requestTypeStatsSchema.optional(),
    usage: z.custom<UsageSummary>().optional(),
    by_task: z.record(z.string(), taskLatencySchema).optional(),
  }),
  manifest: manifestSchema,
  /** task or group → `metric,filter` → how its stderr and interval were computed (docs/statistics.md). */
  stats: z.record(z.string(), z.record(z.string(), metricStatsSchema)),
  /** loglikelihood_rolling task → perplexity mode, parameters, tokenizer and the counts behind each metric. */
  perplexity: z.record(z.string(), perplexityReportSchema).optional(),
  /** Errored samples: docs a failed request or a failed metric left out of every metric. */
  errors: errorsBlockSchema,
  /** Present when the run had a latency cap (`--max_latency_s`): the docs whose requests went over it. */
  timeouts: timeoutsBlockSchema.optional(),
  /** Present when a reasoning model answered (think_end_token, or a server's reasoning field). */
  reasoning: reasoningBlockSchema.optional(),
  /** task → its `llm_judge` metrics: the judge, the rubric's sha256, and with judge_labels its statistics. */
  judges: z.record(z.string(), z.array(judgeReportSchema)).optional(),
});

/** What the writer builds: the type of results_<time>.json. Its parts below are named from it. */
export type ResultsFile = z.input<typeof writtenResultsSchema>;
export type ResultsEntry = ResultsFile['results'][string];
export type Manifest = ResultsFile['manifest'];
export type TaskManifest = Manifest['tasks'][string];
/** A shard run's `manifest.shard`: what `assay merge` rebuilds the single run from. */
export type ShardRecord = NonNullable<Manifest['shard']>;
export type MetricStats = ResultsFile['stats'][string][string];
export type ErrorsBlock = ResultsFile['errors'];
export type TimeoutsBlock = NonNullable<ResultsFile['timeouts']>;
export type ReasoningBlock = NonNullable<ResultsFile['reasoning']>;
/** One `llm_judge` metric's entry in results.json `judges`. */
export type JudgeReport = NonNullable<ResultsFile['judges']>[string][number];
export type JudgeStatisticsBlock = NonNullable<JudgeReport['statistics']>;
/** How a metric's interval was computed. */
export type CiMethod = NonNullable<MetricStats['ci_method']>;
/** The three kinds of request a task sends, as `request_stats` names them. */
export type RequestType = Exclude<keyof ResultsFile['request_stats'], 'usage' | 'by_task'>;
/** Per request type: wall seconds and requests. */
export type RequestLatency = Pick<ResultsFile['request_stats'], RequestType>;
/** A task's request latency: how many requests and their mean, median and 95th percentile in ms. */
export type TaskLatency = NonNullable<ResultsFile['request_stats']['by_task']>[string];
export type PerplexityReport = NonNullable<ResultsFile['perplexity']>[string];
export type PplMode = PerplexityReport['mode'];
export type TokenizerBlock = NonNullable<PerplexityReport['tokenizer']>;
/** Where a perplexity mode came from: the run's option, the task's metadata, or the default. */
export type PerplexitySource = PerplexityReport['mode_source'];
