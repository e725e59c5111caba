"""assay's stand-in for `sklearn.metrics.f1_score` and `accuracy_score`; part of assay's worker.

Why hand-written: lm-eval's task modules import scikit-learn for these two functions (aradice's F1
aggregations, afrobench's token accuracy, kobest, evalita, super_glue) and for nothing else that a plain
interpreter can run; assay's users often have no scikit-learn, and this machine reaches no PyPI to
vendor it. So the worker serves these two, in plain Python, only when `sklearn` is not importable (an
installed scikit-learn always wins). They follow scikit-learn's documented semantics for 1-D binary and
multiclass targets:

- f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
  zero_division="warn"): per label F1 = 2·TP / (2·TP + FP + FN), counts weighted by sample_weight;
  where TP + FP + FN is 0 the score is zero_division ("warn" warns and gives 0.0; 0.0, 1.0, or nan,
  which the averages skip). Labels are the sorted union of y_true and y_pred unless `labels` is given.
  average="binary" scores pos_label alone and needs binary targets; micro pools the counts; macro is the
  mean over labels; weighted weights each label by its support (all supports zero: the plain mean, as
  scikit-learn's _nanaverage does); None gives the per-label scores.
- accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None): the (weighted) fraction, or
  with normalize=False the (weighted) count, of exact matches.

This is current scikit-learn's arithmetic (F from the counts; `_nanaverage`). scikit-learn 1.2
computed F from precision and recall, which can differ in the last bit, and returned 0 for a weighted
average whose labels have no support at all.

Both return Python floats; average=None returns a list of floats where scikit-learn returns an ndarray
(indexing, len() and iteration behave the same; arithmetic on the whole array does not). Errors
scikit-learn raises for 1-D inputs (mismatched lengths, continuous targets, a multiclass target with
average="binary", a pos_label that is not a label, average="samples", an invalid parameter value) are
raised as the ValueError scikit-learn raises, with its message. What this stand-in does not do (multilabel indicator matrices,
column vectors or other nested targets, targets mixing strings and numbers, empty targets, labels=[])
raises an ImportError that names it and says to install scikit-learn.
"""

import math
import numbers
import warnings

AVERAGES = ("binary", "micro", "macro", "weighted", "samples", None)


class UndefinedMetricWarning(UserWarning):
    """scikit-learn's warning for a score set by zero_division="warn"."""


def unsupported(what):
    return ImportError(
        f"sklearn.metrics: {what} is not supported by assay's stand-in for scikit-learn; install "
        "scikit-learn in the interpreter assay uses (--python PATH or ASSAY_PYTHON)",
        name="sklearn",
    )


def _plain(value):
    # numpy scalars (when numpy is installed and scikit-learn is not) compare and hash as Python values.
    if type(value).__module__ == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        return value.item()
    return value


def _column(y, name):
    if getattr(y, "ndim", 1) != 1 and type(y).__module__.startswith("numpy"):
        raise unsupported(f"a {y.ndim}-dimensional {name} (multilabel indicator or multioutput targets)")
    if isinstance(y, (str, bytes, dict, set, frozenset)) or not hasattr(y, "__iter__"):
        raise unsupported(f"{name} of type {type(y).__name__}")
    values = [_plain(item) for item in y]
    for item in values:
        if isinstance(item, bool) or isinstance(item, (str, numbers.Real)):
            continue
        raise unsupported(f"a {name} holding {type(item).__name__} values (multilabel or other nested targets)")
    return values


def _target_type(values):
    """type_of_target for a 1-D column: binary, multiclass or continuous."""
    numeric = [item for item in values if not isinstance(item, str)]
    if numeric and len(numeric) != len(values):
        raise unsupported("targets mixing strings and numbers")
    for item in numeric:
        if isinstance(item, float):
            if not math.isfinite(item):
                raise ValueError("Input contains NaN, infinity or a value too large for dtype('float64').")
            if item != int(item):
                return "continuous"
    return "binary" if len(set(values)) <= 2 else "multiclass"


def _check_lengths(*columns):
    lengths = [len(column) for column in columns if column is not None]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths}")


def _sorted_labels(values):
    if any(isinstance(item, str) for item in values) and not all(isinstance(item, str) for item in values):
        raise unsupported("y_true and y_pred mixing strings and numbers")
    return sorted(set(values))


def _check_targets(y_true, y_pred, sample_weight=None):
    true, pred = _column(y_true, "y_true"), _column(y_pred, "y_pred")
    weights = None
    if sample_weight is not None:
        weights = [float(_plain(weight)) for weight in sample_weight]
    _check_lengths(true, pred, weights)
    types = {_target_type(true), _target_type(pred)}
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {_target_type(true)} and {_target_type(pred)} targets"
        )
    kind = types.pop()
    if kind == "continuous":
        raise ValueError("continuous is not supported")
    if kind == "binary" and len(_sorted_labels(true + pred)) > 2:
        kind = "multiclass"
    return kind, true, pred, weights


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    _, true, pred, weights = _check_targets(y_true, y_pred, sample_weight)
    if not isinstance(normalize, bool):
        raise ValueError(f"The 'normalize' parameter of accuracy_score must be an instance of 'bool'. Got {normalize!r} instead.")
    if weights is None:
        weights = [1.0] * len(true)
    hits = sum(weight for weight, t, p in zip(weights, true, pred) if t == p)
    if not normalize:
        return float(hits)
    total = sum(weights)
    if not true:
        raise unsupported("empty y_true and y_pred")
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(hits / total)


def _zero_division_value(zero_division):
    if zero_division == "warn" and isinstance(zero_division, str):
        return 0.0
    if isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        if zero_division in (0, 1):
            return float(zero_division)
        if math.isnan(zero_division):
            return math.nan
    raise ValueError(
        "The 'zero_division' parameter of f1_score must be a str among {'warn'} or a float among "
        f"{{0.0, 1.0, nan}}. Got {zero_division!r} instead."
    )


def _nanaverage(values, weights=None):
    kept = [(value, 1.0 if weights is None else weights[index]) for index, value in enumerate(values)
            if not math.isnan(value)]
    if not kept:
        return math.nan
    total = sum(weight for _, weight in kept)
    if total == 0:
        # scikit-learn's _nanaverage: when every weight is zero, the weights are ignored.
        return sum(value for value, _ in kept) / len(kept)
    return sum(value * weight for value, weight in kept) / total


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    if not (average is None or (isinstance(average, str) and average in AVERAGES)):
        raise ValueError(
            "The 'average' parameter of f1_score must be a str among {'binary', 'macro', 'micro', 'samples', "
            f"'weighted'}} or None. Got {average!r} instead."
        )
    undefined = _zero_division_value(zero_division)
    kind, true, pred, weights = _check_targets(y_true, y_pred, sample_weight)
    if not true:
        raise unsupported("empty y_true and y_pred")
    if average == "samples":
        raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
    pos_label = _plain(pos_label)
    if average == "binary":
        if kind != "binary":
            raise ValueError(
                f"Target is {kind} but average='binary'. Please choose another average setting, one of "
                "[None, 'micro', 'macro', 'weighted']."
            )
        present = _sorted_labels(true + pred)
        if len(present) >= 2 and pos_label not in present:
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")
        labels = [pos_label]
    elif labels is None:
        labels = _sorted_labels(true + pred)
    else:
        labels = [_plain(label) for label in labels]
        if not labels:
            raise unsupported("labels=[]")
    if weights is None:
        weights = [1.0] * len(true)

    index = {label: position for position, label in enumerate(labels)}
    true_positive = [0.0] * len(labels)
    predicted = [0.0] * len(labels)
    support = [0.0] * len(labels)
    for weight, t, p in zip(weights, true, pred):
        if t in index:
            support[index[t]] += weight
        if p in index:
            predicted[index[p]] += weight
            if t == p:
                true_positive[index[p]] += weight
    if average == "micro":
        true_positive, predicted, support = [sum(true_positive)], [sum(predicted)], [sum(support)]

    scores = []
    for tp, pred_sum, true_sum in zip(true_positive, predicted, support):
        denominator = true_sum + pred_sum
        scores.append(2 * tp / denominator if denominator else undefined)
    if zero_division == "warn" and any(true_sum + pred_sum == 0 for pred_sum, true_sum in zip(predicted, support)):
        where = "due to" if len(scores) == 1 else "in labels with"
        warnings.warn(
            f"F-score is ill-defined and being set to 0.0 {where} no true nor predicted samples. "
            "Use `zero_division` parameter to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=2,
        )

    if average is None:
        return [float(score) for score in scores]
    return float(_nanaverage(scores, support if average == "weighted" else None))
