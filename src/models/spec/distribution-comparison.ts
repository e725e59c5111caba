/**
 * Capability `distributionComparison`: two models' next-token distributions compared over the whole
 * vocabulary at the same token positions, as llama-perplexity's `--kl-divergence` does (assay kld). The
 * full distributions never leave the engine: what comes back is, per scored position, KL(base ‖ model),
 * whether both pick the same top token, and both log-probabilities of the actual next token.
 */
export interface DistributionComparison {
  /**
   * The text's tokens by the base model's tokenizer (no BOS) and its BOS policy; refuses two models whose
   * vocabularies differ (KL divergence needs one token space).
   */
  tokenize(text: string): Promise<{ tokens: number[]; bos: number | null; addBos: boolean }>;
  /** Decodes each window on both models and compares them at positions scoreFrom … end. */
  compare(windows: Array<{ tokens: number[]; scoreFrom: number }>): Promise<ComparedPositions>;
  /** The engine that compared: its scorer, llama.cpp's commit and the threads it used. */
  readonly engine: { scorer: 'native'; llamaCppCommit?: string; threads: number };
  close(): Promise<void>;
}

/** Per scored position, in order. */
export interface ComparedPositions {
  kl: number[];
  sameTop: boolean[];
  baseLogprobs: number[];
  modelLogprobs: number[];
}

export interface DistributionComparisonOptions {
  basePath: string;
  modelPath: string;
  /** Positions per chunk (llama-perplexity's -c). */
  nCtx: number;
  /** Default: 1 for small models, else every core. */
  threads?: number;
}
