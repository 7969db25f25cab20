#!/usr/bin/env python3
"""The [bandwidth] tables from scripts/gpu_bandwidth.sh's outputs.

  bandwidth_table.py DIR GPU PROGRAM...
reads DIR/<program>.json (PASTA, PASTA_SAMPLE=2) and, when present,
DIR/<program>.ncu.csv (ncu: DRAM bytes read/written, gpu__time_duration per
launch), and prints Markdown: the device's peaks; per kernel PASTA's time
per launch (of plain launches), requested and unique bandwidth, FLOP/s,
intensity, fraction of peak, bound-by; then PASTA's requested bandwidth
against ncu's DRAM bandwidth ((read + write) / duration, mean over the
kernel's launches) with their ratio.
"""
import csv
import io
import json
import os
import sys

from compare_ncu import base_name  # noqa: E402 (scripts/ is on sys.path)


def ncu_kernels(path):
    """kernel name -> (dram bytes, seconds, launches), summed over launches."""
    if not os.path.exists(path):
        return {}
    text = open(path).read()
    start = text.find('"ID"')
    if start < 0:
        return {}
    per = {}
    for row in csv.DictReader(io.StringIO(text[start:])):
        name = base_name(row["Kernel Name"])
        launch = (name, row["ID"])
        unit = row["Metric Unit"]
        v = float(row["Metric Value"].replace(",", ""))
        scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9,
                 "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9,
                 "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1,
                 "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}.get(unit)
        if scale is None:
            raise SystemExit(f"bandwidth_table: unknown unit {unit!r} in {path}")
        d = per.setdefault(launch, {})
        d[row["Metric Name"]] = v * scale
    out = {}
    for (name, _), d in per.items():
        b = d.get("dram__bytes_read.sum", 0) + d.get("dram__bytes_write.sum", 0)
        t = d.get("gpu__time_duration.sum", 0)
        acc = out.setdefault(name, [0.0, 0.0, 0])
        acc[0] += b
        acc[1] += t
        acc[2] += 1
    return out


def ai(k):
    v = k["intensity"]
    return "-" if v is None else f"{v:.3g}"


def short(name):
    return base_name(name)


def fmt(v, scale=1e9, digits=1):
    return "-" if v is None else f"{v / scale:,.{digits}f}"


def main():
    d, gpu, progs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows, cmp_rows, peaks = [], [], None
    for p in progs:
        try:
            prof = json.load(open(os.path.join(d, p + ".json")))
        except (OSError, ValueError) as e:
            rows.append(f"| {p} | error: {e} |||||||||")
            continue
        bw = prof.get("bandwidth", {})
        peaks = peaks or bw.get("device")
        ncu = ncu_kernels(os.path.join(d, p + ".ncu.csv"))
        for k in bw.get("kernels", []):
            t = k["time_ns"]
            frac = k["bandwidth_fraction"]
            rows.append(
                f"| {p} | {k['name']} | {k['launches']} | {k['counted']} | "
                f"{fmt(t, 1e3)} ({k['time_source']}) | {fmt(k['bandwidth'])} | "
                f"{fmt(k['unique_bandwidth'])} | {fmt(k['flop_rate'])} | "
                f"{ai(k)} | "
                f"{'-' if frac is None else f'{100 * frac:.0f}%'} | {k['bound']} |")
            n = ncu.get(short(k["name"]))
            if n and n[1] > 0 and k["bandwidth"]:
                dram = n[0] / n[1]
                cmp_rows.append(
                    f"| {p} | {k['name']} | {fmt(k['bandwidth'])} | {fmt(dram)} | "
                    f"{k['bandwidth'] / dram:.3f} | {fmt(t, 1e3)} | {fmt(n[1] / n[2], 1e-6)} | "
                    f"{fmt(k['bytes'], 1e6)} | {fmt(n[0] / n[2], 1e6)} |")
    print(f"GPU: {gpu}\n")
    if peaks:
        fl = peaks.get("flops", {})
        print(f"Peaks (device {peaks['index']}, compute capability "
              f"{peaks['compute_capability']}, {peaks['sms']} SMs): memory "
              f"{fmt(peaks['bandwidth_measured'])} GB/s measured (D2D copy), "
              f"{fmt(peaks['bandwidth_theoretical'])} GB/s theoretical; "
              f"f32 {fmt(fl.get('f32'), 1e12, 1)} TFLOP/s, f64 {fmt(fl.get('f64'), 1e12, 1)} TFLOP/s\n")
    print("| program | kernel | launches | counted | time/launch us (source) | requested GB/s | "
          "unique GB/s | GFLOP/s | FLOP/B | % peak BW | bound |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if cmp_rows:
        print("\nAgainst ncu (DRAM bytes read + written over gpu__time_duration, "
              "mean per launch, `--clock-control none`):\n")
        print("| program | kernel | PASTA requested GB/s | ncu DRAM GB/s | ratio | "
              "PASTA us/launch | ncu us/launch | PASTA MB/launch | ncu DRAM MB/launch |")
        print("|---|---|---|---|---|---|---|---|---|")
        print("\n".join(cmp_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
