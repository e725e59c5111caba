"""Placeholders for packages a task module imports and the interpreter lacks; part of assay's worker.

lm-eval needs a task module to import whole, and many import numpy or sklearn at the top for one metric
while the function a task names (a process_docs, a doc_to_text) never touches them. When a task
module's import fails with ModuleNotFoundError for a third-party top-level package that is not
installed, it is imported again with a placeholder for that package, served only to task files and
only during that import. Module-level code that really uses the package still fails: any use of a
placeholder that would produce a value (calling it, iterating, comparing, arithmetic, truth, str, a
version check, subclassing) raises an ImportError naming the package, the interpreter and the task
file. A function is bound only when a static walk of what it can reach finds no placeholder
(`needs_of`). missing.py loads this file only after an import has failed.
"""

import dis
import functools
import importlib.machinery
import importlib.util
import os
import sys
import traceback
import types

# Set by configure(): the worker's test for task files, the packages it serves stand-ins for, those of
# them that provide only a few names (sklearn: f1_score, accuracy_score), and the worker's own files.
is_task_file = None
STAND_INS = {}
PARTIAL_STAND_INS = set()
OWN_FILES = set()


def configure(is_task_file, stand_ins, partial_stand_ins=(), own_files=()):
    globals()["is_task_file"] = is_task_file
    globals()["STAND_INS"] = stand_ins
    globals()["PARTIAL_STAND_INS"] = set(partial_stand_ins)
    globals()["OWN_FILES"] = set(own_files)


# Package -> the task file that first needed it.
PLACEHOLDER_ROOTS = {}
# The task module being imported again with placeholders (named in their messages).
_loading = []
# Packages served as placeholders right now (during the retried import of one task module).
_active_placeholders = set()


class PackageNeeded(ImportError):
    """A function the task names can reach a placeholder: it needs the package."""

    def __init__(self, message, root):
        super().__init__(message, name=root)
        self.assay_needs = root


def active_placeholders():
    return _active_placeholders


def placeholder_for(root, name):
    """A placeholder for `name`, a name of `root` that a partial stand-in lacks."""
    return Placeholder(root, name, _loading[-1] if _loading else "task code")


def placeholder_message(root, needed_by):
    return (
        f"{root} is not installed for {sys.executable} (needed by {needed_by}); "
        f"install it in that interpreter or pass --python"
    )


def _refuse(self, *args, **kwargs):
    root = object.__getattribute__(self, "_assay_root")
    raise ImportError(placeholder_message(root, object.__getattribute__(self, "_assay_by")), name=root)


class Placeholder:
    """Stands for `root.name` (an attribute of a missing package). Attribute access and subscripting
    (`np.ndarray`, `npt.NDArray[np.float64]`, `np.ndarray | None` in annotations) give further
    placeholders; every use that would produce a value raises."""

    __slots__ = ("_assay_root", "_assay_name", "_assay_by")

    def __init__(self, root, name, needed_by):
        object.__setattr__(self, "_assay_root", root)
        object.__setattr__(self, "_assay_name", name)
        object.__setattr__(self, "_assay_by", needed_by)

    def _further(self, name):
        return Placeholder(self._assay_root, name, self._assay_by)

    def __getattr__(self, attribute):
        if attribute.startswith("__") and attribute.endswith("__"):
            raise AttributeError(attribute)
        return self._further(f"{self._assay_name}.{attribute}")

    def __getitem__(self, key):
        return self._further(f"{self._assay_name}[...]")

    def __or__(self, other):
        return self._further(f"{self._assay_name} | ...")

    __ror__ = __or__

    def __repr__(self):
        return f"<placeholder for {self._assay_name}: {self._assay_root} is not installed>"

    def __hash__(self):
        return id(self)

    def __mro_entries__(self, bases):
        _refuse(self)

    def __eq__(self, other):
        # Task code comparing a placeholder gets the error; library code that only checks membership
        # (typing's `arg in (Any, ...)` for an annotation like `Optional[np.ndarray]`) gets identity.
        if is_task_file(sys._getframe(1).f_code.co_filename):
            _refuse(self)
        return self is other

    def __ne__(self, other):
        if is_task_file(sys._getframe(1).f_code.co_filename):
            _refuse(self)
        return self is not other

    __call__ = __iter__ = __next__ = __len__ = __bool__ = __contains__ = _refuse
    __str__ = __format__ = __bytes__ = __index__ = __int__ = __float__ = __complex__ = __round__ = _refuse
    __setattr__ = __delattr__ = __setitem__ = __delitem__ = __enter__ = __exit__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __matmul__ = __rmatmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _refuse
    __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = __invert__ = _refuse
    __and__ = __rand__ = __xor__ = __rxor__ = __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _refuse
    __iadd__ = __isub__ = __imul__ = __itruediv__ = _refuse


class PlaceholderModule(types.ModuleType):
    """A missing package or one of its submodules: every attribute is a placeholder."""

    _assay_by = "task code"

    def __getattr__(self, attribute):
        root = self.__name__.split(".")[0]
        if attribute in ("__version__", "__all__"):
            # A version check at import (`if np.__version__ >= "2.0"`) is a real use of the package, and
            # `from np import *` cannot know the names it would bind.
            raise ImportError(placeholder_message(root, self._assay_by), name=root)
        if attribute.startswith("__") and attribute.endswith("__"):
            raise AttributeError(attribute)
        return Placeholder(root, f"{self.__name__}.{attribute}", self._assay_by)


def is_placeholder(value):
    kind = type(value)
    return kind is Placeholder or kind is PlaceholderModule


def placeholder_root(value):
    if type(value) is Placeholder:
        return object.__getattribute__(value, "_assay_root")
    return value.__name__.split(".")[0]


def _importing_file():
    """The file whose import statement is being served: the first frame outside the import system."""
    frame = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith("<frozen") and not filename.startswith(os.path.dirname(importlib.__file__)):
            return filename
        frame = frame.f_back
    return None


class PlaceholderFinder:
    # A finder and loader by protocol (find_spec, create_module, exec_module), without the abstract
    # base classes: importing them pulls in importlib.resources, pathlib and tempfile (~25 ms of start-up).
    """Last on sys.meta_path, so it is asked only about modules nothing else finds."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] not in _active_placeholders or not is_task_file(_importing_file()):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = PlaceholderModule(spec.name)
        module._assay_by = _loading[-1] if _loading else "task code"
        return module

    def exec_module(self, module):
        module.__path__ = []


_placeholder_finder = PlaceholderFinder()


def placeholderable(error, path):
    """The package to stand in for when `error` (from importing the task module at `path`) is a task
    file importing a third-party top-level package that is not installed; else None."""
    name = getattr(error, "name", None)
    if not name or type(error) is not ModuleNotFoundError:
        return None
    root = name.split(".")[0]
    # A partial stand-in (sklearn's f1_score and accuracy_score) serves its names; the rest of the
    # package is missing, and raises ModuleNotFoundError from the stand-in's own code.
    partial = root in PARTIAL_STAND_INS
    if root in _active_placeholders or (root in STAND_INS and not partial) or root in ("lm_eval", "datasets", "__main__"):
        return None
    if root in sys.builtin_module_names or root in getattr(sys, "stdlib_module_names", ()):
        return None
    # The task folder's own modules are never stood in for: their failure is the task's.
    folder = os.path.dirname(path)
    if os.path.exists(os.path.join(folder, root + ".py")) or os.path.isdir(os.path.join(folder, root)):
        return None
    if not partial:
        try:
            if importlib.util.find_spec(root) is not None:
                return None  # installed: the missing piece is inside it
        except (ImportError, ValueError):
            return None
    # The import statement that failed must be task code, not an installed package's own dependency.
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not f.filename.startswith("<frozen") and not (partial and f.filename in OWN_FILES)]
    if not frames or not is_task_file(frames[-1].filename):
        return None
    return root


def import_with_placeholders(name, path, error):
    """After exec_module of the task module at `path` raised `error`: when the missing module is a
    third-party package a task file imports, import the module again with a placeholder for it (and
    for each further such package); else re-raise `error`."""
    root = placeholderable(error, path)
    if root is None:
        raise error
    if _placeholder_finder not in sys.meta_path:
        sys.meta_path.append(_placeholder_finder)
    roots = []
    _loading.append(path)
    try:
        while True:
            roots.append(root)
            PLACEHOLDER_ROOTS.setdefault(root, path)
            _active_placeholders.add(root)
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
                return module
            except ModuleNotFoundError as again:
                root = placeholderable(again, path)
                if root is None or len(roots) >= 32:
                    raise
    finally:
        _loading.pop()
        _active_placeholders.clear()
        # Placeholders leave sys.modules: later imports (by other code) see the package as missing.
        for key in [key for key, value in sys.modules.items() if type(value) is PlaceholderModule]:
            parent, _, child = key.rpartition(".")
            # ...and a partial stand-in's package (sklearn) loses the placeholder submodule set on it.
            owner = sys.modules.get(parent) if parent else None
            if owner is not None and type(owner) is not PlaceholderModule and owner.__dict__.get(child) is sys.modules[key]:
                delattr(owner, child)
            del sys.modules[key]


# --- The static walk: what a function can reach -----------------------------------------------------

_GLOBAL_OPS = {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FROM_DICT_OR_GLOBALS"}
_ATTRIBUTE_OPS = {"LOAD_ATTR", "LOAD_METHOD"}
_code_names = {}


def code_names(code):
    """The global names and the attribute names a code object and its nested code objects use."""
    found = _code_names.get(code)
    if found is None:
        globals_used, attributes = set(), set()
        stack = [code]
        while stack:
            current = stack.pop()
            for instruction in dis.get_instructions(current):
                if instruction.opname in _GLOBAL_OPS:
                    globals_used.add(instruction.argval)
                elif instruction.opname in _ATTRIBUTE_OPS:
                    attributes.add(instruction.argval)
            stack.extend(const for const in current.co_consts if isinstance(const, types.CodeType))
        found = _code_names[code] = (globals_used, attributes)
    return found


def _is_task_module(value):
    return isinstance(value, types.ModuleType) and is_task_file(getattr(value, "__file__", None))


def _is_task_class(value):
    module = sys.modules.get(getattr(value, "__module__", None) or "")
    return module is not None and is_task_file(getattr(module, "__file__", None))


def _reached(value):
    """(name, value) pairs `value` can reach in one step, for the kinds of value that can call code."""
    if isinstance(value, types.FunctionType):
        code = value.__code__
        if not is_task_file(code.co_filename):
            wrapped = getattr(value, "__wrapped__", None)
            return [("__wrapped__", wrapped)] if wrapped is not None else []
        globals_used, attributes = code_names(code)
        scope = value.__globals__
        out = []
        for name in globals_used:
            if name in scope:
                target = scope[name]
                out.append((name, target))
                if _is_task_module(target):
                    # `helper.fn` on a module of the task folder: the attributes this code uses.
                    out.extend((f"{name}.{attribute}", target.__dict__[attribute])
                               for attribute in attributes if attribute in target.__dict__)
        out.extend(("default", item) for item in value.__defaults__ or ())
        out.extend(("default", item) for item in (value.__kwdefaults__ or {}).values())
        for cell in value.__closure__ or ():
            try:
                out.append(("closure", cell.cell_contents))
            except ValueError:  # an empty cell
                pass
        return out
    if isinstance(value, type):
        if not _is_task_class(value):
            return []
        out = [(base.__name__, base) for base in value.__bases__]
        for name, member in vars(value).items():
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            elif isinstance(member, property):
                out.extend((name, part) for part in (member.fget, member.fset, member.fdel) if part is not None)
                continue
            out.append((name, member))
        return out
    if isinstance(value, types.MethodType):
        return [("method", value.__func__), ("self", value.__self__)]
    if isinstance(value, functools.partial):
        return [("partial", value.func), *(("argument", item) for item in value.args),
                *(("argument", item) for item in value.keywords.values())]
    if isinstance(value, dict):
        return [("item", item) for item in value.values()] if len(value) <= 10000 else []
    if isinstance(value, (list, tuple, set, frozenset)):
        return [("item", item) for item in value] if len(value) <= 10000 else []
    if isinstance(value, (str, bytes, int, float, bool, types.ModuleType)) or value is None:
        return []
    wrapped = getattr(value, "__wrapped__", None) if callable(value) else None
    if wrapped is not None:
        # A decorated function (functools.cache / lru_cache / wraps): what it wraps is what runs.
        return [("__wrapped__", wrapped)]
    if _is_task_class(type(value)):
        # An instance of a task-defined class (a scorer built at import): its class and its fields.
        return [("class", type(value)), *((name, item) for name, item in getattr(value, "__dict__", {}).items())]
    return []


_needs = {}
# Steps that add no name to the path a message shows.
_UNNAMED = {"item", "default", "closure", "argument", "method", "partial", "__wrapped__"}


def needs_of(target, label):
    """(package, path) when `target` can reach a placeholder, else None. Conservative: every global a
    function's code names counts, whichever branch it sits in."""
    key = id(target)
    if key in _needs and _needs[key][0] is target:
        return _needs[key][1]
    found = None
    seen = set()
    stack = [(target, (label,))]
    while stack:
        value, trail = stack.pop()
        if is_placeholder(value):
            found = (placeholder_root(value), " -> ".join(trail))
            break
        if id(value) in seen:
            continue
        seen.add(id(value))
        for name, item in _reached(value):
            stack.append((item, trail if name in _UNNAMED else trail + (name,)))
    _needs[key] = (target, found)
    return found


def check_reachable(fn, label):
    """Raises PackageNeeded when a function (or a filter class: any of its methods) reaches a placeholder."""
    found = needs_of(fn, label)
    if found is None:
        return
    root, trail = found
    raise PackageNeeded(
        f"needs {root}, not installed for {sys.executable} (via {trail}); "
        f"install it in that interpreter or pass --python",
        root,
    )
