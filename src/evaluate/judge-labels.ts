/**
 * `judge_labels`: a JSONL file of human labels for a slice of a task's docs, one `{"doc_id": n, "label":
 * x}` per line. A label is a number on the verdict's scale, or (label verdicts) one of the verdict's
 * labels, read as the score it stands for. Every problem names the file and line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AssayError } from '../errors.js';
import type { JudgeVerdictSpec } from '../metrics/llm-judge-config.js';

/** doc id → the human label's score. */
export type JudgeLabels = Map<number, number>;

/** Resolves `file` against the task file's folder first, as local data files are. */
export function judgeLabelsPath(file: string, taskFile: string): string {
  return path.isAbsolute(file) ? file : path.resolve(path.dirname(taskFile), file);
}

export async function readJudgeLabels(file: string, verdict: JudgeVerdictSpec): Promise<JudgeLabels> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AssayError(
      'not_found',
      `judge_labels file ${file} cannot be read: ${(error as Error).message}`,
      {
        location: { file, field: 'judge_labels' },
        cause: error,
      },
    );
  }
  const labels: JudgeLabels = new Map();
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const lineNumber = index + 1;
    const bad = (message: string) =>
      new AssayError('bad_jsonl_line', `${file}:${lineNumber}: ${message}`, {
        location: { file, line: lineNumber, field: 'judge_labels' },
      });
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw bad(`not JSON: ${(error as Error).message}`);
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw bad('expected an object {"doc_id": n, "label": x}');
    }
    const { doc_id: docId, label } = record as Record<string, unknown>;
    if (typeof docId !== 'number' || !Number.isInteger(docId) || docId < 0) {
      throw bad(`doc_id must be a non-negative integer, got ${JSON.stringify(docId)}`);
    }
    if (labels.has(docId)) throw bad(`doc_id ${docId} is labelled twice`);
    labels.set(docId, labelScore(label, verdict, bad));
  }
  if (labels.size === 0)
    throw new AssayError('bad_data', `judge_labels file ${file} has no labels`, { location: { file } });
  return labels;
}

function labelScore(label: unknown, verdict: JudgeVerdictSpec, bad: (message: string) => AssayError): number {
  if (typeof label === 'number' && Number.isFinite(label)) {
    if (verdict.type === 'score' && (label < verdict.min || label > verdict.max)) {
      throw bad(`label ${label} is outside the verdict's scale [${verdict.min}, ${verdict.max}]`);
    }
    return label;
  }
  if (typeof label === 'string' && verdict.type === 'label') {
    const name = Object.keys(verdict.labels).find(
      (candidate) => candidate.toLowerCase() === label.toLowerCase(),
    );
    if (name === undefined)
      throw bad(`label ${JSON.stringify(label)} is not one of ${Object.keys(verdict.labels).join(', ')}`);
    return verdict.labels[name];
  }
  throw bad(
    `label must be a number${verdict.type === 'label' ? ' or one of the verdict labels' : ''}, got ${JSON.stringify(label)}`,
  );
}
