/**
 * The JSONL `code_exec` check: the prediction defines `f`; a runner in the sandbox calls it on each
 * test's input and reports what came back (io-runners.ts). The expected outputs never enter the
 * sandbox: they are compared here, after a JSON round trip, with each language's equality as before
 * (Python: `_assay_same`; JavaScript: isDeepStrictEqual). A test passes only when its one report
 * carries the expected value (and printed text); tests that passed before a hang or a crash still
 * count, and nothing the program writes can count for a test it did not answer correctly.
 */
import { isDeepStrictEqual } from 'node:util';
import { pythonJson, pythonSame } from './python-values.js';
import type { CodeOutcome, IoProgram, Language } from './types.js';

export interface IoTest {
  /** Positional arguments for f; a non-list value is passed as the single argument. */
  input: unknown;
  /** Expected return value, compared after a JSON round trip (tuples become lists). */
  output?: unknown;
  /** Expected text printed while f ran. */
  stdout?: string;
}

export interface IoTestReport {
  test: number;
  ok: boolean;
  message?: string;
}

/** The code inside the first Markdown code fence, else the whole answer. */
export function extractCode(prediction: string): string {
  const fenced = /```[\w+-]*[^\S\n]*\n([\s\S]*?)(?:\n```|$)/.exec(prediction);
  return fenced ? fenced[1] : prediction;
}

/** What the sandbox gets: the code and the inputs, never the expected outputs. */
export function ioProgram(language: Language, prediction: string, tests: IoTest[]): IoProgram {
  return { language, code: extractCode(prediction), inputs: tests.map((test) => test.input) };
}

/** The runner's job, on its stdin. */
export function ioJob(program: IoProgram): string {
  return JSON.stringify({ code: program.code, inputs: program.inputs });
}

type Record = [number, 'ok', string, string] | [number, 'error', string];

function parseRecord(line: string): Record | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || !Number.isInteger(value[0])) return undefined;
  if (value[1] === 'ok' && value.length === 4 && typeof value[2] === 'string' && typeof value[3] === 'string')
    return value as Record;
  if (value[1] === 'error' && value.length === 3 && typeof value[2] === 'string') return value as Record;
  return undefined;
}

/** JSON's view of a value, as the harness compared it before (-0 becomes 0, and so on). */
function roundTrip(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

function judge(language: Language, test: IoTest, got: string, printed: string): string | null {
  let value: unknown;
  let parsed = true;
  try {
    value = JSON.parse(got);
  } catch {
    // Python's NaN and Infinity are not JSON: they equal no expected value.
    parsed = false;
  }
  const python = language === 'python';
  if ('output' in test) {
    const expected = roundTrip(test.output);
    const same = parsed && (python ? pythonSame(value, expected) : isDeepStrictEqual(value, expected));
    if (!same) {
      const shown = python ? pythonJson(expected) : JSON.stringify(expected);
      return `expected ${shown.slice(0, 200)}, got ${got.slice(0, 200)}`;
    }
  }
  if ('stdout' in test && printed !== test.stdout) {
    const show = (text: string) => (python ? pythonJson(text) : JSON.stringify(text)).slice(0, 200);
    return `expected stdout ${show(test.stdout ?? '')}, got ${show(printed)}`;
  }
  return null;
}

export interface IoReports {
  /** Set when the answer did not load (a syntax error, no f): the runner's exception line. */
  loadError?: string;
  reports: IoTestReport[];
}

/** Each test's verdict from the runner's reports on fd 4: one report per test, the expected value. */
export function readIoReports(channel: string, language: Language, tests: IoTest[]): IoReports {
  const seen = new Map<number, Record[]>();
  let loadError: string | undefined;
  for (const line of channel.split('\n')) {
    const record = parseRecord(line);
    if (!record) continue;
    if (record[0] === -1 && record[1] === 'error') loadError ??= record[2];
    if (record[0] < 0 || record[0] >= tests.length) continue;
    seen.set(record[0], [...(seen.get(record[0]) ?? []), record]);
  }
  const reports: IoTestReport[] = [];
  for (const [test, records] of [...seen].sort(([a], [b]) => a - b)) {
    if (records.length > 1) {
      reports.push({ test, ok: false, message: 'reported more than once' });
      continue;
    }
    const [record] = records;
    if (record[1] === 'error') {
      reports.push({ test, ok: false, message: record[2] });
      continue;
    }
    const message = judge(language, tests[test], record[2], record[3]);
    reports.push(message === null ? { test, ok: true } : { test, ok: false, message });
  }
  return reports.length === 0 && loadError !== undefined ? { loadError, reports } : { reports };
}

/** The fraction of tests matched, and one outcome for the whole program with the first reason it fell short. */
export function scoreIoTests(
  runOutcome: CodeOutcome,
  judged: IoReports,
  tests: number,
): { score: number; outcome: CodeOutcome } {
  const { reports } = judged;
  const passed = reports.filter((report) => report.ok).length;
  const score = tests === 0 ? 0 : passed / tests;
  const summary = `${passed}/${tests} tests passed`;
  if (judged.loadError !== undefined) {
    const status = /^AssertionError\b/.test(judged.loadError) ? 'failed' : 'error';
    return { score, outcome: { status, message: `${judged.loadError} (${summary})` } };
  }
  if (runOutcome.status !== 'passed')
    return { score, outcome: { status: runOutcome.status, message: `${runOutcome.message} (${summary})` } };
  if (passed === tests && reports.length === tests) return { score, outcome: { status: 'passed' } };
  const firstFailure = reports.find((report) => !report.ok);
  const message = firstFailure
    ? `test ${firstFailure.test}: ${firstFailure.message ?? 'failed'} (${summary})`
    : `only ${reports.length} of ${tests} tests reported (${summary})`;
  return { score, outcome: { status: 'failed', message } };
}
