"""Failures of task code, as the worker reports them: the exception's record (type, message, the
innermost frame of task code, the traceback), a value a function returned that cannot be scored, and
os._exit turned into an exception."""

import math
import os
import traceback

# The worker's own files: a traceback's innermost frame outside them is where the task code failed.
_PACKAGE = os.path.dirname(__file__)
OWN_FILES = {os.path.join(_PACKAGE, name) for name in os.listdir(_PACKAGE) if name.endswith(".py")}
OWN_FILES.add(os.path.join(os.path.dirname(_PACKAGE), "worker.py"))

# os._exit in task code would end the worker mid-request, with no word of where. In the worker itself it
# raises instead, so it is reported like any exception (the task, the doc, the file and line); a process
# the task code forked still exits.
_WORKER_PID = os.getpid()
process_exit = os._exit


class ProcessExit(BaseException):
    pass


def _exit_in_task_code(status):
    if os.getpid() != _WORKER_PID:
        process_exit(status)
    raise ProcessExit(f"task code called os._exit({status!r}), which would end assay's Python worker")


def guard_process_exit():
    os._exit = _exit_in_task_code


def error_record(error, index=None):
    frames = traceback.extract_tb(error.__traceback__)
    # The innermost frame outside the worker's files: where the task code failed.
    frame = next((f for f in reversed(frames) if f.filename not in OWN_FILES), frames[-1] if frames else None)
    record = {
        "type": type(error).__name__,
        "message": str(error),
        "frame": f"{frame.filename}:{frame.lineno} in {frame.name}" + (f": {frame.line}" if frame.line else "")
        if frame else None,
        "traceback": "".join(traceback.format_exception(type(error), error, error.__traceback__))[-4000:],
    }
    if isinstance(error, ImportError) and error.name:
        record["missing"] = error.name
    needs = getattr(error, "assay_needs", None)
    if needs:
        record["needs"] = needs
    if index is not None:
        record["index"] = index
    row = getattr(error, "_assay_row", None)
    if row is not None:
        record["row"] = row
    return record


class BatchError(Exception):
    def __init__(self, error, index, call=None):
        self.error = error
        self.index = index
        self.call = call


def defined_at(fn):
    """`file:line in name` of a function's definition (a class's __call__, a partial's function)."""
    target = getattr(fn, "func", fn)  # functools.partial
    code = getattr(target, "__code__", None) or getattr(getattr(target, "__call__", None), "__code__", None)
    if code is None:
        return None
    return f"{code.co_filename}:{code.co_firstlineno} in {getattr(target, '__name__', code.co_name)}"


def _not_finite(value):
    """Whether a metric value is a number that is not finite (NaN, ±inf): a float, or a numpy float scalar."""
    if isinstance(value, float):
        return value - value != 0  # nan - nan and inf - inf are nan
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        kind = getattr(getattr(value, "dtype", None), "kind", "")
        return kind == "f" and not math.isfinite(float(value))
    return False


_PLAIN = frozenset((int, bool, str, tuple, list, dict, set, type(None)))


def all_finite(value):
    # Per doc, so the common case (plain floats and ints) costs a fraction of a microsecond.
    for item in value.values():
        kind = type(item)
        if kind is float:
            if item - item != 0:
                return False
        elif kind not in _PLAIN and _not_finite(item):
            return False
    return True


def returned_error(fn, value, position, keys=None):
    """The record of a function that returned what cannot be scored: located at the function's definition."""
    bad = [f"{key}={item!r}" for key, item in value.items() if (keys is None or key in keys) and _not_finite(item)]
    if not bad:
        return None
    return {
        "type": "ValueError",
        "message": f"{', '.join(bad)}: a metric value must be a finite number",
        "frame": defined_at(fn),
        "traceback": "",
        "returned": True,
        "index": position,
    }
