"""A PASTA profile as pandas DataFrames.

    import pasta_profile
    p = pasta_profile.read("pasta-lud-1234.json")
    p.kernels        # one row per kernel: counts, GPU time (estimated
                     # from the timed launches under sampled timing), bound
    p.lines          # one row per (file, line, function, kind)
    p.launches       # the runtime's launch table, one row per kernel
    p.call_paths     # one row per (kernel, host call path)
    p.allocations    # allocations per kind, copies per direction
    p.working_set    # one row per launch tracked in working-set mode
    p.working_set_stats   # touched / footprint bytes: min, mean, ... max

Nested counts are flattened into columns named "<group>.<key>"
("load_bytes.global", "flops.f32"); each frame of counts also has the
totals "bytes" (load, store and atomic bytes of every space),
"global_bytes" and "flops" (every precision). The divergence figures of a
PASTA_DIVERGENCE=1 run become "divergence.<figure>" columns
("divergence.sectors", "divergence.bank_conflicts"; NaN for an entry
without them), and a merged profile's spreads "ranks.<count>.<field>"
("ranks.launches.imbalance"); excess_sectors() and excess_bytes() derive
the waste of the access pattern. Fields a profile gains later become
columns the same way, with no change here. Counts are exact integers: a
column holding a value above 2^63 - 1 is kept as Python ints (dtype
object).

docs/profile-format.md describes the JSON; docs/user-guide.md ("Profiles
in pandas") has the worked example. Needs Debian's python3 and
python3-pandas only.
"""
import json

import pandas as pd

__all__ = ["Profile", "read", "compare", "top_lines", "excess_sectors",
           "excess_bytes"]

SCHEMA = "pasta-profile"
VERSIONS = (1, 2, 3, 4, 5, 6)
SPACES = ("global", "shared", "local", "constant", "generic")
BYTE_GROUPS = ("load_bytes", "store_bytes", "atomic_bytes")
SECTOR_BYTES = 32


class ProfileError(ValueError):
    """The file is not a PASTA profile this module reads."""


def _flatten(entry, prefix=""):
    """{"flops": {"f32": 2}} -> {"flops.f32": 2}; lists are left out."""
    row = {}
    for key, value in entry.items():
        name = prefix + key
        if isinstance(value, dict):
            row.update(_flatten(value, name + "."))
        elif not isinstance(value, list):
            row[name] = value
    return row


def _frame(rows, columns=None):
    df = pd.DataFrame(rows, columns=columns)
    # Counts above 2^63 - 1 do not fit int64: keep such columns as Python
    # ints rather than let them become floats.
    for col in df.columns:
        values = [v for v in df[col] if isinstance(v, int)
                  and not isinstance(v, bool)]
        if values and max(values) > 2**63 - 1:
            df[col] = pd.Series(list(df[col]), dtype=object, index=df.index)
    return df


def _add_totals(df):
    """bytes, global_bytes and flops from the flattened count columns."""
    if df.empty:
        return df
    byte_cols = [c for c in df.columns
                 if c.split(".")[0] in BYTE_GROUPS and "." in c]
    glob = [c for c in byte_cols if c.endswith(".global")]
    flop_cols = [c for c in df.columns if c.startswith("flops.")]
    df["bytes"] = df[byte_cols].sum(axis=1) if byte_cols else 0
    df["global_bytes"] = df[glob].sum(axis=1) if glob else 0
    df["flops"] = df[flop_cols].sum(axis=1) if flop_cols else 0
    return df


def _kernel_time(k):
    """(GPU time in ns, estimated?) of a launches.kernels entry: the timed
    launches' total when every launch that ran was timed, else (sampled
    timing) their mean times the launches that ran, as the report does.
    (None, False) when it was never timed."""
    if not k or not k.get("timed"):
        return None, False
    ran = k["launches"] - k.get("failed", 0)
    total = k["gpu_time_ns"]["total"]
    if k["timed"] >= ran:
        return total, False
    return int(total / k["timed"] * ran + 0.5), True


class Profile:
    """One profile's tables. `doc` is the parsed JSON, as it was read."""

    def __init__(self, doc, path=None):
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            raise ProfileError("%s: not a PASTA profile (no \"schema\": "
                               "\"%s\")" % (path, SCHEMA))
        if doc.get("version") not in VERSIONS:
            raise ProfileError("%s: profile version %r; this module reads "
                               "versions %s" % (path, doc.get("version"),
                                                VERSIONS))
        self.doc, self.path = doc, path
        self.program = doc.get("program")
        # What did not run and is not listed (version 5; 0 before).
        self.omitted = dict({"device_functions": 0, "host_functions": 0,
                             "lines": 0}, **(doc.get("omitted") or {}))
        # What the counts miss: the plugin's not-counted warnings, which a
        # build's -w hides (a new field; none before).
        self.uncounted = list(doc.get("uncounted") or [])
        self.kernels = self._kernels()
        self.functions = self._functions()
        self.lines = _add_totals(_frame(
            [_flatten(l) for l in doc.get("lines", [])]))
        self.launches = self._launches()
        self.call_paths = self._call_paths()
        self.allocations = self._allocations()
        self.working_set, self.working_set_stats = self._working_set()

    def _kernels(self):
        rows = [_flatten(k) for k in self.doc.get("kernels", [])]
        df = _add_totals(_frame(rows))
        if df.empty:
            return df
        launch = {k.get("mangled"): k for k in
                  (self.doc.get("launches") or {}).get("kernels", [])}
        bw = {k.get("name"): k for k in
              (self.doc.get("bandwidth") or {}).get("kernels", [])}
        times = [_kernel_time(launch.get(m)) for m in df["mangled"]]
        df["gpu_time_ns"] = [t for t, _ in times]
        df["gpu_time_estimated"] = [e for _, e in times]
        df["bound"] = [(bw.get(n) or {}).get("bound") for n in df["name"]]
        df["time_ns_per_launch"] = [(bw.get(n) or {}).get("time_ns")
                                    for n in df["name"]]
        return df

    def _functions(self):
        rows = []
        for key, kind in (("kernels", "kernel"),
                          ("device_functions", "device"),
                          ("host_functions", "host")):
            for f in self.doc.get(key, []):
                row = _flatten(f)
                row["kind"] = kind
                rows.append(row)
        return _add_totals(_frame(rows))

    def _launches(self):
        section = self.doc.get("launches") or {}
        return _frame([_flatten(k) for k in section.get("kernels", [])])

    def _call_paths(self):
        rows = []
        for k in (self.doc.get("launches") or {}).get("kernels", []):
            for path in k.get("call_paths") or []:
                frames = path.get("frames") or []
                rows.append({
                    "kernel": k.get("name"), "mangled": k.get("mangled"),
                    "launches": path.get("launches"),
                    "depth": len(frames),
                    "path": " <- ".join(
                        "%s (%s:%s)" % (f.get("function") or "??",
                                        f.get("file") or "?",
                                        f.get("line") or 0)
                        for f in frames)})
        return _frame(rows, ["kernel", "mangled", "launches", "depth", "path"])

    def _allocations(self):
        memory = self.doc.get("memory") or {}
        rows = []
        for what in ("allocations", "copies"):
            for kind, v in (memory.get(what) or {}).items():
                rows.append({"what": what, "kind": kind,
                             "count": v.get("count"), "bytes": v.get("bytes")})
        return _frame(rows, ["what", "kind", "count", "bytes"])

    def _working_set(self):
        ws = self.doc.get("working_set") or {}
        per = _frame([_flatten(r) for r in ws.get("per_launch", [])])
        stats = _frame([
            dict(measure=m, **{k: (ws.get(m) or {}).get(k)
                               for k in ("min", "mean", "median", "p90",
                                         "max")})
            for m in ("touched_bytes", "footprint_bytes") if ws.get(m)],
            ["measure", "min", "mean", "median", "p90", "max"])
        return per, stats


def read(path):
    """Reads the profile at `path` (ProfileError if it is not one)."""
    with open(path) as f:
        try:
            doc = json.load(f)
        except json.JSONDecodeError as e:
            raise ProfileError("%s: not JSON: %s" % (path, e)) from None
    return Profile(doc, path)


def top_lines(lines, by="bytes", n=10):
    """The n lines with the largest `by` (a column of Profile.lines)."""
    return lines.sort_values(by, ascending=False, kind="stable").head(n)


def _column(lines, name):
    """A column named `name`, or "<anything>.name" (a nested field)."""
    for col in lines.columns:
        if col == name or col.endswith("." + name):
            return lines[col]
    return None


def excess_sectors(frame):
    """Sectors beyond the fewest that could hold the bytes moved, per row
    of Profile.lines or Profile.kernels: sectors - ideal sectors (never
    below 0), as the reports show them. Needs the divergence figures (a
    profile of a PASTA_DIVERGENCE=1 run); raises ProfileError without
    them. NaN for a row without figures."""
    sectors = _column(frame, "sectors")
    ideal = _column(frame, "ideal_sectors")
    if sectors is None or ideal is None:
        raise ProfileError("the profile has no divergence figures (sectors, "
                           "ideal_sectors): run with PASTA_DIVERGENCE=1")
    return (sectors - ideal).clip(lower=0)


def excess_bytes(lines):
    """Bytes moved beyond what the requests need, per line: excess sectors
    x 32, the uncoalesced traffic Nsight Compute reports (ProfileError
    without the divergence figures)."""
    return excess_sectors(lines) * SECTOR_BYTES


def compare(before, after, what="kernels", columns=None):
    """Two profiles' kernels (matched by mangled name) or lines (by file,
    line, function and kind) side by side: <column>_before, _after and
    _change (after - before) for each of `columns` (default: launches or
    executions, bytes, flops). Entries of one profile only count 0 in the
    other."""
    keys = {"kernels": ["mangled", "name"],
            "lines": ["file", "line", "function", "kind"]}[what]
    if columns is None:
        columns = ("launches" if what == "kernels" else "executions",
                   "bytes", "flops")
    a = getattr(before, what)[keys + list(columns)]
    b = getattr(after, what)[keys + list(columns)]
    on = keys[:1] if what == "kernels" else keys
    m = a.merge(b, on=on, how="outer", suffixes=("_before", "_after"))
    if what == "kernels":
        m["name"] = m["name_after"].fillna(m["name_before"])
        m = m.drop(columns=["name_before", "name_after"])
    for c in columns:
        for side in ("_before", "_after"):
            m[c + side] = m[c + side].fillna(0).astype("int64")
        m[c + "_change"] = m[c + "_after"] - m[c + "_before"]
    return m
