# The checker's first code in the sandbox (passed as `python -c`, see bubblewrap.ts): reads the checker's
# bytecode, whose length is argv[1], from stdin and runs it; the checker's job follows on stdin.
import marshal, os, sys
size = int(sys.argv[1])
code = bytearray()
while len(code) < size:
    chunk = os.read(0, size - len(code))
    if not chunk:
        raise SystemExit("assay: the checker's bytecode was cut short")
    code += chunk
exec(marshal.loads(bytes(code)), {"__name__": "__checker__", "__builtins__": __builtins__})
