"""Values crossing the bridge: JSON, plus objects tagged with a `"$py"` key for what JSON cannot carry
(tuples, non-finite floats, integers beyond 2**53, handles). The TypeScript side is src/python/codec.ts.
`handles` holds the Python objects the other side refers to by number."""

import json
import math

handles = {}
_next_handle = [1]
MAX_SAFE = 2**53 - 1


def keep(value):
    number = _next_handle[0]
    _next_handle[0] += 1
    handles[number] = value
    return number


def _float_tag(value):
    return {"$py": "float", "v": "nan" if value != value else ("inf" if value > 0 else "-inf")}


def log_form(value):
    """What lm-eval's sample log writes for a value json cannot encode (utils.handle_non_serializable)."""
    if isinstance(value, (set, frozenset)):
        return [encode(item) for item in value]
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return encode(value.item())
    return str(value)


def handle_tag(value):
    return {"$py": "handle", "id": keep(value), "str": str(value), "json": log_form(value)}


def encode(value):
    """A Python value as tagged JSON data. Tuples stay tuples, numpy scalars become Python numbers."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is float:
        return value if math.isfinite(value) else _float_tag(value)
    if kind is int:
        # Beyond 2**53 a JS number would round it: it stays here, and crosses as its digits.
        return value if -MAX_SAFE <= value <= MAX_SAFE else handle_tag(value)
    if kind is list:
        return [encode(item) for item in value]
    if kind is tuple:
        return {"$py": "tuple", "v": [encode(item) for item in value]}
    if kind is dict:
        if "$py" not in value and all(type(key) is str for key in value):
            return {key: encode(item) for key, item in value.items()}
        return handle_tag(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, float):
        return encode(float(value))
    if isinstance(value, int):
        return encode(int(value))
    if isinstance(value, str):
        return str(value)
    if kind.__module__ == "numpy":
        # numpy scalars and arrays: their Python values (np.float64 is a float subclass, caught above).
        if hasattr(value, "tolist"):
            return encode(value.tolist())
    if isinstance(value, tuple):
        return {"$py": "tuple", "v": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    return handle_tag(value)


def _decode_tag(obj):
    kind = obj.get("$py")
    if kind is None:
        return obj
    if kind == "tuple":
        return tuple(obj["v"])
    if kind == "float":
        return float(obj["v"])
    if kind == "int":
        return int(obj["v"])
    if kind == "ref":
        target = handles[obj["h"]]
        return target[obj["i"]] if "i" in obj else target
    return obj


def decode(payload):
    if b'"$py"' not in payload:
        return json.loads(payload)
    return json.loads(payload, object_hook=_decode_tag)


# Without the circular-reference check the C encoder is several times faster on large splits; a cycle
# still fails (RecursionError), and is reported like any other exception.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False, separators=(",", ":"))


def dump(value):
    return _ENCODER.encode(value)


def dump_rows(rows):
    """Docs are plain JSON almost always: try the C encoder first, walk the values only when it fails."""
    try:
        return _ENCODER.encode(rows)
    except (TypeError, ValueError, RecursionError):
        return dump(encode(rows))


def with_refs(values, refs):
    # Docs the worker already holds arrive by reference: for each handle, the positions in `values`
    # (None there) and the indices into the handle's list.
    for number, positions, indices in refs or ():
        rows = handles[number]
        for position, index in zip(positions, indices):
            values[position] = rows[index]
    return values


def loglikelihood_results(results):
    # Log-likelihood answers arrive as [logprob, is_greedy] pairs; lm-eval passes (float, bool) tuples.
    return [(float(logprob), bool(greedy)) for logprob, greedy in results]
