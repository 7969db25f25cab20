#!/usr/bin/env python3
"""The worked example of docs/user-guide.md ("Profiles in pandas").

usage: PYTHONPATH=python python3 python/example.py PROFILE [AFTER]

Prints the hottest lines of PROFILE by bytes moved, by excess sectors when
the profile has the divergence figures (a PASTA_DIVERGENCE=1 run), and its
kernels; given a second profile, the kernels and lines that changed most
between the two runs.
"""
import sys

import pandas as pd

import pasta_profile


def main(argv):
    pd.set_option("display.width", 160)
    pd.set_option("display.max_colwidth", 50)
    p = pasta_profile.read(argv[1])
    print("Top lines by bytes:")
    print(pasta_profile.top_lines(p.lines, "bytes", 5)[
        ["file", "line", "function", "executions", "bytes", "flops"]]
        .to_string(index=False))
    try:
        lines = p.lines.assign(
            excess_sectors=pasta_profile.excess_sectors(p.lines),
            excess_bytes=pasta_profile.excess_bytes(p.lines))
        print("\nTop lines by excess sectors (uncoalesced accesses):")
        print(pasta_profile.top_lines(lines, "excess_sectors", 5)[
            ["file", "line", "excess_sectors", "divergence.sectors",
             "excess_bytes"]].to_string(index=False))
    except pasta_profile.ProfileError as e:
        print("\n(no excess sectors: %s)" % e)
    print("\nKernels:")
    print(p.kernels[["name", "launches", "bytes", "flops", "gpu_time_ns",
                     "bound"]].to_string(index=False))
    if len(argv) > 2:
        q = pasta_profile.read(argv[2])
        k = pasta_profile.compare(p, q, "kernels")
        print("\nKernels, %s -> %s:" % (argv[1], argv[2]))
        print(k[["name", "launches_before", "launches_after", "bytes_change",
                 "flops_change"]].to_string(index=False))
        l = pasta_profile.compare(p, q, "lines")
        l = l.reindex(l["bytes_change"].abs()
                      .sort_values(ascending=False).index).head(5)
        print("\nLines whose bytes changed most:")
        print(l[["file", "line", "bytes_before", "bytes_after",
                 "bytes_change"]].to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
