"""assay's Python worker: runs lm-eval task code (the `utils.py` beside a task YAML) for assay.

assay itself is TypeScript. This package (started by worker.py beside it) is the Python it ships, for one
job: call the Python functions a task names with `!function module.name`, the way lm-eval calls them, in
the user's own interpreter and with the user's rights. It never runs model output.

Protocol (frames.py): one request at a time on fd 3, one response per request on fd 4 (both opened by
assay), each a frame of a 4-byte big-endian length followed by that many bytes of UTF-8 JSON. The first
frame the worker writes is an unsolicited `hello` describing the interpreter (main.py). stdin is
/dev/null, so task code that reads it gets end-of-file at once; anything task code prints goes to stderr.
Neither can touch the frames.

Values (codec.py): JSON, plus objects tagged with a `"$py"` key for what JSON cannot carry: tuples,
non-finite floats, integers beyond 2**53, and handles. A handle names a Python object kept here (a set a
process_results returned, a processed split) so that it can be passed back by reference and reach the
task's own aggregation unchanged.

Task code: binding.py imports the modules a run names (task_modules.py, which also finds every file of
task code a module imports, for the task's hash) and keeps the functions; operations.py calls them;
failures.py turns what they raise into records that name the task file and line.

When the interpreter cannot import `datasets`, `lm_eval` or `sklearn`, small stand-ins are installed
(stand_ins.py: datasets_stand_in.py, a list-backed `datasets.Dataset`; lm_eval_stand_in.py, the `lm_eval`
helpers task modules import most; sklearn_stand_in.py, f1_score and accuracy_score). Anything they lack
raises an ImportError that names it. A task module that imports a third-party package the interpreter
lacks is imported again with placeholders for it (missing.py, placeholders.py), and only the functions
that cannot reach a placeholder are bound.

Modules import each other in one direction: codec, failures, task_files at the bottom; then frames,
missing, the stand-ins, task_modules, binding, operations; main on top.
"""
