/**
 * `assay/compare`: two runs side by side. `compareRuns` pairs their samples by document and tests B − A
 * per task and group (`assay compare`); `gateRuns` is the regression gate (`assay gate`); without sample
 * logs, `diffLeaderboards` compares the two runs' leaderboards; `comparePairedScores` runs the paired
 * tests on score arrays of your own. An entry file: it only re-exports, and nothing in src/ imports it.
 */
export {
  type Adjustment,
  type CompareOptions,
  type ComparisonRow,
  compareRuns,
  type FlipEntry,
  type RunComparison,
} from './compare-runs.js';
export {
  type ComparisonFormat,
  type RenderComparisonOptions,
  renderComparison,
} from './format-comparison.js';
export { renderLeaderboardDiff } from './format-leaderboard-diff.js';
export {
  type GateMode,
  type GateOptions,
  type GateReport,
  type GateStatus,
  type GateTaskResult,
  gateRuns,
} from './gate.js';
export {
  JUDGE_AGREEMENT_STATISTICS,
  type JudgeAgreement,
  type JudgeAgreementStatistic,
} from './judge-match.js';
export {
  type DiffChange,
  diffLeaderboards,
  type LeaderboardDiff,
  type LeaderboardDiffRow,
  type LeaderboardSide,
  loadLeaderboardSide,
} from './leaderboard-diff.js';
export type { NonInferiorityMethod } from './non-inferiority.js';
export type { PairingOptions, TimeoutTreatment } from './pair-samples.js';
export {
  comparePairedScores,
  type PairedComparison,
  type PairedComparisonOptions,
  type WilcoxonSummary,
} from './paired-comparison.js';
export type { Outcome } from './verdict.js';
