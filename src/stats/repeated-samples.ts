/**
 * Scores with K samples per question (repeats, "epochs"). Miller (2024) §3: the question is the unit of
 * independence, so the mean's stderr comes from the question means; the within-question variance shows
 * how much of that is sampling noise that more repeats would average away. Treating all n·K samples as
 * independent (`pooledStandardError`) understates the stderr and is reported only to show by how much.
 */
import { mean, meanStderr, sampleVariance } from './descriptive.js';
import { badArgument, requireFiniteValues } from './validate.js';

export interface RepeatedSamplesSummary {
  questionMeans: number[];
  mean: number;
  /** √(var(question means, n−1) / questions): the stderr to report. */
  standardError: number;
  /** The wrong stderr that pools all samples as if independent. */
  pooledStandardError: number;
  /** Within-question variance (n−1 over each question's K samples), per question. */
  withinVariances: number[];
  /** Mean of `withinVariances`: E[σ²ᵢ]. NaN when some question has a single sample. */
  meanWithinVariance: number;
  /** var(question means) − E[σ²ᵢ / Kᵢ]: the between-question variance left after removing sampling noise. */
  betweenVariance: number;
  /**
   * Share of the variance of the mean that more repeats could remove: E[σ²ᵢ/Kᵢ] over E[σ²ᵢ/Kᵢ] plus the
   * between-question variance truncated at 0, i.e. min(1, E[σ²ᵢ/Kᵢ] / var(question means)). The plain
   * ratio exceeds 1 whenever sampling error puts var(question means) below the noise estimate (the
   * method-of-moments between-question variance is then negative); a share cannot. NaN with no variance.
   */
  withinShare: number;
}

export function resampledQuestionScores(
  scoresByQuestion: ReadonlyArray<ArrayLike<number>>,
): RepeatedSamplesSummary {
  const where = 'resampledQuestionScores';
  if (scoresByQuestion.length < 2)
    throw badArgument(where, `needs at least 2 questions, got ${scoresByQuestion.length}`);
  const all: number[] = [];
  const questionMeans: number[] = [];
  const withinVariances: number[] = [];
  let noiseOfMeans = 0;
  scoresByQuestion.forEach((samples, question) => {
    requireFiniteValues(where, `scores of question ${question}`, samples, 1);
    for (let k = 0; k < samples.length; k++) all.push(samples[k]);
    questionMeans.push(mean(samples));
    const within = sampleVariance(samples);
    withinVariances.push(within);
    noiseOfMeans += within / samples.length;
  });
  const questions = questionMeans.length;
  const varianceOfMeans = sampleVariance(questionMeans);
  const meanWithinVariance = withinVariances.reduce((sum, value) => sum + value, 0) / questions;
  noiseOfMeans /= questions;
  return {
    questionMeans,
    mean: mean(questionMeans),
    standardError: meanStderr(questionMeans),
    pooledStandardError: meanStderr(all),
    withinVariances,
    meanWithinVariance,
    betweenVariance: varianceOfMeans - noiseOfMeans,
    withinShare:
      Math.max(noiseOfMeans, varianceOfMeans) === 0
        ? Number.NaN
        : noiseOfMeans / Math.max(noiseOfMeans, varianceOfMeans),
  };
}
