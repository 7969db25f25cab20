"""The checks both MPI checkers share (tests/mpi/check_mpi.py on the CPU,
tests/gpu/check_mpi_ranks.py on the 2-GPU machine): one line per check,
per-rank figures recomputed from the values the source fixes, and the
closing 'N passed, N failed' line."""

RESULTS = []


def check(ok, what, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""))


def close(a, b):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-8 * max(abs(a), abs(b), 1.0)


def spread(values):
    """min, mean, max, imbalance, the first rank holding the max."""
    mean = sum(values) / len(values)
    top = max(values)
    return {"min": min(values), "mean": mean, "max": top,
            "imbalance": top / mean if mean else None,
            "max_rank": values.index(top)}


def check_spread(got, values, what):
    want = spread(values)
    ok = (got is not None and got["min"] == want["min"] and got["max"] == want["max"]
          and close(got["mean"], want["mean"]) and close(got["imbalance"], want["imbalance"])
          and got["max_rank"] == want["max_rank"])
    check(ok, what, f"got {got}, want {want}")


def finish():
    """Prints the summary line; the exit status: 1 if any check failed (or none ran)."""
    passed = sum(RESULTS)
    print(f"{passed} passed, {len(RESULTS) - passed} failed")
    return 0 if RESULTS and all(RESULTS) else 1
