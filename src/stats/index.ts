/**
 * `assay/stats`, the statistics library: per-run stderrs and intervals, paired tests, multiple
 * comparisons, pass@k, power. An entry file: it only re-exports.
 */
export {
  type AgreementInterval,
  type AgreementIntervalOptions,
  agreementInterval,
} from './agreement-interval.js';
export type { Alternative } from './alternative.js';
export { binomialTest } from './binomial-test.js';
export {
  type BcaAcceleration,
  type BootstrapInterval,
  type BootstrapIntervalMethod,
  type BootstrapIntervalOptions,
  bcaAcceleration,
  bcaAdjustedPercentiles,
  bcaBiasCorrection,
  bootstrapInterval,
  percentileOfSorted,
} from './bootstrap-interval.js';
export {
  type Aggregate,
  type BootstrapOptions,
  bootstrapReplicates,
  bootstrapStderr,
  type CountAggregate,
  type FastBootstrapOptions,
  type LmEvalBootstrapOptions,
  meanFromCounts,
  medianFromCounts,
} from './bootstrap-stderr.js';
export { BoundedMeanTest, type BoundedMeanTestOptions } from './bounded-mean-test.js';
export { type Category, sortedCategories } from './category-order.js';
export {
  type ClusteredEstimator,
  type ClusteredStderr,
  type ClusteredStderrOptions,
  clusteredStandardError,
} from './clustered-stderr.js';
export { type CohenKappaOptions, cohenKappa, type KappaWeights } from './cohen-kappa.js';
export { type ConfusionMatrix, confusionMatrix } from './confusion-matrix.js';
export {
  isBinary,
  mean,
  meanStderr,
  pearsonCorrelation,
  plugInStderr,
  sampleCovariance,
  sampleStddev,
  sampleVariance,
} from './descriptive.js';
export * from './distributions.js';
export { FastRandom } from './fast-random.js';
export {
  concatenatedStderr,
  type GroupStderr,
  groupMean,
  groupStderr,
  lmEvalPooledStderr,
  stratifiedStderr,
  unweightedMeanStderr,
} from './group-stderr.js';
export {
  type KrippendorffAlpha,
  type KrippendorffAlphaOptions,
  krippendorffAlpha,
  type MeasurementLevel,
  type Rating,
} from './krippendorff-alpha.js';
export {
  MCNEMAR_EXACT_BELOW,
  type McNemarResult,
  mcnemarRejectionThreshold,
  mcnemarTest,
} from './mcnemar.js';
export { normalInterval } from './normal-interval.js';
export { adjustPValues, type PValueAdjustment } from './p-value-adjustment.js';
export {
  type PairedBootstrapOptions,
  type PairedBootstrapResult,
  pairedBootstrapInterval,
} from './paired-bootstrap.js';
export {
  type FlipTable,
  type PairedDifference,
  type PairedDifferenceOptions,
  pairedDifference,
} from './paired-difference.js';
export {
  mcnemarMatchedContinuity,
  type PairedDifferenceInterval,
  pairedDifferenceInterval,
} from './paired-difference-interval.js';
export { type PairedTTestResult, pairedTTest } from './paired-t-test.js';
export { type PassAtKAggregate, passAtK, passAtKAggregate, passHatK } from './pass-at-k.js';
export {
  comparePassK,
  evaluatePassK,
  type PassKComparison,
  type PassKComparisonMethod,
  type PassKEvaluation,
  type PassKProblem,
} from './pass-at-k-comparison.js';
export {
  type PermutationTestOptions,
  type PermutationTestResult,
  pairedPermutationTest,
} from './permutation-test.js';
export {
  type PairwiseJudgement,
  type PairwiseVerdict,
  type PositionConsistency,
  positionConsistency,
} from './position-consistency.js';
export {
  type AccuracyMde,
  type AccuracyMdeInputs,
  type AccuracyPowerInputs,
  accuracyCorrelationBounds,
  accuracyDifferenceVariance,
  accuracyMinimumDetectableEffect,
  accuracyPowerPlan,
  type EffectDirection,
  type InfeasibleCorrelation,
  minimumDetectableEffect,
  type PowerInputs,
  powerSampleSize,
  type SampleSize,
} from './power.js';
export {
  type EstimateWithInterval,
  type PpiMeanEstimate,
  type PpiMeanInput,
  type PpiMeanOptions,
  ppiMean,
  ppiTunedLambda,
} from './ppi-mean.js';
export {
  type PpiMoments,
  type PpiSampleSize,
  type PpiSampleSizeInputs,
  ppiMomentsFromPilot,
  ppiSampleSize,
  ppiVariance,
} from './ppi-sample-size.js';
export {
  type Interval,
  type ProportionInterval,
  type ProportionIntervalMethod,
  proportionConfidenceInterval,
} from './proportion-interval.js';
export { type RepeatedSamplesSummary, resampledQuestionScores } from './repeated-samples.js';
export { meanScoreInterval, type ScoreInterval } from './score-interval.js';
export { type MeanInterval, tInterval } from './t-interval.js';
export {
  type PairedProportionTable,
  type TangoInterval,
  type TangoOptions,
  type TangoTestResult,
  tangoNullVariance,
  tangoScoreInterval,
  tangoScoreStatistic,
  tangoScoreTest,
} from './tango-score.js';
export {
  type WilcoxonMethod,
  type WilcoxonOptions,
  type WilcoxonResult,
  type WilcoxonZeroMethod,
  wilcoxonNullDistribution,
  wilcoxonSignedRank,
} from './wilcoxon.js';
