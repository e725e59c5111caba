/**
 * One line of samples_<task>_<time>.jsonl as assay writes it: lm-eval's fields, assay's few-shot ids and
 * additions, and each metric's value under its own name. The writer (report/samples.ts) builds values of
 * `SampleLine`, the type inferred from `writtenSampleLineSchema`; readers parse with the laxer
 * sampleLineSchema and its narrower picks (schema.ts), and schema-guards.ts keeps every written line
 * readable by each of them.
 */
import { z } from 'zod';
import type { GeneratedTokens, GenerationThinking } from '../models/backend.js';

/** What one doc of a loglikelihood_rolling task contributes to its perplexity block. */
const docPerplexitySchema = z.object({
  /** Σ log p over the doc's scored tokens. */
  logprob: z.number(),
  /** Tokens of the text (BOS excluded); null when the backend cannot tokenize. */
  text_tokens: z.number().nullable(),
  scored_tokens: z.number().nullable(),
  windows: z.number().nullable(),
  /** Words and bytes were counted on the detokenized scored spans (not every token was scored). */
  scored_spans: z.boolean(),
  /** Chunked mode: Σ (−log p)² over the scored tokens, for llama-perplexity's standard error. */
  nll_squares: z.number().optional(),
});

/** One judge call of a sample line's `judge` (the viewer reads it with this schema too). */
export const judgeCallSchema = z.object({
  metric: z.string(),
  model: z.string(),
  prompt: z.string(),
  raw: z.string().nullable(),
  verdict: z.unknown(),
  score: z.number().nullable(),
  error: z.string().optional(),
  /**
   * A log-likelihood verdict (`by: loglikelihood`): each option's log-likelihood as the prompt's
   * continuation (−∞, which JSON writes as null, for an impossible one); `raw` is then the option picked.
   */
  loglikelihoods: z.record(z.string(), z.number().nullable()).optional(),
  /** Pairwise judging: which response the judge was shown first. */
  order: z.enum(['current-first', 'baseline-first']).optional(),
});

/** A sample line as written; loose because each metric's value sits under its own name. */
export const writtenSampleLineSchema = z.looseObject({
  doc_id: z.number(),
  doc: z.unknown(),
  target: z.string(),
  arguments: z.record(z.string(), z.record(z.string(), z.unknown())),
  resps: z.array(z.unknown()),
  filtered_resps: z.array(z.unknown()),
  filter: z.string(),
  metrics: z.array(z.string()),
  doc_hash: z.string(),
  prompt_hash: z.string(),
  target_hash: z.string(),
  fewshot_ids: z.array(z.number()),
  error: z.string().optional(),
  /** A request of this doc went over the latency cap (`--max_latency_s`): in no metric, not an error. */
  timed_out: z.literal(true).optional(),
  /**
   * Served models that return them: per request and repeat (parallel to `resps`), the generated tokens and
   * their log-probabilities; null where the server gave none.
   */
  gen_logprobs: z.array(z.array(z.custom<GeneratedTokens>().nullable())).optional(),
  /**
   * Reasoning models, per request and repeat (parallel to `resps`, which hold the answers): the raw
   * generation with its thinking (`raw`), the server's reasoning field (`reasoning`), and `truncated` when
   * max_gen_toks was reached inside the thinking; null where a generation had none.
   */
  reasoning: z.array(z.array(z.custom<GenerationThinking>().nullable())).optional(),
  /** loglikelihood_rolling tasks: the doc's log-likelihood, token and window counts. */
  ppl_doc: docPerplexitySchema.optional(),
  /**
   * Tasks with `repeats` > 1, docs that scored: per metric, the score of each repeat alone (what the
   * within-question variance is computed from; see ScoredDoc.repeatScores).
   */
  repeat_scores: z.record(z.string(), z.array(z.number())).optional(),
  /** Tasks with `cluster_by`: the doc's value of that field, the cluster its scores count in. */
  cluster_key: z.union([z.string(), z.number()]).optional(),
  /**
   * `llm_judge` metrics: per judge call, the metric, the judge model, the full prompt it was sent, its raw
   * answer (or the options' log-likelihoods), the parsed verdict and its score (null with `error` when the
   * answer held no verdict or the request failed: the sample is then errored).
   */
  judge: z.array(judgeCallSchema).optional(),
});

export type SampleLine = z.input<typeof writtenSampleLineSchema>;
/** A doc's `ppl_doc`: what `assay merge` rebuilds the perplexity block from. */
export type DocPerplexity = NonNullable<SampleLine['ppl_doc']>;
/** One judge call of a sample line's `judge`. */
export type JudgeCall = NonNullable<SampleLine['judge']>[number];
