/**
 * The JSONL `code_exec` check: the prediction defines `f`; a runner in the sandbox calls it on each
 * test's input and answers with what came back (io-runners.ts). The expected outputs never enter the
 * sandbox: they are compared here, after a JSON round trip, with each language's equality as before
 * (Python: `_assay_same`; JavaScript: isDeepStrictEqual).
 *
 * The inputs go in one at a time (IoDialogue), each with a fresh nonce, sent only once the previous
 * answer has arrived; the first line carrying the current nonce is the answer. So a line the program
 * writes before it is asked, or after it was answered, counts for nothing, and a test passes only
 * when the program, asked for that input, answered the expected value. Tests answered before a hang
 * or a crash still count.
 */
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { pythonJson, pythonSame } from '../python/semantics/json-values.js';
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

/** What the program answered for one test: the JSON text of f's value and what it printed, or an error. */
export type IoAnswer = { test: number; value: string; printed: string } | { test: number; error: string };

export interface IoAnswers {
  /** Set when the answer did not load (a syntax error, no f): the runner's exception line. */
  loadError?: string;
  answers: IoAnswer[];
}

const nonce = () => randomBytes(12).toString('hex');

/** The host's side of the conversation with the runner: opening line, then one input per answer. */
export class IoDialogue {
  private readonly inputs: unknown[];
  private readonly code: string;
  private current = nonce();
  /** -1 while the code loads, then the index of the test being asked. */
  private asking = -1;
  private readonly answers: IoAnswer[] = [];
  private loadError?: string;

  constructor(program: IoProgram) {
    this.inputs = program.inputs;
    this.code = program.code;
  }

  opening(): string {
    return `${JSON.stringify({ nonce: this.current, code: this.code })}\n`;
  }

  /** One line from the channel; returns the next line to send, undefined to wait, null when done. */
  reply(line: string): string | null | undefined {
    const record = parseReply(line);
    if (!record || record[0] !== this.current) return undefined;
    if (this.asking === -1) {
      if (record[1] === 'error') {
        this.loadError = record[2];
        return null;
      }
      if (record[1] !== 'loaded') return undefined;
    } else if (record[1] === 'ok') {
      this.answers.push({ test: this.asking, value: record[2], printed: record[3] });
    } else if (record[1] === 'error') {
      this.answers.push({ test: this.asking, error: record[2] });
    } else {
      return undefined;
    }
    this.asking++;
    if (this.asking >= this.inputs.length) return null;
    this.current = nonce();
    return `${JSON.stringify({ nonce: this.current, input: this.inputs[this.asking] })}\n`;
  }

  result(): IoAnswers {
    return this.loadError === undefined
      ? { answers: [...this.answers] }
      : { loadError: this.loadError, answers: [] };
  }
}

type Reply = [string, 'loaded'] | [string, 'ok', string, string] | [string, 'error', string];

function parseReply(line: string): Reply | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || typeof value[0] !== 'string') return undefined;
  if (value[1] === 'loaded' && value.length === 2) return value as Reply;
  if (value[1] === 'ok' && value.length === 4 && typeof value[2] === 'string' && typeof value[3] === 'string')
    return value as Reply;
  if (value[1] === 'error' && value.length === 3 && typeof value[2] === 'string') return value as Reply;
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

/** Each answered test's verdict: the expected value (and printed text), compared outside the sandbox. */
export function judgeIoAnswers(answered: IoAnswers, language: Language, tests: IoTest[]): IoReports {
  const reports = answered.answers.map((answer): IoTestReport => {
    if ('error' in answer) return { test: answer.test, ok: false, message: answer.error };
    const message = judge(language, tests[answer.test], answer.value, answer.printed);
    return message === null ? { test: answer.test, ok: true } : { test: answer.test, ok: false, message };
  });
  return answered.loadError === undefined ? { reports } : { loadError: answered.loadError, reports };
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
