"""assay's Python worker, the script assay starts (src/python/worker-process.ts): the code is the
assay_worker package beside this file (its __init__.py describes it)."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# Task code must not see this folder on sys.path (python puts a script's folder first). The package is
# imported from it (first, so no other assay_worker can win), then the folder leaves sys.path again; the
# package's own modules find each other through its __path__.
if sys.path and os.path.abspath(sys.path[0] or ".") == _HERE:
    sys.path.pop(0)
sys.path.insert(0, _HERE)
try:
    from assay_worker.main import main
finally:
    sys.path.remove(_HERE)

if __name__ == "__main__":
    main()
