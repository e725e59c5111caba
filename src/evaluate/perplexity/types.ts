/**
 * The perplexity block's types: one task's entry in results.json `perplexity`, what one doc contributes
 * to it (its sample line's `ppl_doc`), and the tokenizer behind its token counts. They are the results
 * contract's (results/results-file.ts, results/sample-line.ts); named here so the scorer (score.ts), the
 * report (report.ts) and the stage (stage.ts) share them without importing each other.
 */
import type { PerplexityReport, TokenizerBlock } from '../../results/results-file.js';
import type { DocPerplexity } from '../../results/sample-line.js';

export type { DocPerplexity, PerplexityReport, TokenizerBlock };

/** The parts of a report that do not depend on the docs: equal in every shard of a run. */
export type ReportIdentity = Pick<PerplexityReport, 'mode' | 'mode_source' | 'parameters' | 'tokenizer'>;
