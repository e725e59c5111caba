import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeUtf8 } from '../data/utf8.js';
import { AssayError, readError } from '../errors.js';
import { type TextPerplexityReport, textPerplexity } from '../evaluate/perplexity/text-perplexity.js';
import { createBackend } from '../models/registry.js';
import { writeFileAtomic } from '../report/write.js';
import { prepareReportFolder } from '../util/output-directory.js';
import { PPL_FLAGS } from './command-flags.js';
import { reportError } from './errors.js';
import { parseFlags } from './option-table.js';

/** `assay ppl --model … --model_args … --text FILE [--ppl_mode …]` */
export async function pplCommand(raw: Record<string, unknown>): Promise<number> {
  try {
    const flags = parseFlags(PPL_FLAGS, raw);
    const { format } = flags;
    const options = { mode: flags.ppl_mode, stride: flags.ppl_stride, maxLength: flags.ppl_max_length };
    const file = String(flags.text);
    let text: string;
    try {
      text = decodeUtf8(readFileSync(file), file);
    } catch (error) {
      if (error instanceof AssayError) throw error;
      throw readError('--text', file, error);
    }
    const outputPath = flags.output_path;
    // The report's folder is made and probed before the model loads.
    if (outputPath) await prepareReportFolder(outputPath);
    const modelArgs = flags.model_args ?? {};
    const backend = await createBackend(String(flags.model), modelArgs, {});
    let report: TextPerplexityReport;
    try {
      report = await textPerplexity(backend, text, options, {
        file,
        sha256: createHash('sha256').update(text).digest('hex'),
      });
    } finally {
      await backend.close?.();
    }
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (outputPath) await writeFileAtomic(outputPath, json);
    process.stdout.write(format === 'json' ? json : render(report));
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

const number = (value: number | null, digits = 4) => (value === null ? 'n/a' : value.toFixed(digits));

function render(report: TextPerplexityReport): string {
  const lines: string[] = [];
  const parameters = Object.entries(report.parameters)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
  lines.push(`mode: ${report.mode} (${parameters})`);
  lines.push(
    report.tokenizer
      ? `tokenizer: ${report.tokenizer.name}, vocab ${report.tokenizer.vocab_size ?? 'unknown'}, vocab sha256 ${report.tokenizer.vocab_sha256 ?? 'unknown'}${report.tokenizer.note ? ` (${report.tokenizer.note})` : ''}`
      : 'tokenizer: not exposed by this backend (token counts unknown)',
  );
  lines.push(
    `tokens: ${report.text_tokens ?? 'n/a'} in the text, ${report.scored_tokens ?? 'n/a'} scored in ${report.windows ?? 'n/a'} windows; words ${report.counts.words}, bytes ${report.counts.bytes} (counted on the ${report.counts_from})`,
  );
  if (report.llama_cpp)
    lines.push(
      `llama-perplexity estimate: PPL = ${number(report.llama_cpp.ppl)} +/- ${number(report.llama_cpp.ppl_stderr, 5)} over ${report.llama_cpp.chunks} chunks`,
    );
  lines.push(`token_perplexity: ${number(report.token_perplexity)}`);
  lines.push(`word_perplexity:  ${number(report.word_perplexity)}`);
  lines.push(`byte_perplexity:  ${number(report.byte_perplexity)}`);
  lines.push(`bits_per_byte:    ${number(report.bits_per_byte)}`);
  return `${lines.join('\n')}\n`;
}
