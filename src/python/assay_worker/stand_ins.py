"""Stand-ins, installed only for packages the interpreter cannot import: `datasets`
(datasets_stand_in.py), the `lm_eval` helpers task modules import most (lm_eval_stand_in.py), and
`sklearn.metrics`' f1_score and accuracy_score (sklearn_stand_in.py, loaded on first import), every
other sklearn name a placeholder."""

import importlib.machinery
import importlib.util
import sys

from .datasets_stand_in import build_datasets
from .lm_eval_stand_in import (
    build_lm_eval,
    build_lm_eval_api,
    build_lm_eval_api_filter,
    build_lm_eval_api_instance,
    build_lm_eval_api_metrics,
    build_lm_eval_api_registry,
    build_lm_eval_filters,
    build_lm_eval_filters_extraction,
    build_lm_eval_tasks,
    build_lm_eval_utils,
)
from .missing import PARTIAL_STAND_INS, STAND_INS, missing_message, partial_missing, placeholders_active


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


def build_sklearn(module):
    module.__version__ = "0+assay.stand-in"

    def __getattr__(name):
        # scikit-learn loads its submodules on attribute access: `import sklearn; sklearn.metrics.f1_score`.
        if name == "metrics":
            return importlib.import_module("sklearn.metrics")
        return partial_missing(module, name)

    module.__getattr__ = __getattr__


def build_sklearn_metrics(module):
    from . import sklearn_stand_in as metrics

    module.f1_score = metrics.f1_score
    module.accuracy_score = metrics.accuracy_score
    module.__all__ = ["accuracy_score", "f1_score"]
    module.__getattr__ = lambda name: partial_missing(module, name)


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
