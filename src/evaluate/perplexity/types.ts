/**
 * The perplexity block's types: one task's entry in results.json `perplexity`, what one doc contributes
 * to it, and the tokenizer behind its token counts. Types only, so the scorer (score.ts), the report
 * (report.ts) and the stage (stage.ts) share them without importing each other.
 */
import type { PerplexitySettings } from './settings.js';

/** One task's entry in results.json `perplexity`. */
export interface PerplexityReport {
  mode: PerplexitySettings['mode'];
  /** Where the mode came from: --ppl_mode, the task's metadata.ppl_mode, or the default. */
  mode_source: PerplexitySettings['source'];
  parameters: Record<string, unknown>;
  tokenizer: TokenizerBlock | null;
  docs: number;
  windows: number | null;
  /** Tokens of the texts (BOS excluded) and how many of them were scored. */
  text_tokens: number | null;
  scored_tokens: number | null;
  /** The denominators behind token_perplexity, word_perplexity, byte_perplexity and bits_per_byte. */
  counts: { tokens: number | null; words: number | null; bytes: number | null };
  /** "text": counted on each doc as the task counts it; "scored spans": on the detokenized scored tokens. */
  counts_from: 'text' | 'scored spans' | 'text and scored spans';
  loglikelihood: number;
  token_perplexity: number | null;
  word_perplexity: number | null;
  byte_perplexity: number | null;
  bits_per_byte: number | null;
  /** chunked: llama-perplexity's "Final estimate: PPL = … +/- …" over every scored token of the task. */
  llama_cpp?: { ppl: number; ppl_stderr: number | null; chunks: number };
  seconds: number;
}

/** The tokenizer behind token counts; vocab fields are null when the backend cannot see the vocabulary. */
export interface TokenizerBlock {
  name: string;
  vocab_size: number | null;
  vocab_sha256: string | null;
  /** Why the vocabulary is unknown (served models whose server does not expose it). */
  note?: string;
}

/** What one doc contributes; written to its sample line as `ppl_doc`. */
export interface DocPerplexity {
  /** Σ log p over the doc's scored tokens. */
  logprob: number;
  /** Tokens of the text (BOS excluded); null when the backend cannot tokenize. */
  text_tokens: number | null;
  scored_tokens: number | null;
  windows: number | null;
  /** Words and bytes were counted on the detokenized scored spans (not every token was scored). */
  scored_spans: boolean;
  /** Chunked mode: Σ (−log p)² over the scored tokens, for llama-perplexity's standard error. */
  nll_squares?: number;
}

/** The parts of a report that do not depend on the docs: equal in every shard of a run. */
export type ReportIdentity = Pick<PerplexityReport, 'mode' | 'mode_source' | 'parameters' | 'tokenizer'>;
