"""Which files are task code: those in the folders of the task modules loaded, and in the task trees
(`.../lm_eval/tasks`) they belong to."""

import os

# The task trees' roots (the folder `lm_eval/tasks` of each), in the order they were met.
tasks_roots = []
# Folders whose files are task code: the folders of the modules loaded here, and the task trees.
task_dirs = set()


def is_task_file(filename):
    if not filename:
        return False
    return os.path.dirname(filename) in task_dirs or any(filename.startswith(root + os.sep) for root in tasks_roots)
