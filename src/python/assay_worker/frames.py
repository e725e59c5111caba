"""The protocol's frames. Requests come on fd 3 and replies go on fd 4, never on stdin/stdout: task code
that reads stdin (input(), sys.stdin.read()) reads /dev/null, and fd 1 is pointed at stderr so that
print() in task code, or output from a C extension, never lands between frames. Neither protocol fd
passes to a program task code starts. Each frame is a 4-byte big-endian length and that many bytes of
UTF-8 JSON (src/python/worker-process.ts is the other side)."""

import os
import struct
import sys

from .codec import dump

_IN = None
_OUT = None


def open_channel():
    """Takes fds 3 and 4 for the protocol and points fd 1 at stderr, before any task code runs."""
    global _IN, _OUT
    try:
        for fd in (3, 4):
            os.set_inheritable(fd, False)
    except OSError:
        sys.exit("worker.py is assay's Python worker: it speaks on fds 3 and 4, which assay opens for it")
    _IN = os.fdopen(3, "rb")
    _OUT = os.fdopen(4, "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Larger buffers carry a split in a few writes instead of hundreds of round trips. Node (libuv) gives a
    # child its stdio as a Unix socket pair, whose buffers (208 KiB by default) are raised with setsockopt
    # (capped by net.core.wmem_max/rmem_max); a pipe (another parent) takes F_SETPIPE_SZ (1 MiB, Linux).
    try:
        import socket

        for fd, option in ((_IN.fileno(), socket.SO_RCVBUF), (_OUT.fileno(), socket.SO_SNDBUF)):
            sock = socket.socket(fileno=os.dup(fd))
            try:
                sock.setsockopt(socket.SOL_SOCKET, option, 4 << 20)
            finally:
                sock.close()
    except (ImportError, OSError):
        try:
            import fcntl

            for fd in (_IN.fileno(), _OUT.fileno()):
                fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        except (ImportError, OSError):
            pass


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
