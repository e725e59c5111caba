/**
 * The results tables `assay run` and `assay merge` print on stdout: lm-eval's columns with the 95%
 * interval and n after them, then the groups' table, then the notes on intervals (uncertainty-notes.ts) and
 * on each judged metric (judge-notes.ts);
 * or, with `--table lm-eval`, lm-eval's tables exactly, for people who diff them.
 */
import { judgeNotes } from '../results/judge-notes.js';
import type { JudgeReport } from '../results/results-file.js';
import { makeTable, type TableSource } from '../results/table.js';
import { uncertaintyNotes } from '../results/uncertainty-notes.js';
import type { TableStyle } from './console-flags.js';

export function resultsTables(
  results: TableSource & { judges?: Record<string, JudgeReport[]> },
  style: TableStyle,
): string {
  const uncertainty = style === 'assay';
  let text = makeTable(results, 'results', { uncertainty });
  if (results.groups) text += `\n${makeTable(results, 'groups', { uncertainty })}`;
  const notes = uncertainty ? [...uncertaintyNotes(results), ...judgeNotes(results)] : [];
  return notes.length ? `${text}\n${notes.join('\n')}\n` : text;
}
