"""The requests the worker answers besides `load` (binding.py): each takes the decoded request and returns
the reply's value, or Parts for a long list."""

import random

from .binding import functions, op_load
from .codec import dump, dump_rows, encode, handles, keep, loglikelihood_results, with_refs
from .datasets_stand_in import Dataset
from .failures import BatchError, all_finite, error_record, returned_error
from .frames import PART_ITEMS, Parts


def as_rows(value):
    if isinstance(value, Dataset):
        rows = value._rows  # the stand-in's own rows: no copy needed, they are sent and kept as they are
    elif hasattr(value, "to_list") and not isinstance(value, list):
        rows = value.to_list()
    else:
        rows = list(value)
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise TypeError(f"expected a list of dicts (docs), item {index} is a {type(row).__name__}")
    return rows


def make_dataset(rows):
    from datasets import Dataset as DatasetClass

    if DatasetClass is Dataset and rows and all(row.keys() == rows[0].keys() for row in rows):
        # Freshly decoded rows with the same columns: what from_list would build, without copying them.
        return Dataset(rows)
    return DatasetClass.from_list(rows)


def op_process_docs(request):
    fn = functions[request["fn"]]
    rows = as_rows(fn(make_dataset(request["docs"])))
    return _rows_reply(rows)


def op_samples(request):
    rows = as_rows(functions[request["fn"]]())
    return _rows_reply(rows)


def _rows_reply(rows):
    chunks = (dump_rows(rows[start : start + PART_ITEMS]) for start in range(0, len(rows), PART_ITEMS))
    return Parts({"handle": keep(rows)}, "docs", chunks)


def op_apply(request):
    # Either docs (values and references) with each call's positions in them, or a handle whose first
    # `count` rows each call reads (a split the worker produced, in order). The values of every call go
    # in one list, in parts as they are computed; `counts` splits it back into calls.
    if "handle" in request:
        docs = handles[request["handle"]]
    else:
        docs = with_refs(request["docs"], request.get("refs"))
    calls = [
        (functions[call["fn"]], range(call["count"]) if "count" in call else call["items"])
        for call in request["calls"]
    ]

    def chunks():
        values = []
        for number, (fn, positions) in enumerate(calls):
            for position in positions:
                try:
                    values.append(encode(fn(docs[position])))
                except BaseException as error:  # noqa: BLE001 - sys.exit in task code too
                    if isinstance(error, KeyboardInterrupt):
                        raise
                    raise BatchError(error, position, number)
                if len(values) == PART_ITEMS:
                    yield dump(values)
                    values = []
        if values:
            yield dump(values)

    return Parts({"counts": [len(positions) for _, positions in calls]}, "values", chunks())


def _stored_results(values, errors):
    # Failed items are None here and listed in `errors`: one bad doc becomes one errored sample.
    return {"store": keep(values), "values": [encode(value) for value in values], "errors": errors}


def op_process_results(request):
    fn = functions[request["fn"]]
    values, errors = [], {}
    docs = with_refs(request["docs"], request.get("refs"))
    convert = loglikelihood_results if request.get("loglikelihood") else None
    for position, (doc, results) in enumerate(zip(docs, request["results"])):
        try:
            if convert:
                results = convert(results)
            value = fn(doc, results)
            if not isinstance(value, dict):
                raise TypeError(f"process_results must return a dict of metric values, got {type(value).__name__}")
        except BaseException as error:  # noqa: BLE001 - sys.exit and os._exit in task code too
            if isinstance(error, KeyboardInterrupt):
                raise
            errors[str(position)] = error_record(error, position)
            value = None
        else:
            # NaN or inf would reach the aggregation, far from here: this doc is the error.
            failure = None if all_finite(value) else returned_error(fn, value, position)
            if failure:
                errors[str(position)] = failure
                value = None
        values.append(value)
    return _stored_results(values, errors)


def op_metric(request):
    """A metric_list entry's function on generated answers, as lm-eval's generate_until scoring calls it."""
    fn = functions[request["fn"]]
    name = request["name"]
    kwargs = request.get("kwargs") or {}
    values, errors = [], {}

    def score(gold, result):
        try:
            return fn(references=[gold], predictions=[result], **kwargs)
        except TypeError:
            return fn([gold, result])

    for position, (gold, result, multiple) in enumerate(request["items"]):
        try:
            if multiple:
                # Several gold answers: 1.0 when any of them scores, as lm-eval's multiple_target rule.
                scores = []
                for option in gold if isinstance(gold, list) else [gold]:
                    value = score(option, result)
                    scores.append(value[name] if isinstance(value, dict) else value)
                value = 1.0 if any(scores) else 0.0
            else:
                value = score(gold, result)
            value = dict(value) if isinstance(value, dict) else {name: value}
        except BaseException as error:  # noqa: BLE001 - sys.exit and os._exit in task code too
            if isinstance(error, KeyboardInterrupt):
                raise
            errors[str(position)] = error_record(error, position)
            values.append(None)
            continue
        failure = returned_error(fn, value, position, (name,))
        if failure:
            errors[str(position)] = failure
            value = None
        values.append(value)
    return _stored_results(values, errors)


def op_filter(request):
    fn = functions[request["fn"]]
    resps, docs = request["resps"], request["docs"]
    if request["mode"] == "custom":
        out = fn(resps, docs)
    else:
        out = fn(**(request.get("kwargs") or {})).apply(resps, docs)
    out = list(out)
    if len(out) != len(resps):
        raise ValueError(f"the filter returned {len(out)} values for {len(resps)} responses")
    return [encode(value) for value in out]


def _item(ref):
    # A metric value by reference: (store, position, key) from an earlier process_results / metric call.
    if isinstance(ref, list):
        return handles[ref[0]][ref[1]][ref[2]]
    return ref["v"]


def op_aggregate(request):
    fn = functions[request["fn"]]
    items = [_item(ref) for ref in request["items"]]
    value = fn(items)
    replicates = []
    iterations = request.get("iters") or 0
    failed = None
    if iterations > 0 and len(items) >= 2:
        # lm-eval's bootstrap_stderr: chunks of min(1000, iters) replicates, chunk i drawn by Random(i).
        # A resample the function cannot aggregate (no doc of some class) leaves the stderr unknown; the
        # value above is still the task's score, as in lm-eval, which never bootstraps a function.
        chunk = min(1000, iterations)
        try:
            for index in range(iterations // chunk):
                rnd = random.Random(index)
                for _ in range(chunk):
                    replicates.append(float(fn(rnd.choices(items, k=len(items)))))
        except Exception as error:  # noqa: BLE001 - any exception of task code on a resample
            failed = {"resample": len(replicates) + 1, "error": error_record(error)}
            replicates = []
    reply = {"value": encode(value), "replicates": [encode(float(r)) for r in replicates]}
    if failed is not None:
        reply["bootstrap_error"] = failed
    return reply


def op_group_aggregate(request):
    fn = functions[request["fn"]]
    return encode(fn(request["values"], request["sizes"], request["weight_by_size"]))


def op_release(request):
    for number in request["handles"]:
        handles.pop(number, None)
    return None


def op_call(request):
    return encode(functions[request["fn"]](*request.get("args", [])))


OPS = {
    "load": op_load,
    "process_docs": op_process_docs,
    "samples": op_samples,
    "apply": op_apply,
    "process_results": op_process_results,
    "metric": op_metric,
    "filter": op_filter,
    "aggregate": op_aggregate,
    "group_aggregate": op_group_aggregate,
    "release": op_release,
    "call": op_call,
}
