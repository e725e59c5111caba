"""assay's Python worker: runs lm-eval task code (the `utils.py` beside a task YAML) for assay.

assay itself is TypeScript. This file (with placeholders.py beside it) is the Python it ships, for one job:
call the Python functions a task names with `!function module.name`, the way lm-eval calls them, in the
user's own interpreter and with the user's rights. It never runs model output.

Protocol: one request at a time on fd 3, one response per request on fd 4 (both opened by assay), each a
frame of a 4-byte big-endian length followed by that many bytes of UTF-8 JSON. The first frame the worker
writes is an unsolicited `hello` describing the interpreter. stdin is /dev/null, so task code that reads it
gets end-of-file at once; anything task code prints goes to stderr. Neither can touch the frames.

Values: JSON, plus objects tagged with a `"$py"` key for what JSON cannot carry: tuples, non-finite
floats, integers beyond 2**53, and handles. A handle names a Python object kept here (a set a
process_results returned, a processed split) so that it can be passed back by reference and reach the
task's own aggregation unchanged.

When the interpreter cannot import `datasets` or `lm_eval`, small stand-ins are installed (see
"Stand-ins" below): a list-backed `datasets.Dataset` and the `lm_eval` helpers task modules import
most. Anything they lack raises an ImportError that names it. A task module that imports a third-party
package the interpreter lacks is imported again with placeholders for it (placeholders.py), and only the
functions that cannot reach a placeholder are bound.
"""

import functools
import importlib.machinery
import importlib.util
import json
import math
import os
import random
import re
import struct
import sys
import traceback
import types

# ---------------------------------------------------------------------------------------------------
# Frames. Requests come on fd 3 and replies go on fd 4, never on stdin/stdout: task code that reads stdin
# (input(), sys.stdin.read()) reads /dev/null, and fd 1 is pointed at stderr so that print() in task code,
# or output from a C extension, never lands between frames. Neither protocol fd passes to a program task
# code starts.

try:
    for _fd in (3, 4):
        os.set_inheritable(_fd, False)
except OSError:
    sys.exit("worker.py is assay's Python worker: it speaks on fds 3 and 4, which assay opens for it")
_IN = os.fdopen(3, "rb")
_OUT = os.fdopen(4, "wb")
os.dup2(2, 1)
sys.stdout = sys.stderr

# os._exit in task code would end the worker mid-request, with no word of where. In the worker itself it
# raises instead, so it is reported like any exception (the task, the doc, the file and line); a process
# the task code forked still exits.
_WORKER_PID = os.getpid()
_process_exit = os._exit


class ProcessExit(BaseException):
    pass


def _exit_in_task_code(status):
    if os.getpid() != _WORKER_PID:
        _process_exit(status)
    raise ProcessExit(f"task code called os._exit({status!r}), which would end assay's Python worker")


os._exit = _exit_in_task_code
# Larger buffers carry a split in a few writes instead of hundreds of round trips. Node (libuv) gives a
# child its stdio as a Unix socket pair, whose buffers (208 KiB by default) are raised with setsockopt
# (capped by net.core.wmem_max/rmem_max); a pipe (another parent) takes F_SETPIPE_SZ (1 MiB, Linux).
try:
    import socket

    for _fd, _option in ((_IN.fileno(), socket.SO_RCVBUF), (_OUT.fileno(), socket.SO_SNDBUF)):
        _sock = socket.socket(fileno=os.dup(_fd))
        try:
            _sock.setsockopt(socket.SOL_SOCKET, _option, 4 << 20)
        finally:
            _sock.close()
except (ImportError, OSError):
    try:
        import fcntl

        for _fd in (_IN.fileno(), _OUT.fileno()):
            fcntl.fcntl(_fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass
# Task code must not see this file's folder on sys.path (python puts a script's folder first).
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)


def read_frame():
    header = _IN.read(4)
    if len(header) < 4:
        return None
    (length,) = struct.unpack(">I", header)
    payload = _IN.read(length)
    if len(payload) < length:
        return None
    return payload


def write_frame(text):
    # A lone surrogate (data the other side sent as "\ud800") goes back as the same escape, which JSON
    # reads as the same lone surrogate: the surrogatepass round trip both sides keep (docs/python-bridge.md).
    # Raw, it would be bytes that are not UTF-8, which the other side reads as U+FFFD.
    data = text.encode("utf-8", "backslashreplace")
    _OUT.write(struct.pack(">I", len(data)) + data)
    _OUT.flush()


# ---------------------------------------------------------------------------------------------------
# Values. `handles` holds the Python objects the other side refers to by number.

handles = {}
_next_handle = [1]
MAX_SAFE = 2**53 - 1


def keep(value):
    number = _next_handle[0]
    _next_handle[0] += 1
    handles[number] = value
    return number


def _float_tag(value):
    return {"$py": "float", "v": "nan" if value != value else ("inf" if value > 0 else "-inf")}


def log_form(value):
    """What lm-eval's sample log writes for a value json cannot encode (utils.handle_non_serializable)."""
    if isinstance(value, (set, frozenset)):
        return [encode(item) for item in value]
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return encode(value.item())
    return str(value)


def handle_tag(value):
    return {"$py": "handle", "id": keep(value), "str": str(value), "json": log_form(value)}


def encode(value):
    """A Python value as tagged JSON data. Tuples stay tuples, numpy scalars become Python numbers."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is float:
        return value if math.isfinite(value) else _float_tag(value)
    if kind is int:
        # Beyond 2**53 a JS number would round it: it stays here, and crosses as its digits.
        return value if -MAX_SAFE <= value <= MAX_SAFE else handle_tag(value)
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return {"$py": "tuple", "v": [encode(item) for item in value]}
    if kind is dict:
        if "$py" not in value and all(type(key) is str for key in value):
            return {key: encode(item) for key, item in value.items()}
        return handle_tag(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, float):
        return encode(float(value))
    if isinstance(value, int):
        return encode(int(value))
    if isinstance(value, str):
        return str(value)
    if kind.__module__ == "numpy":
        # numpy scalars and arrays: their Python values (np.float64 is a float subclass, caught above).
        if hasattr(value, "tolist"):
            return encode(value.tolist())
    if isinstance(value, tuple):
        return {"$py": "tuple", "v": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    return handle_tag(value)


def _decode_tag(obj):
    kind = obj.get("$py")
    if kind is None:
        return obj
    if kind == "tuple":
        return tuple(obj["v"])
    if kind == "float":
        return float(obj["v"])
    if kind == "int":
        return int(obj["v"])
    if kind == "ref":
        target = handles[obj["h"]]
        return target[obj["i"]] if "i" in obj else target
    return obj


def decode(payload):
    if b'"$py"' not in payload:
        return json.loads(payload)
    return json.loads(payload, object_hook=_decode_tag)


# Without the circular-reference check the C encoder is several times faster on large splits; a cycle
# still fails (RecursionError), and is reported like any other exception.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False, separators=(",", ":"))


def dump(value):
    return _ENCODER.encode(value)


def dump_rows(rows):
    """Docs are plain JSON almost always: try the C encoder first, walk the values only when it fails."""
    try:
        return _ENCODER.encode(rows)
    except (TypeError, ValueError, RecursionError):
        return dump(encode(rows))


def with_refs(values, refs):
    # Docs the worker already holds arrive by reference: for each handle, the positions in `values`
    # (None there) and the indices into the handle's list.
    for number, positions, indices in refs or ():
        rows = handles[number]
        for position, index in zip(positions, indices):
            values[position] = rows[index]
    return values


def loglikelihood_results(results):
    # Log-likelihood answers arrive as [logprob, is_greedy] pairs; lm-eval passes (float, bool) tuples.
    return [(float(logprob), bool(greedy)) for logprob, greedy in results]


# ---------------------------------------------------------------------------------------------------
# Stand-ins, installed only for packages the interpreter cannot import.


class StandInFinder:
    # A finder and loader by protocol (find_spec, create_module, exec_module), without the abstract
    # base classes: importing them pulls in importlib.resources, pathlib and tempfile (~25 ms of start-up).
    """Serves stand-in modules by name; an unknown name under a stand-in package is a clear ImportError."""

    def __init__(self):
        self.builders = {}
        self.roots = set()

    def add(self, name, build):
        self.builders[name] = build
        self.roots.add(name.split(".")[0])

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.builders:
            is_package = any(other.startswith(fullname + ".") for other in self.builders)
            return importlib.machinery.ModuleSpec(fullname, self, is_package=is_package)
        root = fullname.split(".")[0]
        if root in PARTIAL_STAND_INS:
            # A stand-in for a few names only: the rest of the package is missing, and a task module
            # importing it gets placeholders (placeholders.py serves them while they are active).
            if placeholders_active(root):
                return None
            raise ModuleNotFoundError(missing_message(fullname), name=fullname)
        if root in self.roots and not fullname.startswith("lm_eval.tasks."):
            raise ImportError(missing_message(fullname), name=fullname)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        self.builders[module.__name__](module)
        if module.__spec__.submodule_search_locations is not None and not hasattr(module, "__path__"):
            module.__path__ = []


# Import names whose distribution is called otherwise (what to install).
DISTRIBUTIONS = {"sklearn": "scikit-learn"}


def missing_message(what):
    root = what.split(".")[0]
    return (
        f"{what} is not available: this Python has no {root} package, and assay's stand-in for it does not "
        f"provide {what}. Install {DISTRIBUTIONS.get(root, root)} in the interpreter assay uses "
        "(--python PATH or ASSAY_PYTHON)"
    )


def strict_module(module, names):
    """A module whose missing attributes raise an ImportError naming the helper (for `from m import x`)."""
    module.__all__ = sorted(names)

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise ImportError(missing_message(f"{module.__name__}.{name}"), name=f"{module.__name__}.{name}")

    module.__getattr__ = __getattr__


# --- datasets: a list-backed Dataset with the parts lm-eval task code calls ------------------------


class Value:
    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"Value(dtype='{self.dtype}')"

    def __eq__(self, other):
        return isinstance(other, Value) and other.dtype == self.dtype


def _feature_of(value):
    if isinstance(value, bool):
        return Value("bool")
    if isinstance(value, int):
        return Value("int64")
    if isinstance(value, float):
        return Value("float64")
    if isinstance(value, str):
        return Value("string")
    if isinstance(value, (list, tuple)):
        return [_feature_of(value[0]) if value else Value("null")]
    if isinstance(value, dict):
        return {key: _feature_of(item) for key, item in value.items()}
    return Value("null")


def _pcg64_permutation(seed, n):
    """numpy's `default_rng(seed).permutation(n)` without numpy: SeedSequence, PCG64 and Generator.shuffle
    re-implemented from numpy's published algorithms, so `Dataset.shuffle(seed)` orders rows as the real
    library does (it shuffles with that permutation)."""
    mask32 = 0xFFFFFFFF
    entropy = []
    value = int(seed)
    while True:
        entropy.append(value & mask32)
        value >>= 32
        if value == 0:
            break
    hash_const = [0x43B0D7E5]

    def hashmix(value):
        value = (value ^ hash_const[0]) & mask32
        hash_const[0] = (hash_const[0] * 0x931E8875) & mask32
        value = (value * hash_const[0]) & mask32
        return value ^ (value >> 16)

    def mix(x, y):
        result = (0xCA01F9DD * x - 0x4973F715 * y) & mask32
        return result ^ (result >> 16)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(4)]
    for source in range(4):
        for target in range(4):
            if source != target:
                pool[target] = mix(pool[target], hashmix(pool[source]))
    for source in range(4, len(entropy)):
        for target in range(4):
            pool[target] = mix(pool[target], hashmix(entropy[source]))
    words = []
    mult = 0x8B51F9DD
    for index in range(8):
        data = pool[index % 4] ^ mult
        mult = (mult * 0x58F38DED) & mask32
        data = (data * mult) & mask32
        words.append(data ^ (data >> 16))
    state64 = [words[i] | (words[i + 1] << 32) for i in range(0, 8, 2)]
    mask128 = (1 << 128) - 1
    multiplier = 0x2360ED051FC65DA44385DF649FCCF645
    initstate = (state64[0] << 64) | state64[1]
    increment = (((state64[2] << 64) | state64[3]) << 1 | 1) & mask128
    state = [((0 * multiplier + increment) & mask128)]
    state[0] = (state[0] + initstate) & mask128
    state[0] = (state[0] * multiplier + increment) & mask128
    buffered = []

    def next64():
        state[0] = (state[0] * multiplier + increment) & mask128
        current = state[0]
        xored = ((current >> 64) ^ current) & 0xFFFFFFFFFFFFFFFF
        rotation = current >> 122
        return ((xored >> rotation) | (xored << ((-rotation) & 63))) & 0xFFFFFFFFFFFFFFFF

    def next32():
        if buffered:
            return buffered.pop()
        value = next64()
        buffered.append(value >> 32)
        return value & mask32

    order = list(range(n))
    for i in range(n - 1, 0, -1):
        mask = i
        for shift in (1, 2, 4, 8, 16, 32):
            mask |= mask >> shift
        draw = next32 if i <= mask32 else next64
        while True:
            j = draw() & mask
            if j <= i:
                break
        order[i], order[j] = order[j], order[i]
    return order


class Dataset:
    """A stand-in for `datasets.Dataset` over a list of row dicts, following the real library's
    documented behaviour for the methods lm-eval's task code calls. Rows are plain dicts."""

    def __init__(self, rows, columns=None):
        self._rows = rows
        if columns is None:
            columns = list(rows[0].keys()) if rows else []
        self._columns = list(columns)

    # construction
    @classmethod
    def from_list(cls, mapping, features=None, info=None, split=None):
        # The real from_list takes its columns from the first row; other rows get None for a missing key.
        if not mapping:
            return cls([], [])
        columns = list(mapping[0].keys())
        keys = mapping[0].keys()
        rows = [
            dict(row) if row.keys() == keys else {column: row.get(column) for column in columns}
            for row in mapping
        ]
        return cls(rows, columns)

    @classmethod
    def from_dict(cls, mapping, features=None, info=None, split=None):
        columns = list(mapping.keys())
        lengths = {len(values) for values in mapping.values()}
        if len(lengths) > 1:
            raise ValueError("from_dict: all columns must have the same length")
        count = lengths.pop() if lengths else 0
        return cls([{column: mapping[column][i] for column in columns} for i in range(count)], columns)

    # shape
    def __len__(self):
        return len(self._rows)

    @property
    def num_rows(self):
        return len(self._rows)

    @property
    def column_names(self):
        return list(self._columns)

    @property
    def features(self):
        first = self._rows[0] if self._rows else {}
        return {column: _feature_of(first.get(column)) for column in self._columns}

    @property
    def shape(self):
        return (len(self._rows), len(self._columns))

    def __iter__(self):
        for row in self._rows:
            yield dict(row)

    def __repr__(self):
        return f"Dataset({{\n    features: {self._columns},\n    num_rows: {len(self._rows)}\n}})"

    def __getitem__(self, key):
        if isinstance(key, str):
            if key not in self._columns:
                raise KeyError(key)
            return [row.get(key) for row in self._rows]
        if isinstance(key, int):
            return dict(self._rows[key])
        if isinstance(key, slice):
            return self._batch(self._rows[key])
        if isinstance(key, (list, tuple, range)):
            return self._batch([self._rows[index] for index in key])
        raise TypeError(f"Dataset indices must be int, str, slice or a list of ints, not {type(key).__name__}")

    def _batch(self, rows):
        return {column: [row.get(column) for row in rows] for column in self._columns}

    def to_list(self):
        return [dict(row) for row in self._rows]

    def to_dict(self):
        return self._batch(self._rows)

    # transforms: each returns a new Dataset
    def map(self, function=None, with_indices=False, with_rank=False, input_columns=None, batched=False,
            batch_size=1000, drop_last_batch=False, remove_columns=None, fn_kwargs=None, **_ignored):
        function = function or (lambda *args, **kwargs: None)
        fn_kwargs = fn_kwargs or {}
        remove = _names(remove_columns)
        for name in remove:
            if name not in self._columns:
                raise ValueError(f"Column to remove {[name]} not in the dataset. Current columns in the dataset: {self._columns}")
        columns = _names(input_columns) if input_columns is not None else None
        out_rows = []
        if not batched:
            for index, row in enumerate(self._rows):
                args = [dict(row)] if columns is None else [row.get(column) for column in columns]
                if with_indices:
                    args.append(index)
                result = _call_on_row(function, args, fn_kwargs, index)
                new = {key: value for key, value in row.items() if key not in remove} if remove else dict(row)
                if result is not None:
                    if not isinstance(result, dict):
                        raise TypeError(f"Provided `function` which is applied to all elements of table returns a variable of type {type(result)}. Make sure provided `function` returns a variable of type `dict` (or None)")
                    new.update(result)
                out_rows.append(new)
        else:
            size = len(self._rows) if batch_size is None or batch_size <= 0 else batch_size
            for start in range(0, len(self._rows), size):
                rows = self._rows[start:start + size]
                if drop_last_batch and len(rows) < size:
                    break
                batch = self._batch(rows)
                args = [batch] if columns is None else [batch[column] for column in columns]
                if with_indices:
                    args.append(list(range(start, start + len(rows))))
                result = _call_on_row(function, args, fn_kwargs, start)
                kept = {key: values for key, values in batch.items() if key not in remove}
                if result is not None:
                    lengths = {len(values) for values in result.values()}
                    count = lengths.pop() if len(lengths) == 1 else None
                    if count is None and result:
                        raise ValueError("map: the function returned columns of different lengths")
                    if count is not None and count != len(rows):
                        stale = [key for key in kept if key not in result]
                        if stale:
                            raise ValueError(f"Column lengths mismatch: columns {stale} have length {len(rows)} while the function returned {count} rows; remove them with remove_columns")
                        kept = {}
                    kept.update(result)
                count = len(next(iter(kept.values()))) if kept else 0
                names = list(kept)
                out_rows.extend({name: kept[name][i] for name in names} for i in range(count))
        order = [column for column in self._columns if column not in remove]
        extra = []
        for row in out_rows[:1]:
            extra = [key for key in row if key not in order]
        return Dataset(out_rows, [column for column in order if not out_rows or column in out_rows[0]] + extra)

    def filter(self, function=None, with_indices=False, input_columns=None, batched=False, batch_size=1000,
               fn_kwargs=None, **_ignored):
        fn_kwargs = fn_kwargs or {}
        columns = _names(input_columns) if input_columns is not None else None
        kept = []
        if not batched:
            for index, row in enumerate(self._rows):
                args = [dict(row)] if columns is None else [row.get(column) for column in columns]
                if with_indices:
                    args.append(index)
                if _call_on_row(function, args, fn_kwargs, index):
                    kept.append(row)
        else:
            size = len(self._rows) if batch_size is None or batch_size <= 0 else batch_size
            for start in range(0, len(self._rows), size):
                rows = self._rows[start:start + size]
                batch = self._batch(rows)
                args = [batch] if columns is None else [batch[column] for column in columns]
                if with_indices:
                    args.append(list(range(start, start + len(rows))))
                mask = _call_on_row(function, args, fn_kwargs, start)
                kept.extend(row for row, keep_row in zip(rows, mask) if keep_row)
        return Dataset(kept, self._columns)

    def select(self, indices, **_ignored):
        return Dataset([self._rows[int(index)] for index in indices], self._columns)

    def remove_columns(self, column_names, **_ignored):
        names = _names(column_names)
        for name in names:
            if name not in self._columns:
                raise ValueError(f"Column name {name} not in the dataset. Current columns in the dataset: {self._columns}")
        return Dataset([{k: v for k, v in row.items() if k not in names} for row in self._rows],
                       [column for column in self._columns if column not in names])

    def select_columns(self, column_names, **_ignored):
        names = _names(column_names)
        for name in names:
            if name not in self._columns:
                raise ValueError(f"Column name {name} not in the dataset. Current columns in the dataset: {self._columns}")
        return Dataset([{name: row.get(name) for name in names} for row in self._rows], names)

    def rename_column(self, original_column_name, new_column_name, **_ignored):
        return self.rename_columns({original_column_name: new_column_name})

    def rename_columns(self, column_mapping, **_ignored):
        for name in column_mapping:
            if name not in self._columns:
                raise ValueError(f"Original column name {name} not in the dataset. Current columns in the dataset: {self._columns}")
        for new in column_mapping.values():
            if new in self._columns and new not in column_mapping:
                raise ValueError(f"New column name {new} already in the dataset. Please choose a column name which is not already in the dataset. Current columns in the dataset: {self._columns}")
        columns = [column_mapping.get(column, column) for column in self._columns]
        return Dataset([{column_mapping.get(k, k): v for k, v in row.items()} for row in self._rows], columns)

    def add_column(self, name, column, **_ignored):
        column = list(column)
        if name in self._columns:
            raise ValueError(f"Column {name} already exists in the dataset")
        if len(column) != len(self._rows):
            raise ValueError(f"add_column: the column has {len(column)} values for {len(self._rows)} rows")
        return Dataset([{**row, name: value} for row, value in zip(self._rows, column)], self._columns + [name])

    def shuffle(self, seed=None, generator=None, **_ignored):
        if generator is not None and hasattr(generator, "permutation"):
            order = [int(index) for index in generator.permutation(len(self._rows))]
        else:
            if seed is None:
                seed = random.SystemRandom().getrandbits(64)
            try:
                import numpy

                order = [int(index) for index in numpy.random.default_rng(seed).permutation(len(self._rows))]
            except ImportError:
                order = _pcg64_permutation(seed, len(self._rows))
        return self.select(order)

    def sort(self, column_names, reverse=False, null_placement="at_end", **_ignored):
        names = _names(column_names)
        reverses = reverse if isinstance(reverse, (list, tuple)) else [reverse] * len(names)
        order = list(range(len(self._rows)))
        # A stable sort per key, last key first; nulls go to the end (or the start) as the real library does.
        for name, descending in reversed(list(zip(names, reverses))):
            if name not in self._columns:
                raise ValueError(f"Column '{name}' not found in the dataset. Please provide a column selected in: {self._columns}")
            present = [i for i in order if self._rows[i].get(name) is not None]
            missing = [i for i in order if self._rows[i].get(name) is None]
            present.sort(key=lambda i: self._rows[i][name], reverse=descending)
            order = present + missing if null_placement == "at_end" else missing + present
        return self.select(order)

    def unique(self, column):
        seen = {}
        for value in self[column]:
            seen.setdefault(value, None)
        return list(seen)

    def flatten_indices(self, **_ignored):
        return self

    def with_format(self, type=None, **_ignored):
        if type not in (None, "python"):
            raise ValueError(f"assay's datasets stand-in supports only the python format, not {type!r}")
        return self


def _names(value):
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _call_on_row(function, args, kwargs, index):
    try:
        return function(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - sys.exit in a row function too
        # Lets the bridge say which row failed (the real library does not know either).
        if not hasattr(error, "_assay_row"):
            error._assay_row = index
        raise


def build_datasets(module):
    class DatasetDict(dict):
        def map(self, *args, **kwargs):
            return DatasetDict({name: split.map(*args, **kwargs) for name, split in self.items()})

        def filter(self, *args, **kwargs):
            return DatasetDict({name: split.filter(*args, **kwargs) for name, split in self.items()})

    class Split:
        TRAIN = "train"
        VALIDATION = "validation"
        TEST = "test"

    def concatenate_datasets(dsets, **_ignored):
        rows = [row for dataset in dsets for row in dataset._rows]
        return Dataset(rows, dsets[0]._columns if dsets else [])

    def needs_real(name):
        def missing(*args, **kwargs):
            raise ImportError(missing_message(f"datasets.{name}"), name=f"datasets.{name}")

        missing.__name__ = name
        return missing

    module.__version__ = "0+assay.stand-in"
    module.Dataset = Dataset
    module.DatasetDict = DatasetDict
    module.Value = Value
    module.Features = dict
    module.Split = Split
    module.concatenate_datasets = concatenate_datasets
    for name in ("load_dataset", "load_from_disk", "get_dataset_config_names", "get_dataset_infos",
                 "get_dataset_split_names", "load_metric"):
        setattr(module, name, needs_real(name))
    strict_module(module, [name for name in vars(module) if not name.startswith("_")])


# --- sklearn: f1_score and accuracy_score (sklearn_stand_in.py), every other name a placeholder ------


def partial_missing(module, name):
    """A name a partial stand-in lacks: a placeholder while a task module is imported with placeholders
    for the package (so only the functions that reach it are refused), else a ModuleNotFoundError."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    root = module.__name__.split(".")[0]
    if placeholders_active(root) and is_task_file(sys._getframe(2).f_code.co_filename):
        return placeholders().placeholder_for(root, f"{module.__name__}.{name}")
    raise ModuleNotFoundError(missing_message(f"{module.__name__}.{name}"), name=root)


def build_sklearn(module):
    module.__version__ = "0+assay.stand-in"

    def __getattr__(name):
        # scikit-learn loads its submodules on attribute access: `import sklearn; sklearn.metrics.f1_score`.
        if name == "metrics":
            return importlib.import_module("sklearn.metrics")
        return partial_missing(module, name)

    module.__getattr__ = __getattr__


def build_sklearn_metrics(module):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sklearn_stand_in.py")
    spec = importlib.util.spec_from_file_location("assay_sklearn_stand_in", path)
    metrics = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(metrics)
    module.f1_score = metrics.f1_score
    module.accuracy_score = metrics.accuracy_score
    module.__all__ = ["accuracy_score", "f1_score"]
    module.__getattr__ = lambda name: partial_missing(module, name)


# --- lm_eval: the helpers the task tree imports most -------------------------------------------------


def build_lm_eval(module):
    module.__version__ = "0+assay.stand-in"
    strict_module(module, ["utils", "api", "filters", "tasks"])


def build_lm_eval_utils(module):
    import logging

    def general_detokenize(string):
        # The detokenizer lm-eval applies to PTB-style text: no space before n't, ')', quotes, . , '
        for before, after in ((" n't", "n't"), (" )", ")"), ("( ", "("), ('" ', '"'), (' "', '"')):
            string = string.replace(before, after)
        return re.sub(r" (['.,])", r"\1", string)

    def weighted_f1_score(items):
        # scikit-learn's f1_score(golds, preds, average="weighted") in plain Python: per-label F1 over the
        # sorted union of labels, 0 where undefined, weighted by each label's count among the golds.
        golds, preds = zip(*items)
        labels = sorted(set(golds) | set(preds))
        total = 0.0
        for label in labels:
            true_positive = sum(1 for g, p in zip(golds, preds) if g == label and p == label)
            predicted = sum(1 for p in preds if p == label)
            support = sum(1 for g in golds if g == label)
            denominator = predicted + support
            f1 = 2 * true_positive / denominator if denominator else 0.0
            total += f1 * support
        return total / len(golds) if golds else 0.0

    def handle_non_serializable(value):
        if type(value).__module__ == "numpy" and hasattr(value, "item"):
            return value.item()
        if isinstance(value, set):
            return list(value)
        return str(value)

    def simple_parse_args_string(args_string):
        if not args_string:
            return {}
        parsed = {}
        for pair in args_string.strip().split(","):
            if pair:
                key, _, value = pair.partition("=")
                parsed[key] = _python_value(value)
        return parsed

    def positional_deprecated(fn):
        return fn

    module.logging = logging
    module.eval_logger = logging.getLogger("lm-eval")
    module.general_detokenize = general_detokenize
    module.weighted_f1_score = weighted_f1_score
    module.handle_non_serializable = handle_non_serializable
    module.simple_parse_args_string = simple_parse_args_string
    module.positional_deprecated = positional_deprecated
    strict_module(module, [name for name in vars(module) if not name.startswith("_")])


def _python_value(text):
    lowered = text.lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    if lowered == "none":
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def build_lm_eval_api(module):
    strict_module(module, ["metrics", "filter", "registry", "instance"])


def build_lm_eval_api_metrics(module):
    def mean(arr):
        return sum(arr) / len(arr)

    def median(arr):
        return sorted(arr)[len(arr) // 2]

    def weighted_mean(items):
        numerators, denominators = zip(*items)
        return sum(numerators) / sum(denominators)

    def perplexity(items):
        return math.exp(-mean(items))

    def sample_stddev(arr):
        mu = mean(arr)
        return math.sqrt(sum((x - mu) ** 2 for x in arr) / (len(arr) - 1))

    def mean_stderr(arr):
        return sample_stddev(arr) / math.sqrt(len(arr))

    def metric_max_over_ground_truths(metric_fn, prediction, ground_truths):
        return max(metric_fn(prediction, truth) for truth in ground_truths)

    for fn in (mean, median, weighted_mean, perplexity, sample_stddev, mean_stderr, metric_max_over_ground_truths):
        setattr(module, fn.__name__, fn)
    strict_module(module, [name for name in vars(module) if not name.startswith("_")])


class Filter:
    """lm-eval's filter base class: `apply(resps, docs)` returns one filtered value per instance."""

    def __init__(self, **kwargs):
        pass

    def apply(self, resps, docs):
        return resps


def build_lm_eval_api_filter(module):
    module.Filter = Filter
    strict_module(module, ["Filter"])


def build_lm_eval_api_registry(module):
    registries = {"filter": {}, "metric": {}, "aggregation": {}}

    def registrar(kind):
        def register(*names, **kwargs):
            def decorate(obj):
                for name in names or [kwargs.get("metric", getattr(obj, "__name__", ""))]:
                    registries[kind][name] = obj
                return obj

            return decorate

        return register

    module.register_filter = registrar("filter")
    module.register_metric = registrar("metric")
    module.register_aggregation = registrar("aggregation")
    module.get_filter = lambda name: name if callable(name) else registries["filter"][name]
    module.filter_registry = registries["filter"]
    strict_module(module, [name for name in vars(module) if not name.startswith("_")])


def build_lm_eval_api_instance(module):
    import dataclasses

    @dataclasses.dataclass
    class Instance:
        request_type: str
        doc: dict
        arguments: tuple
        idx: int
        metadata: tuple = (None, None, None)
        resps: list = dataclasses.field(default_factory=list)
        filtered_resps: dict = dataclasses.field(default_factory=dict)
        task_name: str = None
        doc_id: int = None
        repeats: int = None

    module.Instance = Instance
    strict_module(module, ["Instance"])


class RegexFilter(Filter):
    """lm-eval's `regex` filter: the `group_select`-th findall match of each response, else `fallback`."""

    def __init__(self, regex_pattern=r"#### (\-?[0-9\.\,]+)", group_select=0, fallback="[invalid]", **kwargs):
        self.regex_pattern = regex_pattern
        self.regex = re.compile(regex_pattern)
        self.group_select = group_select
        self.fallback = fallback

    def apply(self, resps, docs):
        def one(response):
            found = self.regex.findall(response if isinstance(response, str) else "")
            if not found:
                return self.fallback
            match = found[self.group_select]
            if isinstance(match, tuple):
                match = next((group for group in match if group), self.fallback)
            return match.strip()

        return [[one(response) for response in responses] for responses in resps]


def build_lm_eval_filters(module):
    strict_module(module, ["extraction"])


def build_lm_eval_filters_extraction(module):
    module.Filter = Filter
    module.RegexFilter = RegexFilter
    strict_module(module, ["Filter", "RegexFilter"])


def build_lm_eval_tasks(module):
    # Task modules import each other as lm_eval.tasks.<folder>.<module>: resolved in the task tree.
    module.__path__ = list(tasks_roots)


tasks_roots = []
STAND_INS = {}
# Stand-ins that provide a few names of a package; the rest of it is treated as missing.
PARTIAL_STAND_INS = set()


def install_stand_ins():
    finder = StandInFinder()
    if importlib.util.find_spec("datasets") is None:
        finder.add("datasets", build_datasets)
        STAND_INS["datasets"] = True
    if importlib.util.find_spec("lm_eval") is None:
        for name, build in (
            ("lm_eval", build_lm_eval),
            ("lm_eval.utils", build_lm_eval_utils),
            ("lm_eval.api", build_lm_eval_api),
            ("lm_eval.api.metrics", build_lm_eval_api_metrics),
            ("lm_eval.api.filter", build_lm_eval_api_filter),
            ("lm_eval.api.registry", build_lm_eval_api_registry),
            ("lm_eval.api.instance", build_lm_eval_api_instance),
            ("lm_eval.filters", build_lm_eval_filters),
            ("lm_eval.filters.extraction", build_lm_eval_filters_extraction),
            ("lm_eval.tasks", build_lm_eval_tasks),
        ):
            finder.add(name, build)
        STAND_INS["lm_eval"] = True
    if importlib.util.find_spec("sklearn") is None:
        finder.add("sklearn", build_sklearn)
        finder.add("sklearn.metrics", build_sklearn_metrics)
        STAND_INS["sklearn"] = True
        PARTIAL_STAND_INS.add("sklearn")
    if finder.builders:
        sys.meta_path.insert(0, finder)


# ---------------------------------------------------------------------------------------------------
# Placeholders for packages a task module imports and the interpreter lacks: placeholders.py, beside
# this file, loaded only the first time a task module's import fails with ModuleNotFoundError (so
# imports that succeed pay nothing, not even its compilation).

_OWN_FILES = {
    __file__,
    *(os.path.join(os.path.dirname(os.path.abspath(__file__)), name) for name in ("placeholders.py", "sklearn_stand_in.py")),
}
# Folders whose files are task code: the folders of the modules loaded here, and the task trees.
task_dirs = set()
_placeholders = []


def is_task_file(filename):
    if not filename:
        return False
    return os.path.dirname(filename) in task_dirs or any(filename.startswith(root + os.sep) for root in tasks_roots)


def placeholders():
    if not _placeholders:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "placeholders.py")
        spec = importlib.util.spec_from_file_location("assay_placeholders", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.configure(
            is_task_file=is_task_file, stand_ins=STAND_INS, partial_stand_ins=PARTIAL_STAND_INS, own_files=_OWN_FILES
        )
        _placeholders.append(module)
    return _placeholders[0]


def placeholders_active(root):
    """Whether a task module is being imported with placeholders for `root` right now."""
    return bool(_placeholders) and root in _placeholders[0].active_placeholders()


def check_reachable(fn, label):
    """A function (or a filter class) that can reach a placeholder is refused, naming the package."""
    if _placeholders and _placeholders[0].PLACEHOLDER_ROOTS:
        _placeholders[0].check_reachable(fn, label)


# ---------------------------------------------------------------------------------------------------
# Task modules, named as lm-eval names them: `lm_eval.tasks.<folder>.<module>` inside a task tree (so
# relative imports and `from lm_eval.tasks.x import y` work), else the file's path without `.py`.

modules = {}
functions = {}
_next_function = [1]


def load_module(path):
    module = modules.get(path)
    if module is not None:
        return module
    marker = "/lm_eval/tasks/"
    if marker in path:
        root = path[: path.index(marker) + len(marker) - 1]
        if root not in tasks_roots:
            tasks_roots.append(root)
            tasks = sys.modules.get("lm_eval.tasks")
            if tasks is not None and STAND_INS.get("lm_eval"):
                tasks.__path__ = list(tasks_roots)
        name = "lm_eval.tasks." + path[len(root) + 1: -3].replace("/", ".")
    else:
        name = path[:-3]
    task_dirs.add(os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as error:
        module = placeholders().import_with_placeholders(name, path, error)
    sys.modules[name] = module
    modules[path] = module
    return module


# ---------------------------------------------------------------------------------------------------
# The modules task code imports. A task's hash must change when any code that shapes its prompts or
# scores changes, and that includes the helpers its utils.py imports (a module beside it, one in a sibling
# task folder). They are found by reading the import statements of each task module (anywhere in it,
# function bodies included), resolving them as the import system would without running anything, and
# following every module found that is not the interpreter's own (its standard library, site-packages,
# dist-packages): task code, by this definition. Imports computed at run time (importlib.import_module
# of a variable) cannot be seen this way.

_library = []
_imports_of = {}


def library_roots():
    if not _library:
        import sysconfig

        paths = sysconfig.get_paths()
        roots = {paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
        try:
            import site

            roots.update(site.getsitepackages())
            roots.add(site.getusersitepackages())
        except Exception:  # noqa: BLE001 - an interpreter without the site module's helpers
            pass
        roots.update(entry for entry in sys.path if os.path.basename(entry) in ("site-packages", "dist-packages"))
        roots.add(os.path.dirname(os.path.abspath(__file__)))
        _library.extend(os.path.join(os.path.realpath(root), "") for root in roots if root)
    return _library


def is_task_code(filename):
    # A task tree's files are task code even where the library lives (an installed lm_eval's tasks).
    if is_task_file(filename) or "/lm_eval/tasks/" in filename:
        return True
    known = _library_file.get(filename)
    if known is None:
        real = os.path.realpath(filename)
        known = _library_file[filename] = any(real.startswith(root) for root in library_roots())
    return not known


_library_file = {}


# The packages above a task tree: imported on the way to a task module, but lm_eval's code, not the task's.
_TREE_PACKAGES = ("lm_eval", "lm_eval.tasks")


def _find(leaf, search):
    """Where the import system's path finder would find `leaf` in the folders `search`, in its order
    (a package, then a module file, then namespace portions): (file, search locations) or None. Kept
    for the worker's life (one run): a run's task files do not come and go."""
    key = (leaf, tuple(search))
    if key not in _found:
        _found[key] = _find_now(leaf, search)
    return _found[key]


_found = {}


def _find_now(leaf, search):
    portions = []
    for entry in search:
        if not isinstance(entry, str):
            continue
        base = os.path.join(entry or ".", leaf)
        is_dir = os.path.isdir(base)
        if is_dir:
            for suffix in _SUFFIXES:
                init = os.path.join(base, "__init__" + suffix)
                if os.path.isfile(init):
                    return init, [base]
        for suffix in _SUFFIXES:
            if os.path.isfile(base + suffix):
                return base + suffix, None
        if is_dir:
            portions.append(base)
    return (None, portions) if portions else None


_SUFFIXES = importlib.machinery.all_suffixes()


def _locate(name, located):
    """(file, search locations) of module `name`, found without importing anything; None when not found."""
    if name in located:
        return located[name]
    module = sys.modules.get(name)
    if module is not None:
        found = getattr(module, "__file__", None), getattr(module, "__path__", None)
    elif name == "lm_eval.tasks" and STAND_INS.get("lm_eval"):
        found = None, list(tasks_roots)
    elif STAND_INS.get(name.partition(".")[0]) and not name.startswith("lm_eval.tasks."):
        found = None, None  # a stand-in: assay's code, in no file
    else:
        parent, _, leaf = name.rpartition(".")
        search = _locate(parent, located) if parent else (None, sys.path)
        found = _find(leaf, list(search[1])) if search is not None and search[1] is not None else None
    located[name] = found
    return found


# Import statements, read from the source without compiling it (a tenth of the time of ast.parse over a
# task tree): `import a.b as c, d` and `from .x import (y, z)`, at any indent. A line inside a string that
# reads like one only adds a module that exists, which the hash then covers too.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))",
    re.MULTILINE,
)


def _imported_names(path, name, is_package):
    """The absolute module names `path` (module `name`) imports, submodules named by `from x import y` included."""
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            text = source.read()
    except OSError:
        return []
    package = name if is_package else name.rpartition(".")[0]
    names = []
    for dots, module, imported, plain in _IMPORT.findall(text):
        if plain:
            names.extend(part.split()[0] for part in plain.split(",") if part.split())
            continue
        if dots:
            if "/" in package or not package:
                continue  # a module outside a package: its relative imports fail at run time too
            try:
                base = importlib.util.resolve_name(dots + module, package)
            except (ImportError, ValueError):
                continue
        elif module:
            base = module
        else:
            continue
        names.append(base)
        for part in imported.strip("()").split(","):
            words = part.split()
            if words and words[0] != "*" and words[0].isidentifier():
                names.append(f"{base}.{words[0]}")
    return names


def task_modules(path):
    """Every task-code file the module at `path` imports, directly or through others, itself included."""
    module = modules.get(path)
    name = getattr(module, "__name__", path[:-3])
    seen = {path: None}
    located = {}
    queue = [(path, name, path.endswith("__init__.py"))]
    while queue:
        current, current_name, is_package = queue.pop()
        names = _imports_of.get(current)
        if names is None:
            names = _imports_of[current] = _imported_names(current, current_name, is_package)
        for imported in names:
            # `import a.b.c` runs a, a.b and a.b.c: each is code of the task when it is task code.
            parts = imported.split(".")
            for depth in range(1, len(parts) + 1):
                prefix = ".".join(parts[:depth])
                found = _locate(prefix, located)
                if found is None:
                    break
                file = found[0]
                if prefix in _TREE_PACKAGES or not file:
                    continue
                if not is_task_code(file):
                    break
                if file not in seen and os.path.isfile(file):
                    seen[file] = None
                    if file.endswith(".py"):
                        queue.append((file, prefix, os.path.basename(file) == "__init__.py"))
    return sorted(seen)


def error_record(error, index=None):
    frames = traceback.extract_tb(error.__traceback__)
    # The innermost frame outside this file: where the task code failed.
    frame = next((f for f in reversed(frames) if f.filename not in _OWN_FILES), frames[-1] if frames else None)
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


def op_load(request):
    seeds = request.get("seeds") or {}
    if seeds.get("random") is not None:
        random.seed(seeds["random"])
    out = []
    for index, entry in enumerate(request["functions"]):
        # Which entry is being imported, should its module end the worker some way no exception reports.
        write_frame('{"id":%d,"at":%d}' % (request["id"], index))
        try:
            loaded = {}
            if "builtin" in entry:
                fn = entry_builtin(entry["builtin"])
            else:
                fn = getattr(load_module(entry["module"]), entry["name"], None)
                if fn is None:
                    raise AttributeError(f"{os.path.basename(entry['module'])} has no function {entry['name']!r}")
                if not callable(fn):
                    raise TypeError(f"{entry['name']} in {os.path.basename(entry['module'])} is a {type(fn).__name__}, not a function")
                check_reachable(fn, entry["name"])
                loaded["modules"] = task_modules(entry["module"])
                where = defined_at(fn)
                if where:
                    loaded["defined"] = where
            number = _next_function[0]
            _next_function[0] += 1
            functions[number] = fn
            out.append({"id": number, "name": getattr(fn, "__name__", entry.get("name")), **loaded})
        except BaseException as error:  # noqa: BLE001 - a task module may raise anything, SystemExit included
            if isinstance(error, KeyboardInterrupt):
                raise
            out.append({"error": error_record(error)})
    if seeds.get("numpy") is not None and "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(seeds["numpy"])
    if seeds.get("torch") is not None and "torch" in sys.modules:
        sys.modules["torch"].manual_seed(seeds["torch"])
    return out


def defined_at(fn):
    """`file:line in name` of a function's definition (a class's __call__, a partial's function)."""
    target = getattr(fn, "func", fn)  # functools.partial
    code = getattr(target, "__code__", None) or getattr(getattr(target, "__call__", None), "__code__", None)
    if code is None:
        return None
    return f"{code.co_filename}:{code.co_firstlineno} in {getattr(target, '__name__', code.co_name)}"


def entry_builtin(spec):
    if spec["kind"] == "hf_evaluate":
        import evaluate

        return evaluate.load(spec["name"]).compute
    if spec["kind"] == "registered_filter":
        # Importing the task's modules runs their @register_filter decorators.
        for path in spec["modules"]:
            load_module(path)
        from lm_eval.api.registry import get_filter

        try:
            found = get_filter(spec["name"])
        except KeyError:
            raise KeyError(f"no module registers a filter named {spec['name']!r}") from None
        check_reachable(found, spec["name"])
        return found
    raise ValueError(f"unknown builtin {spec['kind']}")


def as_rows(value):
    if isinstance(value, Dataset):
        rows = value._rows  # the stand-in's own rows: no copy needed, they are sent and kept as they are
    elif hasattr(value, "to_list") and not isinstance(value, list):
        rows = value.to_list()
    else:
        rows = list(value)
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise TypeError(f"expected a list of dicts (docs), item {index} is a {type(row).__name__}")
    return rows


def make_dataset(rows):
    from datasets import Dataset as DatasetClass

    if DatasetClass is Dataset and rows and all(row.keys() == rows[0].keys() for row in rows):
        # Freshly decoded rows with the same columns: what from_list would build, without copying them.
        return Dataset(rows)
    return DatasetClass.from_list(rows)


def op_process_docs(request):
    fn = functions[request["fn"]]
    rows = as_rows(fn(make_dataset(request["docs"])))
    return _rows_reply(rows)


def op_samples(request):
    rows = as_rows(functions[request["fn"]]())
    return _rows_reply(rows)


class Parts:
    """
    A reply whose list `key` goes in parts, one frame each, ahead of the final frame (`value` without
    `key`): assay decodes a part while the next is computed and encoded, instead of waiting for one frame
    of megabytes and then decoding it while this side waits. `chunks` yields each part's JSON text.
    """

    def __init__(self, value, key, chunks):
        self.value, self.key, self.chunks = value, key, chunks


# Items per part: a few hundred kilobytes of a typical split, so the first part is out within milliseconds.
PART_ITEMS = 2048


def write_parts(number, parts):
    for text in parts.chunks:
        write_frame('{"id":%d,"part":%s}' % (number, text))
    value = dict(parts.value)
    value["$parts"] = parts.key
    write_frame('{"id":%d,"ok":true,"value":%s}' % (number, dump(value)))


def _rows_reply(rows):
    chunks = (dump_rows(rows[start : start + PART_ITEMS]) for start in range(0, len(rows), PART_ITEMS))
    return Parts({"handle": keep(rows)}, "docs", chunks)


def op_apply(request):
    # Either docs (values and references) with each call's positions in them, or a handle whose first
    # `count` rows each call reads (a split the worker produced, in order). The values of every call go
    # in one list, in parts as they are computed; `counts` splits it back into calls.
    if "handle" in request:
        docs = handles[request["handle"]]
    else:
        docs = with_refs(request["docs"], request.get("refs"))
    calls = [
        (functions[call["fn"]], range(call["count"]) if "count" in call else call["items"])
        for call in request["calls"]
    ]

    def chunks():
        values = []
        for number, (fn, positions) in enumerate(calls):
            for position in positions:
                try:
                    values.append(encode(fn(docs[position])))
                except BaseException as error:  # noqa: BLE001 - sys.exit in task code too
                    if isinstance(error, KeyboardInterrupt):
                        raise
                    raise BatchError(error, position, number)
                if len(values) == PART_ITEMS:
                    yield dump(values)
                    values = []
        if values:
            yield dump(values)

    return Parts({"counts": [len(positions) for _, positions in calls]}, "values", chunks())


def _stored_results(values, errors):
    # Failed items are None here and listed in `errors`: one bad doc becomes one errored sample.
    return {"store": keep(values), "values": [encode(value) for value in values], "errors": errors}


def _not_finite(value):
    """Whether a metric value is a number that is not finite (NaN, ±inf): a float, or a numpy float scalar."""
    if isinstance(value, float):
        return value - value != 0  # nan - nan and inf - inf are nan
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        kind = getattr(getattr(value, "dtype", None), "kind", "")
        return kind == "f" and not math.isfinite(float(value))
    return False


_PLAIN = frozenset((int, bool, str, tuple, list, dict, set, type(None)))


def _all_finite(value):
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


def op_process_results(request):
    fn = functions[request["fn"]]
    values, errors = [], {}
    docs = with_refs(request["docs"], request.get("refs"))
    convert = loglikelihood_results if request.get("loglikelihood") else None
    for position, (doc, results) in enumerate(zip(docs, request["results"])):
        try:
            if convert:
                results = convert(results)
            value = fn(doc, results)
            if not isinstance(value, dict):
                raise TypeError(f"process_results must return a dict of metric values, got {type(value).__name__}")
        except BaseException as error:  # noqa: BLE001 - sys.exit and os._exit in task code too
            if isinstance(error, KeyboardInterrupt):
                raise
            errors[str(position)] = error_record(error, position)
            value = None
        else:
            # NaN or inf would reach the aggregation, far from here: this doc is the error.
            failure = None if _all_finite(value) else returned_error(fn, value, position)
            if failure:
                errors[str(position)] = failure
                value = None
        values.append(value)
    return _stored_results(values, errors)


def op_metric(request):
    """A metric_list entry's function on generated answers, as lm-eval's generate_until scoring calls it."""
    fn = functions[request["fn"]]
    name = request["name"]
    kwargs = request.get("kwargs") or {}
    values, errors = [], {}

    def score(gold, result):
        try:
            return fn(references=[gold], predictions=[result], **kwargs)
        except TypeError:
            return fn([gold, result])

    for position, (gold, result, multiple) in enumerate(request["items"]):
        try:
            if multiple:
                # Several gold answers: 1.0 when any of them scores, as lm-eval's multiple_target rule.
                scores = []
                for option in gold if isinstance(gold, list) else [gold]:
                    value = score(option, result)
                    scores.append(value[name] if isinstance(value, dict) else value)
                value = 1.0 if any(scores) else 0.0
            else:
                value = score(gold, result)
            value = dict(value) if isinstance(value, dict) else {name: value}
        except BaseException as error:  # noqa: BLE001 - sys.exit and os._exit in task code too
            if isinstance(error, KeyboardInterrupt):
                raise
            errors[str(position)] = error_record(error, position)
            values.append(None)
            continue
        failure = returned_error(fn, value, position, (name,))
        if failure:
            errors[str(position)] = failure
            value = None
        values.append(value)
    return _stored_results(values, errors)


def op_filter(request):
    fn = functions[request["fn"]]
    resps, docs = request["resps"], request["docs"]
    if request["mode"] == "custom":
        out = fn(resps, docs)
    else:
        out = fn(**(request.get("kwargs") or {})).apply(resps, docs)
    out = list(out)
    if len(out) != len(resps):
        raise ValueError(f"the filter returned {len(out)} values for {len(resps)} responses")
    return [encode(value) for value in out]


def _item(ref):
    # A metric value by reference: (store, position, key) from an earlier process_results / metric call.
    if isinstance(ref, list):
        return handles[ref[0]][ref[1]][ref[2]]
    return ref["v"]


def op_aggregate(request):
    fn = functions[request["fn"]]
    items = [_item(ref) for ref in request["items"]]
    value = fn(items)
    replicates = []
    iterations = request.get("iters") or 0
    failed = None
    if iterations > 0 and len(items) >= 2:
        # lm-eval's bootstrap_stderr: chunks of min(1000, iters) replicates, chunk i drawn by Random(i).
        # A resample the function cannot aggregate (no doc of some class) leaves the stderr unknown; the
        # value above is still the task's score, as in lm-eval, which never bootstraps a function.
        chunk = min(1000, iterations)
        try:
            for index in range(iterations // chunk):
                rnd = random.Random(index)
                for _ in range(chunk):
                    replicates.append(float(fn(rnd.choices(items, k=len(items)))))
        except Exception as error:  # noqa: BLE001 - any exception of task code on a resample
            failed = {"resample": len(replicates) + 1, "error": error_record(error)}
            replicates = []
    reply = {"value": encode(value), "replicates": [encode(float(r)) for r in replicates]}
    if failed is not None:
        reply["bootstrap_error"] = failed
    return reply


def op_group_aggregate(request):
    fn = functions[request["fn"]]
    return encode(fn(request["values"], request["sizes"], request["weight_by_size"]))


def op_release(request):
    for number in request["handles"]:
        handles.pop(number, None)
    return None


def op_call(request):
    return encode(functions[request["fn"]](*request.get("args", [])))


OPS = {
    "load": op_load,
    "process_docs": op_process_docs,
    "samples": op_samples,
    "apply": op_apply,
    "process_results": op_process_results,
    "metric": op_metric,
    "filter": op_filter,
    "aggregate": op_aggregate,
    "group_aggregate": op_group_aggregate,
    "release": op_release,
    "call": op_call,
}


def package_version(name):
    if importlib.util.find_spec(name) is None:
        return None
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001 - importable without metadata (a source checkout)
        return "unknown"


def main():
    install_stand_ins()
    hello = {
        "python": sys.executable,
        "version": ".".join(str(part) for part in sys.version_info[:3]),
        "implementation": sys.implementation.name,
        "packages": {
            name: (None if STAND_INS.get(name) else package_version(name))
            for name in ("datasets", "numpy", "lm_eval", "evaluate")
        },
        "stand_ins": sorted(STAND_INS),
    }
    write_frame(dump(hello))
    while True:
        payload = read_frame()
        if payload is None:
            # assay is done: run the atexit handlers task code registered, then leave without tearing
            # down every object (a processed split takes a noticeable time to free).
            import atexit

            atexit._run_exitfuncs()
            sys.stderr.flush()
            _process_exit(0)
        request = decode(payload)
        number = request.get("id")
        try:
            if "$parts" in request:
                # A list sent in parts, one frame each, after this one (see Parts for the other way).
                key, count = request.pop("$parts")
                items = []
                for _ in range(count):
                    part = read_frame()
                    if part is None:
                        raise EOFError("assay closed the pipe in the middle of a request")
                    items.extend(decode(part))
                request[key] = items
            value = OPS[request["op"]](request)
            if isinstance(value, Parts):
                write_parts(number, value)
            else:
                write_frame('{"id":%d,"ok":true,"value":%s}' % (number, dump(value)))
        except BatchError as failure:
            record = error_record(failure.error, failure.index)
            if failure.call is not None:
                record["call"] = failure.call
            write_frame(dump({"id": number, "ok": False, "error": record}))
        except BaseException as error:  # noqa: BLE001 - reported to assay, which decides
            if isinstance(error, KeyboardInterrupt):
                return
            write_frame(dump({"id": number, "ok": False, "error": error_record(error)}))


if __name__ == "__main__":
    main()
