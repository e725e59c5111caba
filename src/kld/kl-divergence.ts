/**
 * `assay kld`: how far a quantized (or otherwise changed) model's next-token distributions are from a
 * base model's, over a text, as llama.cpp's `llama-perplexity --kl-divergence` reports it: per-token
 * KL(base ‖ model) over the whole vocabulary, the rate at which both pick the same top token, and
 * both perplexities with their ratio. The text is laid out as llama-perplexity lays it out (chunks of
 * n_ctx tokens starting with BOS, the second half of each scored), and both models read exactly the
 * same tokens. Needs the native scorer: the full distributions never leave C++, and run in the engine
 * process (capability `distributionComparison`, models/distribution-comparison.ts), never in this one.
 */
import path from 'node:path';
import { AssayError } from '../errors.js';
import { chunkedWindows } from '../evaluate/perplexity/windows.js';
import { fileSha256, openDistributionComparison } from '../models/distribution-comparison.js';
import {
  type Distribution,
  distribution,
  exponentiated,
  type MeanAndError,
  meanAndError,
} from './statistics.js';

export interface KldOptions {
  basePath: string;
  modelPath: string;
  text: string;
  /** Chunk size in tokens (llama-perplexity's -c); default 512. */
  nCtx?: number;
  threads?: number;
  /** Where the text came from, for the report. */
  source?: Record<string, unknown>;
}

export interface KldReport {
  base: { path: string; sha256: string };
  model: { path: string; sha256: string };
  source?: Record<string, unknown>;
  n_ctx: number;
  chunks: number;
  /** Scored token positions (each a KL value and a same-top outcome). */
  tokens: number;
  kl_divergence: Distribution;
  same_top: MeanAndError;
  perplexity: {
    base: MeanAndError;
    model: MeanAndError;
    /** PPL(model) / PPL(base) = exp(mean ΔNLL), with the delta-method error of the paired differences. */
    ratio: MeanAndError;
    /** mean ln(PPL(model) / PPL(base)) per token, i.e. mean ΔNLL. */
    ln_ratio: MeanAndError;
  };
  engine: { scorer: 'native'; llamaCppCommit?: string; threads: number };
}

export async function klDivergence(options: KldOptions): Promise<KldReport> {
  const nCtx = options.nCtx ?? 512;
  const comparison = openDistributionComparison({
    basePath: options.basePath,
    modelPath: options.modelPath,
    nCtx,
    threads: options.threads,
  });
  try {
    const { tokens, bos, addBos } = await comparison.tokenize(options.text);
    const layout = chunkedWindows(tokens, { nCtx, bos, addBos, requireTwoChunks: false });
    if (layout.windows.length === 0) {
      throw new AssayError(
        'bad_data',
        `the text tokenizes to ${layout.sequence.length} tokens, fewer than one chunk of n_ctx=${nCtx}; give a longer text or a smaller \`nCtx\``,
      );
    }
    const positions = await comparison.compare(layout.windows);
    const baseNll = positions.baseLogprobs.map((value) => -value);
    const modelNll = positions.modelLogprobs.map((value) => -value);
    const lnRatio = meanAndError(
      positions.modelLogprobs.map((value, i) => positions.baseLogprobs[i] - value),
    );
    const [baseSha, modelSha] = await Promise.all([
      fileSha256(options.basePath),
      fileSha256(options.modelPath),
    ]);
    return {
      base: { path: path.resolve(options.basePath), sha256: baseSha },
      model: { path: path.resolve(options.modelPath), sha256: modelSha },
      ...(options.source ? { source: options.source } : {}),
      n_ctx: nCtx,
      chunks: layout.windows.length,
      tokens: positions.kl.length,
      kl_divergence: distribution(positions.kl),
      same_top: meanAndError(positions.sameTop.map(Number)),
      perplexity: {
        base: exponentiated(meanAndError(baseNll)),
        model: exponentiated(meanAndError(modelNll)),
        ratio: exponentiated(lnRatio),
        ln_ratio: lnRatio,
      },
      engine: comparison.engine,
    };
  } finally {
    await comparison.close();
  }
}
