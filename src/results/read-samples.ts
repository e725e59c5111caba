/**
 * The one reader of sample logs (samples_<task>_<time>.jsonl): every line is a JSON object checked
 * against the contract (schema.ts) at the depth its reader needs: pairing fields for compare and gate,
 * a whole written line for merge, a displayable line for the viewer (whose index reads lines by byte
 * offset and checks each with `checkSampleLine`). A bad line is named by file and line number.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { AssayError } from '../errors.js';
import { firstIssue } from './read-run.js';
import type { SampleLine } from './sample-line.js';
import { mergedSampleSchema, pairingSampleSchema, type ReadSampleLine, sampleLineSchema } from './schema.js';

/** One sample-log line, reduced to what pairing needs. */
export interface SampleScore {
  docId: number;
  docHash: string;
  filter: string;
  error?: string;
  /** A request of the doc went over the latency cap (`maxLatencyS`): the doc has no score. */
  timedOut?: true;
  values: Record<string, unknown>;
}

/** A line of a sample log checked against `schema`, or what is wrong with it (line is 0-based). */
export function checkSampleLine<Schema extends z.ZodType>(
  text: string,
  line: number,
  schema: Schema,
):
  | { ok: true; sample: z.output<Schema>; raw: Record<string, unknown> }
  | { ok: false; code: 'bad_jsonl_line' | 'bad_data'; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      code: 'bad_jsonl_line',
      problem: `line ${line + 1} of the sample log is not JSON: ${shorten((error as Error).message)}`,
    };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, sample: parsed.data, raw: value as Record<string, unknown> };
  return {
    ok: false,
    code: 'bad_data',
    problem: `line ${line + 1} of the sample log is not a sample line: ${firstIssue(parsed.error)}`,
  };
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Each non-blank line of a file with its 0-based number, without splitting the whole text at once. */
function* linesOf(text: string): Generator<{ text: string; line: number }> {
  let start = 0;
  let line = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const content = text.slice(start, end);
    if (content.trim()) yield { text: content, line };
    start = end + 1;
    line++;
  }
}

function read<Schema extends z.ZodType>(file: string, schema: Schema) {
  const out: Array<{ sample: z.output<Schema>; raw: Record<string, unknown> }> = [];
  for (const { text, line } of linesOf(readFileSync(file, 'utf8'))) {
    const checked = checkSampleLine(text, line, schema);
    if (!checked.ok) {
      throw new AssayError(checked.code, checked.problem, { location: { file, line: line + 1 } });
    }
    out.push({ sample: checked.sample, raw: checked.raw });
  }
  return out;
}

/**
 * Keeps only the metric values a line lists in `metrics` (lm-eval writes that list too): holding every
 * parsed doc, prompt and response of 100,000 lines costs more in garbage collection than parsing them.
 */
function metricValues(line: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(line.metrics)) return line;
  const out: Record<string, unknown> = {};
  for (const name of line.metrics) if (typeof name === 'string') out[name] = line[name];
  return out;
}

/** A sample log's lines as pairing reads them (compare, gate, the viewer's compare page). */
export function readSampleScores(file: string): SampleScore[] {
  return read(file, pairingSampleSchema).map(({ sample, raw }) => ({
    docId: sample.doc_id,
    docHash: sample.doc_hash,
    filter: sample.filter,
    error: sample.error,
    ...(sample.timed_out ? { timedOut: true as const } : {}),
    values: metricValues(raw),
  }));
}

/**
 * A sample log's lines exactly as written (key order kept, so they re-serialize to the same bytes), each
 * checked to hold what `assay merge` reads: doc, ids, filter, metrics, responses.
 */
export function readSampleLog(file: string): SampleLine[] {
  return read(file, mergedSampleSchema).map(({ raw }) => raw as SampleLine);
}

/**
 * A sample log's lines as the contract reads them, lm-eval's or assay's (the library's reader, `assay/results`):
 * every line checked, absent lists defaulted to empty and `filter` to `none`, every other key kept.
 */
export function readSamples(file: string): ReadSampleLine[] {
  return read(file, sampleLineSchema).map(({ sample }) => sample);
}
