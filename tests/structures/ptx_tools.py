"""What the structures' PTX checks (tests/structures/*/check_ptx.py)
share: running the compiler, splitting a PTX file into its entries, and
counting checks that print one line each."""
import os
import re
import subprocess
import sys


def run(cmd, cwd=None):
    """stdout and stderr of cmd; exits with FAIL when it fails."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, cwd=cwd)
    if r.returncode != 0:
        sys.exit("FAIL: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    return r.stdout + r.stderr


def compile_ptx(clang, plugin, cuda, source, ptx, extra=()):
    """Compiles source's device half for sm_90 to the PTX file ptx, with
    PASTA's plugin and clang's flags for it (extra: more flags, before the
    source)."""
    run([clang, "-x", "cuda", "--cuda-path=" + cuda, "--offload-arch=sm_90",
         "-Wno-unknown-cuda-version", "-O2", "-gline-tables-only",
         "--cuda-device-only", "-S", "-fpass-plugin=" + plugin, *extra,
         source, "-o", ptx])


def compile_from_argv(name, extra=()):
    """A check_ptx.py's usage, CLANG PLUGIN CUDA SOURCE WORKDIR: compiles
    SOURCE (compile_ptx) to WORKDIR/name.ptx and returns (the PTX's text,
    its path, CUDA's path)."""
    clang, plugin, cuda, source, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    ptx = os.path.join(work, name + ".ptx")
    compile_ptx(clang, plugin, cuda, source, ptx, extra)
    with open(ptx) as f:
        return f.read(), ptx, cuda


def _definitions(ptx, header):
    """The text of each definition of a PTX file whose first line matches
    header (group 1: its name), by name."""
    out, name = {}, None
    for line in ptx.splitlines():
        m = re.match(header, line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name is not None:
            out[name].append(line)
            if line == "}":
                name = None
    return {k: "\n".join(v) for k, v in out.items()}


def ptx_entries(ptx):
    """The text of each .entry of a PTX file, by name."""
    return _definitions(ptx, r"\.visible \.entry ([\w$]+)\($")


def ptx_functions(ptx):
    """The text of each .entry and .func definition of a PTX file, by
    name."""
    return _definitions(ptx, r"(?:\.visible )?\.(?:entry|func)\s+"
                             r"(?:\(.*\)\s+)?([\w$]+)\($")


class Checks:
    """check(ok, what) prints "ok" or "FAIL" and what; failed counts the
    FAILs."""

    def __init__(self):
        self.failed = 0

    def __call__(self, ok, what):
        print("%s %s" % ("ok  " if ok else "FAIL", what))
        self.failed += not ok
        return ok


def loop_lines(entry):
    """The lines of an entry's blocks that the code generator marks as in a
    loop (`// in Loop: Header=...` on the block's label)."""
    lines, inside = [], False
    for line in entry.splitlines():
        if re.match(r"^(\$L__BB\w+:|// %bb\.\d+:)", line):
            inside = "in Loop:" in line
        elif inside:
            lines.append(line)
    return lines


def ptxas_resources(log):
    """ptxas -v: (registers, stack frame bytes) of each entry."""
    out, name, stack = {}, None, 0
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '([\w$]+)'", line)
        if m:
            name, stack = m.group(1), 0
        m = re.search(r"(\d+) bytes stack frame", line)
        if m:
            stack = int(m.group(1))
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            out[name] = (int(m.group(1)), stack)
            name = None
    return out
