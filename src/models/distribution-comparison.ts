/**
 * assay kld's way into the models: capability `distributionComparison` (spec/distribution-comparison.ts),
 * implemented by the gguf engine process. kld imports this file only, never a backend's internals.
 */

export { openGgufDistributionComparison as openDistributionComparison } from './gguf/distribution-comparison.js';
export { fileSha256 } from './gguf/gguf-backend.js';
export type {
  ComparedPositions,
  DistributionComparison,
  DistributionComparisonOptions,
} from './spec/distribution-comparison.js';
