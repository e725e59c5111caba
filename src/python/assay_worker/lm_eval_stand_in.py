"""The stand-in for `lm_eval`, installed only when the interpreter cannot import it: the helpers the task
tree imports most. Anything else raises an ImportError that names it."""

import math
import re

from .missing import strict_module
from .task_files import tasks_roots


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
