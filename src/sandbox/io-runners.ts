/**
 * The in-sandbox side of the JSONL `code_exec` check, for Python and JavaScript: read the answer's code
 * and the tests' inputs from stdin, call f on each input, and write what came back to fd 4, one JSON
 * line per test: `[index, "ok", <JSON text of the value>, <what f printed>]` or `[index, "error",
 * <message>]`; index -1 reports an answer that did not load.
 *
 * These runners judge nothing. The expected outputs never enter the sandbox: the host compares each
 * reported value with them (io-tests.ts). So anything the program writes to fd 4 is at most a claim
 * of an answer, which scores only if it is the right answer for that test's input; a test reported
 * twice, or not at all, fails.
 */

/** Python: the answer runs in a namespace of its own named __main__, as before. */
export const PYTHON_IO_RUNNER = String.raw`import contextlib as _contextlib, io as _io, json as _json, os as _os, sys as _sys
_job = _json.loads(_sys.stdin.read())
def _report(record):
    data = (_json.dumps(record) + "\n").encode("utf-8", "surrogatepass")
    try:
        while data:
            data = data[_os.write(4, data):]
    except OSError:
        pass
def _line(error):
    text = (error.msg or "") if isinstance(error, SyntaxError) else str(error)
    return type(error).__name__ + (": " + text if text else "")
_space = {"__name__": "__main__"}
try:
    exec(compile(_job["code"], "<prediction>", "exec"), _space)
    if not callable(_space.get("f")):
        raise NameError("the prediction defines no function f")
except BaseException as _error:
    _report([-1, "error", _line(_error)])
    _sys.stdout.flush()
    _os._exit(0)
for _index, _input in enumerate(_job["inputs"]):
    _args = _input if isinstance(_input, list) else [_input]
    _buffer = _io.StringIO()
    try:
        with _contextlib.redirect_stdout(_buffer):
            _got = _space["f"](*_args)
        _text = _json.dumps(_got)
    except Exception as _error:
        _report([_index, "error", type(_error).__name__ + ": " + str(_error)[:200]])
        continue
    _report([_index, "ok", _text, _buffer.getvalue()])
`;

/** JavaScript: the answer is the body of a function, so `function f`, `const f` and `let f` all define f. */
export const JAVASCRIPT_IO_RUNNER = String.raw`'use strict';
const fs = require('node:fs');
const vm = require('node:vm');
const job = JSON.parse(fs.readFileSync(0, 'utf8'));
const report = (record) => {
  try {
    fs.writeSync(4, JSON.stringify(record) + '\n');
  } catch {}
};
const message = (error) => String(error && error.name ? error.name + ': ' + error.message : error).slice(0, 200);
let f;
try {
  const load = vm.runInThisContext(
    '(function (exports, require, module, __filename, __dirname) {\n' + job.code + '\n;return typeof f === "function" ? f : undefined;\n})',
    { filename: 'prediction.js' },
  );
  f = load(module.exports, require, module, 'prediction.js', '/tmp');
  if (typeof f !== 'function') throw new ReferenceError('the prediction defines no function f');
} catch (error) {
  report([-1, 'error', message(error)]);
  process.exit(0);
}
const write = process.stdout.write;
(async () => {
  for (let index = 0; index < job.inputs.length; index++) {
    const input = job.inputs[index];
    const args = Array.isArray(input) ? input : [input];
    let printed = '';
    process.stdout.write = (chunk) => {
      printed += String(chunk);
      return true;
    };
    try {
      const got = await f(...args);
      const text = got === undefined ? 'null' : JSON.stringify(got);
      JSON.parse(text);
      process.stdout.write = write;
      report([index, 'ok', text, printed]);
    } catch (error) {
      process.stdout.write = write;
      report([index, 'error', message(error)]);
    }
  }
  process.exit(0);
})();
`;
