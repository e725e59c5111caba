"""Task modules: importing them as lm-eval does, and finding every file of task code each one imports
(what a task's hash covers)."""

import importlib.machinery
import importlib.util
import os
import re
import sys

from .missing import STAND_INS, placeholders
from .task_files import is_task_file, task_dirs, tasks_roots

# Task modules, named as lm-eval names them: `lm_eval.tasks.<folder>.<module>` inside a task tree (so
# relative imports and `from lm_eval.tasks.x import y` work), else the file's path without `.py`.

modules = {}


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
        # assay's own Python (worker.py and this package) is not task code either.
        roots.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
