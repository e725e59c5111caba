/**
 * The README's judge command, as written, offline: the demo GGUF model answers examples/judge's 30
 * questions and judges them by log-likelihood. What the demo's verdicts are is not asserted (they are a
 * bigram model's); what is: every doc has a verdict picked as the most likely option of those it scored,
 * and the agreement and PPI++ numbers in results.json are those the statistics functions give on the
 * sample log's verdicts against labels.jsonl (those functions are checked against references in their
 * own tests).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JudgeReport } from '../src/results/results-file.js';
import type { SampleLine } from '../src/results/sample-line.js';
import { cohenKappa } from '../src/stats/cohen-kappa.js';
import { krippendorffAlpha } from '../src/stats/krippendorff-alpha.js';
import { ppiMean } from '../src/stats/ppi-mean.js';
import { runCli } from './support/cli.js';
import { findOne, readJson, readJsonl, repoRoot, tempDir } from './support/helpers.js';

/** The README's command for the judge example, its arguments after `assay`. */
function readmeCommand(): string[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const line = readme.split('\n').find((text) => text.includes('examples/judge/judged_qa.yaml --'));
  if (line === undefined) throw new Error('README.md has no command running examples/judge/judged_qa.yaml');
  return line.trim().split(/\s+/).slice(1);
}

describe('examples/judge offline (README)', () => {
  it('the demo GGUF model answers and judges every doc; results hold the statistics of its verdicts', () => {
    const args = readmeCommand();
    expect(args.slice(0, 5)).toEqual(['run', '--model', 'gguf', '--tasks', 'examples/judge/judged_qa.yaml']);
    const output = tempDir('assay-judge-offline-');
    const outputAt = args.indexOf('--output_path') + 1;
    expect(outputAt).toBeGreaterThan(0);
    args[outputAt] = output;
    const result = runCli(args, { env: { ASSAY_CACHE_DIR: tempDir('assay-cache-') } });
    expect(result.status, result.stderr).toBe(0);

    const lines = readJsonl<SampleLine & { llm_judge?: number }>(
      findOne(path.join(output, 'gguf'), /^samples_judged_qa_.*\.jsonl$/),
    );
    expect(lines.map((line) => line.doc_id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, n) => n),
    );
    const scores = new Map<number, number>();
    for (const line of lines) {
      expect(line.error).toBeUndefined();
      expect(line.judge).toHaveLength(1);
      const [call] = line.judge ?? [];
      // The prompt is the rubric rendered over this doc and its response, ending where the score goes.
      expect(call.prompt).toContain(`Question: ${(line.doc as { question: string }).question}\n`);
      expect(call.prompt).toContain(`Answer to grade: ${String(line.filtered_resps[0])}\nScore:`);
      const loglikelihoods = call.loglikelihoods ?? {};
      expect(Object.keys(loglikelihoods)).toEqual(['1', '2', '3', '4', '5']);
      const values = Object.values(loglikelihoods).map(Number);
      for (const value of values) expect(value).toBeLessThan(0);
      // The verdict is the most likely option, the first of equals.
      const best = values.indexOf(Math.max(...values));
      expect(call.raw).toBe(String(best + 1));
      expect(call.score).toBe(best + 1);
      expect(call.verdict).toBe(best + 1);
      expect(line.llm_judge).toBe(best + 1);
      scores.set(line.doc_id, best + 1);
    }

    const results = readJson<{
      results: Record<string, Record<string, number>>;
      judges: Record<string, JudgeReport[]>;
      stats: Record<string, Record<string, { ci_method: string | null }>>;
    }>(findOne(path.join(output, 'gguf'), /^results_.*\.json$/));
    // Scores on the rubric's 1–5 scale are not a proportion, even when every one is 1 (as the demo
    // judge's are): a t-interval inside the scale, never Wilson's (whose bound for 30 ones is 0.886).
    expect(results.stats.judged_qa['llm_judge,none'].ci_method).toBe('t');
    const [low, high] = results.results.judged_qa['llm_judge_ci,none'] as unknown as [number, number];
    expect(low).toBeGreaterThanOrEqual(1);
    expect(high).toBeLessThanOrEqual(5);
    const [report] = results.judges.judged_qa;
    // Five options scored per doc.
    expect(report).toMatchObject({ model: 'gguf', requests: 150, errored: 0 });
    expect(report.verdict).toEqual({ type: 'score', min: 1, max: 5, by: 'loglikelihood' });
    const judgeMean = [...scores.values()].reduce((sum, score) => sum + score, 0) / scores.size;
    expect(results.results.judged_qa['llm_judge,none']).toBeCloseTo(judgeMean, 12);

    const labels = new Map(
      readJsonl<{ doc_id: number; label: number }>(path.join(repoRoot, 'examples/judge/labels.jsonl')).map(
        (row) => [row.doc_id, row.label],
      ),
    );
    const ids = [...labels.keys()];
    const judge = ids.map((id) => scores.get(id) as number);
    const human = ids.map((id) => labels.get(id) as number);
    const statistics = report.statistics;
    expect(statistics).toMatchObject({ labelled: 30, unlabelled: 0 });
    // The console qualifies the judge's mean where it prints it: the agreement and the corrected estimate.
    expect(result.stdout).toContain(
      `judge: judged_qa llm_judge: judged by gguf; against 30 human labels: Cohen's κ ${statistics?.agreement.cohen_kappa.estimate?.toFixed(3)}`,
    );
    expect(result.stdout).toContain(`PPI++ estimate ${statistics?.ppi.estimate.toFixed(3)} [`);
    expect(statistics?.agreement.cohen_kappa.estimate).toBeCloseTo(cohenKappa(judge, human), 12);
    expect(statistics?.agreement.weighted_kappa?.estimate).toBeCloseTo(
      cohenKappa(judge, human, { weights: 'quadratic' }),
      12,
    );
    expect(statistics?.agreement.krippendorff_alpha.estimate).toBeCloseTo(
      krippendorffAlpha([judge, human], { level: 'interval' }).alpha,
      12,
    );
    const accuracy = judge.filter((score, index) => score === human[index]).length / judge.length;
    expect(statistics?.agreement.accuracy.estimate).toBeCloseTo(accuracy, 12);
    const ppi = ppiMean({ labels: human, judgeLabelled: judge, judgeUnlabelled: [] });
    expect(statistics?.ppi).toEqual({
      estimate: expect.closeTo(ppi.estimate, 12),
      standard_error: expect.closeTo(ppi.standardError, 12),
      low: expect.closeTo(ppi.low, 12),
      high: expect.closeTo(ppi.high, 12),
      lambda: expect.closeTo(ppi.lambda, 12),
    });
    expect(statistics?.judge_mean.estimate).toBeCloseTo(ppi.naive.estimate, 12);
    expect(statistics?.labels_mean.estimate).toBeCloseTo(ppi.classical.estimate, 12);
    // Two GGUF engines (the model and its judge) and 150 scored options: longer than the default 60 s when
    // the machine is loaded; runCli's own 120 s limit still bounds the run.
  }, 150_000);
});
