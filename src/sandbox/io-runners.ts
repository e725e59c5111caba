/**
 * The in-sandbox side of the JSONL `code_exec` check, for Python and JavaScript. It is a conversation
 * with the host (io-tests.ts): the first stdin line carries a nonce and the answer's code; the runner
 * loads the code and writes `[nonce, "loaded"]` (or `[nonce, "error", message]`) to fd 4. Then, one at
 * a time, the host sends `{"nonce", "input"}`; the runner calls f and writes `[nonce, "ok", <JSON text
 * of the value>, <what f printed>]` or `[nonce, "error", message]`.
 *
 * These runners judge nothing, and their reports are only answers. The expected outputs never enter
 * the sandbox, and each input's nonce is sent only after the previous answer arrived, so nothing the
 * program writes ahead of time, or on its own, can count for a test (io-tests.ts).
 */

/** Python: the answer runs in a namespace of its own named __main__, as before; its stdin is empty. */
export const PYTHON_IO_RUNNER = String.raw`import contextlib as _contextlib, io as _io, json as _json, os as _os, sys as _sys
_requests = _os.fdopen(_os.dup(0), "r", encoding="utf-8")
_null = _os.open(_os.devnull, _os.O_RDONLY)
_os.dup2(_null, 0)
_os.close(_null)
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
_opening = _json.loads(_requests.readline())
_space = {"__name__": "__main__"}
try:
    exec(compile(_opening["code"], "<prediction>", "exec"), _space)
    if not callable(_space.get("f")):
        raise NameError("the prediction defines no function f")
except BaseException as _error:
    _report([_opening["nonce"], "error", _line(_error)])
    _sys.stdout.flush()
    _os._exit(0)
_report([_opening["nonce"], "loaded"])
del _opening
for _request in _requests:
    _request = _json.loads(_request)
    _input = _request["input"]
    _args = _input if isinstance(_input, list) else [_input]
    _buffer = _io.StringIO()
    try:
        with _contextlib.redirect_stdout(_buffer):
            _got = _space["f"](*_args)
        _text = _json.dumps(_got)
    except Exception as _error:
        _report([_request["nonce"], "error", type(_error).__name__ + ": " + str(_error)[:200]])
        continue
    _report([_request["nonce"], "ok", _text, _buffer.getvalue()])
`;

/** JavaScript: the answer is the body of a function, so `function f`, `const f` and `let f` all define f. */
export const JAVASCRIPT_IO_RUNNER = String.raw`'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const vm = require('node:vm');
const requests = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
const report = (record) => {
  try {
    fs.writeSync(4, JSON.stringify(record) + '\n');
  } catch {}
};
const message = (error) => String(error && error.name ? error.name + ': ' + error.message : error).slice(0, 200);
(async () => {
  const opening = JSON.parse((await requests.next()).value);
  let f;
  try {
    const load = vm.runInThisContext(
      '(function (exports, require, module, __filename, __dirname) {\n' + opening.code + '\n;return typeof f === "function" ? f : undefined;\n})',
      { filename: 'prediction.js' },
    );
    f = load(module.exports, require, module, 'prediction.js', '/tmp');
    if (typeof f !== 'function') throw new ReferenceError('the prediction defines no function f');
  } catch (error) {
    report([opening.nonce, 'error', message(error)]);
    process.exit(0);
  }
  report([opening.nonce, 'loaded']);
  const write = process.stdout.write;
  for (;;) {
    const next = await requests.next();
    if (next.done) break;
    const { nonce, input } = JSON.parse(next.value);
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
      report([nonce, 'ok', text, printed]);
    } catch (error) {
      process.stdout.write = write;
      report([nonce, 'error', message(error)]);
    }
  }
  process.exit(0);
})();
`;
