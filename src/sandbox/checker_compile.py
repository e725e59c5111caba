# Compiles the checker (its source on stdin) to marshalled bytecode with the interpreter that will run it
# (marshal is version-specific). Runs on the host, on trusted input: checker.py (check.ts).
import marshal, sys
sys.stdout.buffer.write(marshal.dumps(compile(sys.stdin.read(), "<assay checker>", "exec")))
