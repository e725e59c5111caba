import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeUtf8 } from '../data/utf8.js';
import { AssayError, readError } from '../errors.js';
import { type KldReport, klDivergence } from '../kld/kl-divergence.js';
import type { MeanAndError } from '../kld/statistics.js';
import { taskText } from '../kld/task-text.js';
import { writeFileAtomic } from '../report/write.js';
import { prepareReportFolder } from '../util/output-directory.js';
import { KLD_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { parseFlags } from './option-table.js';

/** `assay kld --base base.gguf --model quant.gguf (--text FILE | --tasks wikitext) [--n_ctx 512]` */
export async function kldCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(KLD_FLAGS, raw);
    const { format } = flags;
    const hasText = flags.text !== undefined;
    const hasTasks = flags.tasks !== undefined;
    if (hasText === hasTasks)
      throw new AssayError('bad_option', 'give exactly one of --text FILE or --tasks NAME');
    const outputPath = flags.output_path;
    if (outputPath) await prepareReportFolder(outputPath);
    let text: string;
    let source: Record<string, unknown>;
    if (hasText) {
      const file = String(flags.text);
      try {
        text = decodeUtf8(readFileSync(file), file);
      } catch (error) {
        if (error instanceof AssayError) throw error;
        throw readError('--text', file, error);
      }
      source = { file, sha256: createHash('sha256').update(text).digest('hex') };
    } else {
      const includePath = flags.include_path === undefined ? undefined : [flags.include_path];
      ({ text, source } = await taskText(String(flags.tasks), { includePath, limit: flags.limit }));
    }
    const report = await klDivergence({
      basePath: String(flags.base),
      modelPath: String(flags.model),
      text,
      nCtx: flags.n_ctx,
      threads: flags.threads,
      source,
    });
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (outputPath) await writeFileAtomic(outputPath, json);
    process.stdout.write(format === 'json' ? json : render(report));
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

const plusMinus = (value: MeanAndError, digits: number) =>
  `${value.value.toFixed(digits)} ± ${value.stderr === null ? 'n/a' : value.stderr.toFixed(digits)}`;

/** The same lines, in the same order, as llama-perplexity's KL-divergence summary. */
function render(report: KldReport): string {
  const kl = report.kl_divergence;
  const percent = (value: MeanAndError) =>
    `${(value.value * 100).toFixed(3)} ± ${value.stderr === null ? 'n/a' : (value.stderr * 100).toFixed(3)} %`;
  return [
    `base:  ${report.base.path}`,
    `model: ${report.model.path}`,
    `${report.chunks} chunks of n_ctx=${report.n_ctx}, ${report.tokens} scored tokens`,
    '',
    '====== Perplexity statistics ======',
    `Mean PPL(Q)                   : ${plusMinus(report.perplexity.model, 6)}`,
    `Mean PPL(base)                : ${plusMinus(report.perplexity.base, 6)}`,
    `Mean ln(PPL(Q)/PPL(base))     : ${plusMinus(report.perplexity.ln_ratio, 6)}`,
    `Mean PPL(Q)/PPL(base)         : ${plusMinus(report.perplexity.ratio, 6)}`,
    '',
    '====== KL divergence statistics ======',
    `Mean    KLD: ${kl.mean.toFixed(6)} ± ${kl.stderr === null ? 'n/a' : kl.stderr.toFixed(6)}`,
    `Maximum KLD: ${kl.max.toFixed(6)}`,
    `99.9%   KLD: ${kl.p99_9.toFixed(6)}`,
    `99.0%   KLD: ${kl.p99.toFixed(6)}`,
    `95.0%   KLD: ${kl.p95.toFixed(6)}`,
    `90.0%   KLD: ${kl.p90.toFixed(6)}`,
    `Median  KLD: ${kl.median.toFixed(6)}`,
    `10.0%   KLD: ${kl.p10.toFixed(6)}`,
    ` 5.0%   KLD: ${kl.p5.toFixed(6)}`,
    ` 1.0%   KLD: ${kl.p1.toFixed(6)}`,
    `Minimum KLD: ${kl.min.toFixed(6)}`,
    '',
    `Same top p: ${percent(report.same_top)}`,
    '',
  ].join('\n');
}
