"""The stand-in for `datasets`, installed only when the interpreter cannot import it: a list-backed
`Dataset` with the parts lm-eval task code calls."""

import random

from .missing import missing_message, strict_module


class Value:
    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"Value(dtype='{self.dtype}')"

    def __eq__(self, other):
        return isinstance(other, Value) and other.dtype == self.dtype


def _feature_of(value):
    if isinstance(value, bool):
        return Value("bool")
    if isinstance(value, int):
        return Value("int64")
    if isinstance(value, float):
        return Value("float64")
    if isinstance(value, str):
        return Value("string")
    if isinstance(value, (list, tuple)):
        return [_feature_of(value[0]) if value else Value("null")]
    if isinstance(value, dict):
        return {key: _feature_of(item) for key, item in value.items()}
    return Value("null")


def _pcg64_permutation(seed, n):
    """numpy's `default_rng(seed).permutation(n)` without numpy: SeedSequence, PCG64 and Generator.shuffle
    re-implemented from numpy's published algorithms, so `Dataset.shuffle(seed)` orders rows as the real
    library does (it shuffles with that permutation)."""
    mask32 = 0xFFFFFFFF
    entropy = []
    value = int(seed)
    while True:
        entropy.append(value & mask32)
        value >>= 32
        if value == 0:
            break
    hash_const = [0x43B0D7E5]

    def hashmix(value):
        value = (value ^ hash_const[0]) & mask32
        hash_const[0] = (hash_const[0] * 0x931E8875) & mask32
        value = (value * hash_const[0]) & mask32
        return value ^ (value >> 16)

    def mix(x, y):
        result = (0xCA01F9DD * x - 0x4973F715 * y) & mask32
        return result ^ (result >> 16)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(4)]
    for source in range(4):
        for target in range(4):
            if source != target:
                pool[target] = mix(pool[target], hashmix(pool[source]))
    for source in range(4, len(entropy)):
        for target in range(4):
            pool[target] = mix(pool[target], hashmix(entropy[source]))
    words = []
    mult = 0x8B51F9DD
    for index in range(8):
        data = pool[index % 4] ^ mult
        mult = (mult * 0x58F38DED) & mask32
        data = (data * mult) & mask32
        words.append(data ^ (data >> 16))
    state64 = [words[i] | (words[i + 1] << 32) for i in range(0, 8, 2)]
    mask128 = (1 << 128) - 1
    multiplier = 0x2360ED051FC65DA44385DF649FCCF645
    initstate = (state64[0] << 64) | state64[1]
    increment = (((state64[2] << 64) | state64[3]) << 1 | 1) & mask128
    state = [((0 * multiplier + increment) & mask128)]
    state[0] = (state[0] + initstate) & mask128
    state[0] = (state[0] * multiplier + increment) & mask128
    buffered = []

    def next64():
        state[0] = (state[0] * multiplier + increment) & mask128
        current = state[0]
        xored = ((current >> 64) ^ current) & 0xFFFFFFFFFFFFFFFF
        rotation = current >> 122
        return ((xored >> rotation) | (xored << ((-rotation) & 63))) & 0xFFFFFFFFFFFFFFFF

    def next32():
        if buffered:
            return buffered.pop()
        value = next64()
        buffered.append(value >> 32)
        return value & mask32

    order = list(range(n))
    for i in range(n - 1, 0, -1):
        mask = i
        for shift in (1, 2, 4, 8, 16, 32):
            mask |= mask >> shift
        draw = next32 if i <= mask32 else next64
        while True:
            j = draw() & mask
            if j <= i:
                break
        order[i], order[j] = order[j], order[i]
    return order


class Dataset:
    """A stand-in for `datasets.Dataset` over a list of row dicts, following the real library's
    documented behaviour for the methods lm-eval's task code calls. Rows are plain dicts."""

    def __init__(self, rows, columns=None):
        self._rows = rows
        if columns is None:
            columns = list(rows[0].keys()) if rows else []
        self._columns = list(columns)

    # construction
    @classmethod
    def from_list(cls, mapping, features=None, info=None, split=None):
        # The real from_list takes its columns from the first row; other rows get None for a missing key.
        if not mapping:
            return cls([], [])
        columns = list(mapping[0].keys())
        keys = mapping[0].keys()
        rows = [
            dict(row) if row.keys() == keys else {column: row.get(column) for column in columns}
            for row in mapping
        ]
        return cls(rows, columns)

    @classmethod
    def from_dict(cls, mapping, features=None, info=None, split=None):
        columns = list(mapping.keys())
        lengths = {len(values) for values in mapping.values()}
        if len(lengths) > 1:
            raise ValueError("from_dict: all columns must have the same length")
        count = lengths.pop() if lengths else 0
        return cls([{column: mapping[column][i] for column in columns} for i in range(count)], columns)

    # shape
    def __len__(self):
        return len(self._rows)

    @property
    def num_rows(self):
        return len(self._rows)

    @property
    def column_names(self):
        return list(self._columns)

    @property
    def features(self):
        first = self._rows[0] if self._rows else {}
        return {column: _feature_of(first.get(column)) for column in self._columns}

    @property
    def shape(self):
        return (len(self._rows), len(self._columns))

    def __iter__(self):
        for row in self._rows:
            yield dict(row)

    def __repr__(self):
        return f"Dataset({{\n    features: {self._columns},\n    num_rows: {len(self._rows)}\n}})"

    def __getitem__(self, key):
        if isinstance(key, str):
            if key not in self._columns:
                raise KeyError(key)
            return [row.get(key) for row in self._rows]
        if isinstance(key, int):
            return dict(self._rows[key])
        if isinstance(key, slice):
            return self._batch(self._rows[key])
        if isinstance(key, (list, tuple, range)):
            return self._batch([self._rows[index] for index in key])
        raise TypeError(f"Dataset indices must be int, str, slice or a list of ints, not {type(key).__name__}")

    def _batch(self, rows):
        return {column: [row.get(column) for row in rows] for column in self._columns}

    def to_list(self):
        return [dict(row) for row in self._rows]

    def to_dict(self):
        return self._batch(self._rows)

    # transforms: each returns a new Dataset
    def map(self, function=None, with_indices=False, with_rank=False, input_columns=None, batched=False,
            batch_size=1000, drop_last_batch=False, remove_columns=None, fn_kwargs=None, **_ignored):
        function = function or (lambda *args, **kwargs: None)
        fn_kwargs = fn_kwargs or {}
        remove = _names(remove_columns)
        for name in remove:
            if name not in self._columns:
                raise ValueError(f"Column to remove {[name]} not in the dataset. Current columns in the dataset: {self._columns}")
        columns = _names(input_columns) if input_columns is not None else None
        out_rows = []
        if not batched:
            for index, row in enumerate(self._rows):
                args = [dict(row)] if columns is None else [row.get(column) for column in columns]
                if with_indices:
                    args.append(index)
                result = _call_on_row(function, args, fn_kwargs, index)
                new = {key: value for key, value in row.items() if key not in remove} if remove else dict(row)
                if result is not None:
                    if not isinstance(result, dict):
                        raise TypeError(f"Provided `function` which is applied to all elements of table returns a variable of type {type(result)}. Make sure provided `function` returns a variable of type `dict` (or None)")
                    new.update(result)
                out_rows.append(new)
        else:
            size = len(self._rows) if batch_size is None or batch_size <= 0 else batch_size
            for start in range(0, len(self._rows), size):
                rows = self._rows[start:start + size]
                if drop_last_batch and len(rows) < size:
                    break
                batch = self._batch(rows)
                args = [batch] if columns is None else [batch[column] for column in columns]
                if with_indices:
                    args.append(list(range(start, start + len(rows))))
                result = _call_on_row(function, args, fn_kwargs, start)
                kept = {key: values for key, values in batch.items() if key not in remove}
                if result is not None:
                    lengths = {len(values) for values in result.values()}
                    count = lengths.pop() if len(lengths) == 1 else None
                    if count is None and result:
                        raise ValueError("map: the function returned columns of different lengths")
                    if count is not None and count != len(rows):
                        stale = [key for key in kept if key not in result]
                        if stale:
                            raise ValueError(f"Column lengths mismatch: columns {stale} have length {len(rows)} while the function returned {count} rows; remove them with remove_columns")
                        kept = {}
                    kept.update(result)
                count = len(next(iter(kept.values()))) if kept else 0
                names = list(kept)
                out_rows.extend({name: kept[name][i] for name in names} for i in range(count))
        order = [column for column in self._columns if column not in remove]
        extra = []
        for row in out_rows[:1]:
            extra = [key for key in row if key not in order]
        return Dataset(out_rows, [column for column in order if not out_rows or column in out_rows[0]] + extra)

    def filter(self, function=None, with_indices=False, input_columns=None, batched=False, batch_size=1000,
               fn_kwargs=None, **_ignored):
        fn_kwargs = fn_kwargs or {}
        columns = _names(input_columns) if input_columns is not None else None
        kept = []
        if not batched:
            for index, row in enumerate(self._rows):
                args = [dict(row)] if columns is None else [row.get(column) for column in columns]
                if with_indices:
                    args.append(index)
                if _call_on_row(function, args, fn_kwargs, index):
                    kept.append(row)
        else:
            size = len(self._rows) if batch_size is None or batch_size <= 0 else batch_size
            for start in range(0, len(self._rows), size):
                rows = self._rows[start:start + size]
                batch = self._batch(rows)
                args = [batch] if columns is None else [batch[column] for column in columns]
                if with_indices:
                    args.append(list(range(start, start + len(rows))))
                mask = _call_on_row(function, args, fn_kwargs, start)
                kept.extend(row for row, keep_row in zip(rows, mask) if keep_row)
        return Dataset(kept, self._columns)

    def select(self, indices, **_ignored):
        return Dataset([self._rows[int(index)] for index in indices], self._columns)

    def remove_columns(self, column_names, **_ignored):
        names = _names(column_names)
        for name in names:
            if name not in self._columns:
                raise ValueError(f"Column name {name} not in the dataset. Current columns in the dataset: {self._columns}")
        return Dataset([{k: v for k, v in row.items() if k not in names} for row in self._rows],
                       [column for column in self._columns if column not in names])

    def select_columns(self, column_names, **_ignored):
        names = _names(column_names)
        for name in names:
            if name not in self._columns:
                raise ValueError(f"Column name {name} not in the dataset. Current columns in the dataset: {self._columns}")
        return Dataset([{name: row.get(name) for name in names} for row in self._rows], names)

    def rename_column(self, original_column_name, new_column_name, **_ignored):
        return self.rename_columns({original_column_name: new_column_name})

    def rename_columns(self, column_mapping, **_ignored):
        for name in column_mapping:
            if name not in self._columns:
                raise ValueError(f"Original column name {name} not in the dataset. Current columns in the dataset: {self._columns}")
        for new in column_mapping.values():
            if new in self._columns and new not in column_mapping:
                raise ValueError(f"New column name {new} already in the dataset. Please choose a column name which is not already in the dataset. Current columns in the dataset: {self._columns}")
        columns = [column_mapping.get(column, column) for column in self._columns]
        return Dataset([{column_mapping.get(k, k): v for k, v in row.items()} for row in self._rows], columns)

    def add_column(self, name, column, **_ignored):
        column = list(column)
        if name in self._columns:
            raise ValueError(f"Column {name} already exists in the dataset")
        if len(column) != len(self._rows):
            raise ValueError(f"add_column: the column has {len(column)} values for {len(self._rows)} rows")
        return Dataset([{**row, name: value} for row, value in zip(self._rows, column)], self._columns + [name])

    def shuffle(self, seed=None, generator=None, **_ignored):
        if generator is not None and hasattr(generator, "permutation"):
            order = [int(index) for index in generator.permutation(len(self._rows))]
        else:
            if seed is None:
                seed = random.SystemRandom().getrandbits(64)
            try:
                import numpy

                order = [int(index) for index in numpy.random.default_rng(seed).permutation(len(self._rows))]
            except ImportError:
                order = _pcg64_permutation(seed, len(self._rows))
        return self.select(order)

    def sort(self, column_names, reverse=False, null_placement="at_end", **_ignored):
        names = _names(column_names)
        reverses = reverse if isinstance(reverse, (list, tuple)) else [reverse] * len(names)
        order = list(range(len(self._rows)))
        # A stable sort per key, last key first; nulls go to the end (or the start) as the real library does.
        for name, descending in reversed(list(zip(names, reverses))):
            if name not in self._columns:
                raise ValueError(f"Column '{name}' not found in the dataset. Please provide a column selected in: {self._columns}")
            present = [i for i in order if self._rows[i].get(name) is not None]
            missing = [i for i in order if self._rows[i].get(name) is None]
            present.sort(key=lambda i: self._rows[i][name], reverse=descending)
            order = present + missing if null_placement == "at_end" else missing + present
        return self.select(order)

    def unique(self, column):
        seen = {}
        for value in self[column]:
            seen.setdefault(value, None)
        return list(seen)

    def flatten_indices(self, **_ignored):
        return self

    def with_format(self, type=None, **_ignored):
        if type not in (None, "python"):
            raise ValueError(f"assay's datasets stand-in supports only the python format, not {type!r}")
        return self


def _names(value):
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _call_on_row(function, args, kwargs, index):
    try:
        return function(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - sys.exit in a row function too
        # Lets the bridge say which row failed (the real library does not know either).
        if not hasattr(error, "_assay_row"):
            error._assay_row = index
        raise


def build_datasets(module):
    class DatasetDict(dict):
        def map(self, *args, **kwargs):
            return DatasetDict({name: split.map(*args, **kwargs) for name, split in self.items()})

        def filter(self, *args, **kwargs):
            return DatasetDict({name: split.filter(*args, **kwargs) for name, split in self.items()})

    class Split:
        TRAIN = "train"
        VALIDATION = "validation"
        TEST = "test"

    def concatenate_datasets(dsets, **_ignored):
        rows = [row for dataset in dsets for row in dataset._rows]
        return Dataset(rows, dsets[0]._columns if dsets else [])

    def needs_real(name):
        def missing(*args, **kwargs):
            raise ImportError(missing_message(f"datasets.{name}"), name=f"datasets.{name}")

        missing.__name__ = name
        return missing

    module.__version__ = "0+assay.stand-in"
    module.Dataset = Dataset
    module.DatasetDict = DatasetDict
    module.Value = Value
    module.Features = dict
    module.Split = Split
    module.concatenate_datasets = concatenate_datasets
    for name in ("load_dataset", "load_from_disk", "get_dataset_config_names", "get_dataset_infos",
                 "get_dataset_split_names", "load_metric"):
        setattr(module, name, needs_real(name))
    strict_module(module, [name for name in vars(module) if not name.startswith("_")])
