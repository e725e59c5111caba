"""Function binding: the `load` request imports the task modules a run names and keeps each function it
binds under a number; later requests call it by that number."""

import os
import random
import sys

from .failures import defined_at, error_record
from .frames import write_frame
from .missing import check_reachable
from .task_modules import load_module, task_modules

functions = {}
_next_function = [1]


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
