# The in-sandbox side of a JSONL `code_exec` check for Python answers (passed as `python -c`, see
# bubblewrap.ts; the host's side is io-tests.ts, the JavaScript runner io-runners.ts). The first stdin
# line carries a nonce and the answer's code; the runner loads the code, in a namespace of its own named
# __main__ with an empty stdin, and writes `[nonce, "loaded"]` (or `[nonce, "error", message]`) to fd 4.
# Then, one at a time, the host sends `{"nonce", "input"}`; the runner calls f and writes
# `[nonce, "ok", <JSON text of the value>, <what f printed>]` or `[nonce, "error", message]`.
# It judges nothing: the expected outputs never enter the sandbox (io-tests.ts).
import contextlib as _contextlib, io as _io, json as _json, os as _os, sys as _sys
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
