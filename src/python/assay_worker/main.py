"""The worker's life: the hello that describes the interpreter, then one request after another until
assay closes the pipe."""

import importlib.util
import sys

from .codec import decode, dump
from .failures import BatchError, error_record, guard_process_exit, process_exit
from .frames import Parts, open_channel, read_frame, write_frame, write_parts
from .missing import STAND_INS
from .operations import OPS
from .stand_ins import install_stand_ins


def package_version(name):
    if importlib.util.find_spec(name) is None:
        return None
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001 - importable without metadata (a source checkout)
        return "unknown"


def main():
    open_channel()
    guard_process_exit()
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
            process_exit(0)
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
