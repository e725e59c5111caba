/**
 * The perplexity modes of a loglikelihood_rolling task (the run's `perplexity.mode`, a task's
 * `metadata.ppl_mode`), apart from the results file's zod schema (results-file.ts), so that a run checks
 * its options without loading it.
 */
export const PPL_MODES = ['rolling', 'strided', 'chunked'] as const;
