# Prints the folders where this interpreter keeps third-party packages (site- and dist-packages), one a
# line: the sandbox covers those under its read-only mounts with empty ones (bubblewrap.ts, thirdPartyDirs).
# Runs on the host, as `python -I -S site_dirs.py`.
import site
import sys
import sysconfig

version = "python%d.%d" % sys.version_info[:2]
folders = site.getsitepackages() + [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
folders += [
    "/usr/lib/python3/dist-packages",
    "/usr/local/lib/%s/dist-packages" % version,
    "/usr/lib/%s/site-packages" % version,
    "/usr/local/lib/%s/site-packages" % version,
    "/usr/lib/%s/dist-packages" % version,
]
for folder in folders:
    print(folder)
