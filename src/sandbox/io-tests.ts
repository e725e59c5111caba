/**
 * The JSONL `code_exec` check: the prediction defines `f`; a harness calls it on each test's input and
 * compares the return value (after a JSON round trip) and, when the test gives one, what it printed.
 * Each test reports on its own line as soon as it finishes, so the tests that passed before an infinite
 * loop or a crash still count.
 */
import { randomBytes } from 'node:crypto';
import type { CodeOutcome, Language, Program, RunResult } from './types.js';

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

export function newNonce(): string {
  return `__assay_result_${randomBytes(8).toString('hex')}__`;
}

function pythonHarness(code: string, tests: IoTest[], nonce: string): string {
  return `import contextlib as _assay_contextlib, io as _assay_io, json as _assay_json, sys as _assay_sys
_assay_out = _assay_sys.stdout
_assay_tests = _assay_json.loads(${JSON.stringify(JSON.stringify(tests))})
def _assay_report(index, ok, message=None):
    _assay_out.write(${JSON.stringify(nonce)} + " " + _assay_json.dumps({"test": index, "ok": ok, "message": message}) + "\\n")
    _assay_out.flush()
def _assay_same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_assay_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_assay_same(a[k], b[k]) for k in a)
    return type(a) in (int, float) and type(b) in (int, float) and a == b or a == b and type(a) == type(b)
_assay_namespace = {"__name__": "__main__"}
exec(compile(${JSON.stringify(code)}, "<prediction>", "exec"), _assay_namespace)
if not callable(_assay_namespace.get("f")):
    raise NameError("the prediction defines no function f")
for _assay_index, _assay_test in enumerate(_assay_tests):
    _assay_args = _assay_test["input"] if isinstance(_assay_test["input"], list) else [_assay_test["input"]]
    _assay_buffer = _assay_io.StringIO()
    try:
        with _assay_contextlib.redirect_stdout(_assay_buffer):
            _assay_got = _assay_namespace["f"](*_assay_args)
        _assay_got = _assay_json.loads(_assay_json.dumps(_assay_got))
    except Exception as _assay_error:
        _assay_report(_assay_index, False, type(_assay_error).__name__ + ": " + str(_assay_error)[:200])
        continue
    if "output" in _assay_test and not _assay_same(_assay_got, _assay_test["output"]):
        _assay_report(_assay_index, False, "expected " + _assay_json.dumps(_assay_test["output"])[:200] + ", got " + _assay_json.dumps(_assay_got)[:200])
    elif "stdout" in _assay_test and _assay_buffer.getvalue() != _assay_test["stdout"]:
        _assay_report(_assay_index, False, "expected stdout " + _assay_json.dumps(_assay_test["stdout"])[:200] + ", got " + _assay_json.dumps(_assay_buffer.getvalue())[:200])
    else:
        _assay_report(_assay_index, True)
`;
}

function javascriptHarness(code: string, tests: IoTest[], nonce: string): string {
  // The prediction is pasted into a function body so that `function f` and `const f` both define f.
  return `const __assayTests = JSON.parse(${JSON.stringify(JSON.stringify(tests))});
const __assayWrite = process.stdout.write.bind(process.stdout);
const __assayReport = (test, ok, message) => __assayWrite(${JSON.stringify(nonce)} + ' ' + JSON.stringify({ test, ok, message }) + '\\n');
const __assayF = (() => {
${code}
;return typeof f === 'function' ? f : undefined;
})();
if (typeof __assayF !== 'function') throw new ReferenceError('the prediction defines no function f');
(async () => {
  const { isDeepStrictEqual } = require('node:util');
  for (let index = 0; index < __assayTests.length; index++) {
    const test = __assayTests[index];
    const args = Array.isArray(test.input) ? test.input : [test.input];
    let printed = '';
    let got;
    process.stdout.write = (chunk) => { printed += String(chunk); return true; };
    try {
      got = await __assayF(...args);
      got = got === undefined ? null : JSON.parse(JSON.stringify(got));
    } catch (error) {
      process.stdout.write = __assayWrite;
      __assayReport(index, false, String(error && error.name ? error.name + ': ' + error.message : error).slice(0, 200));
      continue;
    }
    process.stdout.write = __assayWrite;
    if ('output' in test && !isDeepStrictEqual(got, test.output)) {
      __assayReport(index, false, 'expected ' + JSON.stringify(test.output).slice(0, 200) + ', got ' + String(JSON.stringify(got)).slice(0, 200));
    } else if ('stdout' in test && printed !== test.stdout) {
      __assayReport(index, false, 'expected stdout ' + JSON.stringify(test.stdout).slice(0, 200) + ', got ' + JSON.stringify(printed).slice(0, 200));
    } else {
      __assayReport(index, true);
    }
  }
})();
`;
}

export function ioTestProgram(
  language: Language,
  prediction: string,
  tests: IoTest[],
  nonce: string,
): Program {
  const code = extractCode(prediction);
  const source =
    language === 'python' ? pythonHarness(code, tests, nonce) : javascriptHarness(code, tests, nonce);
  return { language, source };
}

export function readReports(stdout: string, nonce: string, tests: number): IoTestReport[] {
  const reports = new Map<number, IoTestReport>();
  const prefix = `${nonce} `;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    try {
      const report = JSON.parse(line.slice(prefix.length)) as IoTestReport;
      if (
        Number.isInteger(report.test) &&
        report.test >= 0 &&
        report.test < tests &&
        !reports.has(report.test)
      ) {
        reports.set(report.test, {
          test: report.test,
          ok: report.ok === true,
          ...(report.message ? { message: report.message } : {}),
        });
      }
    } catch {
      // A line cut by the output cap: that test did not report.
    }
  }
  return [...reports.values()].sort((a, b) => a.test - b.test);
}

/** The fraction of tests matched, and one outcome for the whole program with the first reason it fell short. */
export function scoreIoTests(
  run: RunResult,
  runOutcome: CodeOutcome,
  nonce: string,
  tests: number,
): { score: number; outcome: CodeOutcome } {
  const reports = readReports(run.stdout, nonce, tests);
  const passed = reports.filter((report) => report.ok).length;
  const score = tests === 0 ? 0 : passed / tests;
  const summary = `${passed}/${tests} tests passed`;
  if (runOutcome.status !== 'passed')
    return { score, outcome: { status: runOutcome.status, message: `${runOutcome.message} (${summary})` } };
  if (passed === tests && reports.length === tests) return { score, outcome: { status: 'passed' } };
  const firstFailure = reports.find((report) => !report.ok);
  const message = firstFailure
    ? `test ${firstFailure.test}: ${firstFailure.message ?? 'failed'} (${summary})`
    : `only ${reports.length} of ${tests} tests reported (${summary})`;
  return { score, outcome: { status: 'failed', message } };
}
