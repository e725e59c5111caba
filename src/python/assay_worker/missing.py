"""Packages the interpreter lacks: the message that says what to install, and the placeholders
(placeholders.py, loaded only the first time a task module's import fails with ModuleNotFoundError, so
imports that succeed pay nothing) for packages a task module imports but none of its bound functions
reaches."""

import sys

from .failures import OWN_FILES
from .task_files import is_task_file

STAND_INS = {}
# Stand-ins that provide a few names of a package; the rest of it is treated as missing.
PARTIAL_STAND_INS = set()
_placeholders = []

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


def partial_missing(module, name):
    """A name a partial stand-in lacks: a placeholder while a task module is imported with placeholders
    for the package (so only the functions that reach it are refused), else a ModuleNotFoundError."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    root = module.__name__.split(".")[0]
    if placeholders_active(root) and is_task_file(sys._getframe(2).f_code.co_filename):
        return placeholders().placeholder_for(root, f"{module.__name__}.{name}")
    raise ModuleNotFoundError(missing_message(f"{module.__name__}.{name}"), name=root)


def placeholders():
    if not _placeholders:
        from . import placeholders as module

        module.configure(
            is_task_file=is_task_file, stand_ins=STAND_INS, partial_stand_ins=PARTIAL_STAND_INS, own_files=OWN_FILES
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
