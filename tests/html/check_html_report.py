#!/usr/bin/env python3
"""The HTML report (issue [source-view]) in a real browser.

Each group renders a page with pasta-report (or takes one PASTA_HTML=1
wrote), opens it in headless Chromium (--dump-dom: the DOM after the page's
script ran), and checks the rendered DOM against values this script
computes from the profile JSON itself, never from the page:

  report PASTA_REPORT PROFILE SOURCE_ROOT WORKDIR
      the kernel table (launches, bytes, global bytes, FLOPs, special, GPU
      time, FLOP/B, bound by), every counted source line (its columns and
      its text, read here from SOURCE_ROOT), a note for each file that
      cannot be found, the call paths, the working-set statistics, sorting
      by a column (a script the test adds clicks the headers), and no
      errors (the page's error box, and Chromium's console log).
  diff PASTA_REPORT BEFORE AFTER SOURCE_ROOT WORKDIR
      the --diff page: each kernel's before, after and change.
  escape PASTA_REPORT PROFILE WORKDIR
      names and paths holding markup stay text: no element of theirs.
  page HTML PROFILE SOURCE_ROOT
      a page written by the runtime (PASTA_HTML=1), checked as `report`.
  divergence PASTA_REPORT PROFILE FIXED_PROFILE SOURCE_ROOT WORKDIR
      a divergence run's page, checked as `report`, and its divergence
      figures: the Divergence table's kernels, each line's divergence
      cells (the profile's figures summed per source line, derived ones
      computed here), the heat bar on every measure of its selector (a
      script the test adds picks each), and the --diff page of PROFILE
      and FIXED_PROFILE (the same program with its access patterns fixed).
  ranks PASTA_REPORT GEN_RANK_PROFILES WORKDIR
      three rank profiles written by scripts/gen_rank_profiles.py, merged
      by `pasta-report merge`: the merged page, checked as `report`, its
      balance table (min, mean, max, imbalance and the rank of the max of
      every function and of the heaviest lines) and each line's imbalance
      and max rank, all against the merged JSON's "ranks".
  errors PASTA_REPORT PROFILE WORKDIR
      bad input: one error line and a non-zero exit (no browser needed).

Without chromium, every group but `errors` prints "skipped: no chromium"
and exits 77 (ctest's skip code).
"""
import html.parser
import copy
import json
import os
import shutil
import subprocess
import sys

SPACES = ["global", "shared", "local", "constant", "generic"]
BYTE_GROUPS = ["load_bytes", "store_bytes", "atomic_bytes"]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
FAILED = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else ": " + detail))
    if not ok:
        FAILED.append(what)


# ---- The DOM, as Chromium left it -----------------------------------------

class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text()
                       for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def find_all(self, tag=None, **attrs):
        return [n for n in self.walk() if (tag is None or n.tag == tag) and
                all(n.attrs.get(k.replace("_", "-")) == v
                    for k, v in attrs.items())]

    def find(self, tag=None, **attrs):
        found = self.find_all(tag, **attrs)
        return found[0] if found else None


class Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(text):
    b = Builder()
    b.feed(text)
    return b.root


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def render(page, work, name):
    """The page's DOM after its scripts ran, and Chromium's console log."""
    log = os.path.join(work, name + ".chromium.log")
    with open(log, "w") as err:
        out = subprocess.run(
            # --no-sandbox: CI runs as root in a container; a container's
            # small /dev/shm is not enough for a page of this size.
            [chromium(), "--headless", "--disable-gpu", "--no-sandbox",
             "--disable-dev-shm-usage",
             "--enable-logging=stderr", "--v=0",
             "--user-data-dir=" + os.path.join(work, "chromium-profile"),
             "--virtual-time-budget=5000", "--dump-dom",
             "file://" + os.path.abspath(page)],
            stdout=subprocess.PIPE, stderr=err, text=True, timeout=120)
    dom = out.stdout
    with open(os.path.join(work, name + ".dom.html"), "w") as f:
        f.write(dom)
    return parse(dom), open(log, errors="replace").read()


def console_errors(log):
    """Console messages and CSP refusals Chromium logged for the page."""
    bad = []
    for line in log.splitlines():
        if ("CONSOLE" in line or "Refused to" in line or
                "Uncaught" in line):
            bad.append(line.strip())
    return bad


def check_clean(dom, log, what):
    box = dom.find(id="pasta-errors")
    check(what + ": the page's error box is there and empty",
          box is not None and box.text().strip() == "",
          box.text() if box else "no #pasta-errors")
    html_el = dom.find("html")
    check(what + ": report.js ran to its end",
          html_el is not None and html_el.attrs.get("data-script") == "ready",
          str(html_el.attrs if html_el else None))
    bad = console_errors(log)
    check(what + ": no console errors or CSP refusals", not bad,
          "; ".join(bad[:5]))


# ---- Values from the profile JSON -----------------------------------------

def u64(v):
    return int(v) if v is not None else 0


def bytes_of(entry, spaces=SPACES):
    return sum(u64(entry[g][s]) for g in BYTE_GROUPS for s in spaces)


def flops_of(entry):
    return sum(u64(v) for v in entry["flops"].values())


def kernel_time(t):
    """A kernel's GPU time as docs/profile-format.md says to estimate it:
    the timed launches' total when all that ran were timed, else their mean
    times the launches that ran (sampled timing). None: never timed."""
    if not t or not t["timed"]:
        return None
    ran = t["launches"] - t["failed"]
    total = t["gpu_time_ns"]["total"]
    return total if t["timed"] >= ran else int(total / t["timed"] * ran + 0.5)


def cell(row, col):
    c = row.find("td", data_col=col)
    return None if c is None else c.attrs.get("data-v")


def check_kernels(dom, prof, what):
    table = dom.find("table", id="kernel-table")
    if not prof["kernels"]:
        check(what + ": no kernels, no kernel table", table is None)
        return
    check(what + ": kernel table", table is not None)
    if table is None:
        return
    rows = {r.attrs.get("data-kernel"): r
            for r in table.find("tbody").find_all("tr")}
    ran = [k for k in prof["kernels"] if k["launches"]]
    check(what + ": one row per kernel that ran",
          len(rows) == len(ran),
          "%d rows, %d kernels ran" % (len(rows), len(ran)))
    idle = len(prof["kernels"]) - len(ran)
    note = dom.find(id="kernels-not-run")
    check(what + ": kernels that never ran are counted, not listed",
          (note is not None and note.text().startswith("%d kernel" % idle))
          if idle else note is None, note.text() if note else "no note")
    launches = {k["mangled"]: k for k in
                (prof.get("launches") or {}).get("kernels", [])}
    bound = {k["name"]: k["bound"] for k in
             (prof.get("bandwidth") or {}).get("kernels", [])}
    for k in ran:
        row = rows.get(k["mangled"])
        name = k["name"][:60]
        if row is None:
            check("kernel %s: has a row" % name, False)
            continue
        expect = {
            "launches": k["launches"],
            "bytes": bytes_of(k),
            "global_bytes": bytes_of(k, ["global"]),
            "flops": flops_of(k),
            "special": k["special"],
        }
        got = {c: cell(row, c) for c in expect}
        check("kernel %s: counts" % name,
              all(got[c] == str(v) for c, v in expect.items()),
              "page %s, profile %s" % (got, expect))
        shown = row.find("td", data_col="launches").text().replace(",", "")
        check("kernel %s: launches shown" % name,
              shown == str(k["launches"]), shown)
        check("kernel %s: name shown" % name,
              row.find("td", data_col="kernel").text() == k["name"])
        t = kernel_time(launches.get(k["mangled"]))
        want_t = "" if t is None else str(t)
        check("kernel %s: GPU time" % name, cell(row, "time") == want_t,
              "page %r, profile %r" % (cell(row, "time"), want_t))
        ci = cell(row, "intensity")
        want_ci = k.get("compute_intensity")
        check("kernel %s: FLOP/B" % name,
              (want_ci is None and ci == "") or
              (want_ci is not None and ci != "" and
               abs(float(ci) - want_ci) <= 1e-6 * max(1.0, want_ci)),
              "page %r, profile %r" % (ci, want_ci))
        b = row.find("td", data_col="bound").text()
        check("kernel %s: bound by" % name, b == bound.get(k["name"], "-"),
              "page %r" % b)


def check_functions(dom, prof, what):
    """Device functions shared by kernels and host functions: their row's
    calls, bytes and FLOPs; only those that ran (the others counted), ranked
    by bytes + FLOPs; names clamped with the whole name on hover."""
    every = [("device", f) for f in prof.get("device_functions", [])] + \
        [("host", f) for f in prof.get("host_functions", [])]
    funcs = [(k, f) for k, f in every if f["calls"]]
    table = dom.find("table", id="function-table")
    check(what + ": function table iff there are functions",
          (table is not None) == bool(every))
    if table is None:
        return
    trs = table.find("tbody").find_all("tr")
    rows = {(r.find("td", data_col="kind").text(), r.attrs["data-function"]):
            r for r in trs}
    check(what + ": one row per function that ran", len(rows) == len(funcs),
          "%d rows, %d ran" % (len(rows), len(funcs)))
    idle = len(every) - len(funcs)
    note = dom.find(id="functions-not-run")
    check(what + ": the functions that never ran are counted",
          (note is not None and note.text().startswith("%d function" % idle))
          if idle else note is None, note.text() if note else "no note")
    costs = [int(cell(r, "bytes")) + int(cell(r, "flops")) for r in trs]
    check(what + ": functions ranked by bytes + FLOPs",
          costs == sorted(costs, reverse=True), str(costs))
    for kind, f in funcs:
        row = rows.get((kind, f["mangled"]))
        name = row and row.find("td", data_col="function").find("span")
        check("%s function %s: name clamped, whole on hover" % (kind, f["name"][:40]),
              name is not None and name.attrs.get("title") == f["name"] and
              name.text() == f["name"])
    for kind, f in funcs:
        row = rows.get((kind, f["mangled"]))
        want = {"calls": f["calls"], "bytes": bytes_of(f),
                "flops": flops_of(f), "special": f["special"]}
        got = row and {c: cell(row, c) for c in want}
        check("%s function %s: counts" % (kind, f["name"][:40]),
              got == {c: str(v) for c, v in want.items()},
              "page %s, profile %s" % (got, want))


def check_adapts(dom, prof, what):
    """The page holds the sections the profile has: a host-only profile
    gets no kernel, roofline, per-kernel or working-set section, no "global
    bytes" column, and the navigation links only to sections present."""
    links = [a.attrs.get("href", "") for a in dom.find("nav").find_all("a")]
    missing = [h for h in links if not h.startswith("#") or dom.find(id=h[1:]) is None]
    check(what + ": every navigation link has its section",
          bool(links) and not missing, str(missing))
    if prof["kernels"] or prof.get("device_functions"):
        return
    text = dom.text()
    check(what + ": host-only: no 'No kernels in this profile'",
          "No kernels in this profile" not in text)
    gone = [i for i in ("kernels", "kernel-details", "pictures", "working-set")
            if dom.find(id=i) is not None]
    check(what + ": host-only: no GPU sections", not gone, str(gone))
    heads = [th.text() for th in dom.find_all("th")]
    check(what + ": host-only: no global bytes column", "global bytes" not in heads,
          str(heads))


def line_sums(prof):
    """(file, line) -> summed columns, as the page should show them."""
    sums = {}
    for l in prof["lines"]:
        if l["file"] is None:
            continue
        s = sums.setdefault((l["file"], l["line"]), {
            "executions": 0, "flops": 0, "special": 0,
            **{sp: 0 for sp in SPACES}})
        s["executions"] += l["executions"]
        s["flops"] += flops_of(l)
        s["special"] += l["special"]
        for sp in SPACES:
            s[sp] += bytes_of(l, [sp])
    return sums


def find_source(path, roots):
    """Where the test itself finds `path`: under a root by its tails, then
    as recorded (the rule docs/user-guide.md states)."""
    parts = [p for p in path.split("/") if p]
    for root in roots:
        for i in range(len(parts)):
            cand = os.path.join(root, *parts[i:])
            if os.path.isfile(cand):
                return cand
    return path if os.path.isfile(path) else None


def check_lines(dom, prof, roots, what):
    sections = {s.attrs.get("data-file"): s
                for s in dom.find_all("section", **{"class": "source"})}
    sums = line_sums(prof)
    files = sorted({f for f, _ in sums})
    check(what + ": one section per source file",
          sorted(sections) == files, "%s vs %s" % (sorted(sections), files))
    checked = 0
    for f in files:
        sec = sections.get(f)
        if sec is None:
            continue
        rows = {r.attrs.get("id"): r for r in sec.find_all("tr")
                if r.attrs.get("id")}
        fid = sec.attrs["id"][1:]
        src = find_source(f, roots)
        missing = sec.find("p", **{"class": "missing"})
        if src is None:
            check("file %s: note that it is missing" % f, missing is not None)
        else:
            text = open(src, encoding="utf-8", errors="replace").read()
            lines = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            # The rule the user guide states: a file of more than 400 lines
            # shows the lines within 8 of a counted line, else all.
            counted = [n for ff, n in sums if ff == f and n >= 1]
            want = {n for n in range(1, len(lines) + 1)
                    if len(lines) <= 400 or
                    any(abs(n - c) <= 8 for c in counted)}
            shown = {int(i.split("-")[1]) for i in rows}
            check("file %s: found, %d of its %d lines shown" %
                  (f, len(want), len(lines)),
                  missing is None and want <= shown and
                  not {n for n in shown if 1 <= n <= len(lines)} - want,
                  "%d shown" % len(shown))
        for (ff, n), want in sorted(sums.items()):
            if ff != f:
                continue
            row = rows.get("L%s-%d" % (fid, n))
            if row is None:
                check("line %s:%d: has a row" % (f, n), False)
                continue
            got = {c: int(cell(row, c) or 0) for c in want
                   if row.find("td", data_col=c) is not None}
            # Columns of spaces no line uses are left out: they must be 0.
            ok = all(got.get(c, 0) == v for c, v in want.items())
            checked += 1
            if not ok:
                check("line %s:%d: columns" % (f, n), False,
                      "page %s, profile %s" % (got, want))
            if src is not None and 1 <= n <= len(lines):
                shown = row.find("td", **{"class": "src"}).text()
                if shown != lines[n - 1].rstrip("\r").replace("\x00", "?"):
                    check("line %s:%d: source text" % (f, n), False,
                          "%r vs %r" % (shown, lines[n - 1]))
    check(what + ": %d counted lines, all with the profile's values"
          % checked, checked == len(sums) and checked > 0)


def check_kernel_links(dom, prof, what):
    """Each kernel's part of the page links to its lines: every link goes
    to a row of the source view that is one of the kernel's lines in the
    profile, and a kernel with lines has such links."""
    rows = {}
    for sec in dom.find_all("section", **{"class": "source"}):
        for r in sec.find_all("tr"):
            if r.attrs.get("id"):
                rows[r.attrs["id"]] = (sec.attrs["data-file"],
                                       int(r.attrs["id"].split("-")[1]))
    bad, linked = [], 0
    for i, k in enumerate(prof["kernels"]):
        art = dom.find("article", id="k%d" % i)
        if not k["launches"]:
            if art is not None:
                bad.append(k["name"][:40] + ": never ran, has a part")
            continue
        own = {(l["file"], l["line"]) for l in prof["lines"]
               if l["function"] == k["name"] and l["file"]}
        table = art.find("table", **{"class": "kernel-lines"}) if art else None
        links = [a.attrs["href"][1:] for a in table.find_all("a")] \
            if table else []
        if own and not links:
            bad.append(k["name"][:40] + ": no links")
        for target in links:
            linked += 1
            if rows.get(target) not in own:
                bad.append("%s -> %s" % (k["name"][:40], target))
    check(what + ": %d links from kernels to their lines" % linked,
          not bad and linked > 0, "; ".join(bad[:4]))


def check_call_paths(dom, prof, what):
    kernels = (prof.get("launches") or {}).get("kernels", [])
    want = sum(len(k.get("call_paths") or []) for k in kernels)
    got = len(dom.find_all("ol", **{"class": "callpath"}))
    check(what + ": %d call paths" % want, got == want, "page has %d" % got)
    for k in kernels:
        for p in k.get("call_paths") or []:
            fr = p["frames"][0]
            if fr.get("function") and fr.get("file"):
                needle = "%s %s:%d" % (fr["function"], fr["file"], fr["line"])
                ok = any(li.text() == needle for li in dom.find_all("li"))
                check(what + ": frame %s" % needle[:70], ok)
                return


def check_working_set(dom, prof, what):
    ws = prof.get("working_set") or {}
    if not ws.get("enabled"):
        return
    table = dom.find("table", id="ws-stats")
    check(what + ": working-set table", table is not None)
    if table is None:
        return
    rows = table.find("tbody").find_all("tr")
    for row, key in zip(rows, ["touched_bytes", "footprint_bytes"]):
        st = ws[key]
        got = {c: cell(row, c) for c in ("min", "median", "p90", "max")}
        want = {c: str(st[c]) for c in got}
        check(what + ": working set %s" % key, got == want,
              "page %s, profile %s" % (got, want))
        mean = float(cell(row, "mean"))
        check(what + ": working set %s mean" % key,
              abs(mean - st["mean"]) <= 0.05 + 1e-9 * st["mean"],
              "%r vs %r" % (mean, st["mean"]))


SORT_SCRIPT = """<script>
window.addEventListener("load", function () {
  var t = document.getElementById("kernel-table");
  var out = [];
  function order() {
    return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
      return r.getAttribute("data-kernel");
    }).join("\\n");
  }
  for (var i = 0; i < t.tHead.rows[0].cells.length; ++i) {
    var th = t.tHead.rows[0].cells[i];
    th.click();
    out.push(th.textContent + "\\t" + order().split("\\n").join("|"));
    th.click();
    out.push(th.textContent + "\\t" + order().split("\\n").join("|"));
  }
  var pre = document.createElement("pre");
  pre.id = "sort-result";
  pre.textContent = out.join("\\n");
  document.body.appendChild(pre);
});
</script>"""


def check_sorting(page, prof, work, what):
    """Clicks the launches header (twice) of a copy of the page with a test
    script added, and compares the orders with the profile's."""
    text = open(page, encoding="utf-8").read()
    copy = os.path.join(work, "sort-test.html")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", SORT_SCRIPT + "</body>"))
    dom, log = render(copy, work, "sort-test")
    pre = dom.find(id="sort-result")
    check(what + ": sort script ran", pre is not None)
    if pre is None:
        return
    orders = {}
    for line in pre.text().strip().split("\n"):
        head, _, order = line.partition("\t")
        orders.setdefault(head.strip(), []).append(order.split("|"))
    ks = prof["kernels"]
    for col, key in (("launches", lambda k: k["launches"]),
                     ("FLOPs", lambda k: flops_of(k)),
                     ("bytes", lambda k: bytes_of(k))):
        got = orders.get(col)
        if not got:
            check(what + ": sorted by %s" % col, False, "no header")
            continue
        values = [key(next(k for k in ks if k["mangled"] == m))
                  for m in got[0]]
        check(what + ": first click on %s: largest first" % col,
              values == sorted(values, reverse=True), str(values))
        values = [key(next(k for k in ks if k["mangled"] == m))
                  for m in got[1]]
        check(what + ": second click on %s: smallest first" % col,
              values == sorted(values), str(values))
    names = orders.get("kernel")
    if names:
        shown = [next(k["name"] for k in ks if k["mangled"] == m).lower()
                 for m in names[0]]
        check(what + ": sorted by kernel name", shown == sorted(shown),
              str(shown[:4]))
    check_clean(dom, log, what + " (sorting)")


def check_page(page, prof_path, roots, work, what):
    prof = json.load(open(prof_path))
    dom, log = render(page, work, what)
    check_clean(dom, log, what)
    check_kernels(dom, prof, what)
    check_functions(dom, prof, what)
    check_adapts(dom, prof, what)
    check_lines(dom, prof, roots, what)
    check_call_paths(dom, prof, what)
    if prof["kernels"]:
        check_kernel_links(dom, prof, what)
    check_working_set(dom, prof, what)
    svg = dom.find("figure", id="roofline")
    if prof.get("bandwidth", {}).get("kernels"):
        check(what + ": roofline inline",
              svg is not None and svg.find("svg") is not None)
    check_hotness(dom, prof_path, what)
    if prof["kernels"]:
        check_sorting(page, prof, work, what)


def check_hotness(dom, prof_path, what):
    """The heat map of <profile>.hotness.csv: one cell per row (the
    fixtures' maps are small enough to have no binning)."""
    csv = prof_path[:-5] + ".hotness.csv"
    if not os.path.exists(csv):
        return
    rows = [l for l in open(csv).read().splitlines()[1:] if l]
    fig = dom.find("figure", id="hotness")
    cells = fig.find_all("rect", **{"class": "cell"}) if fig else []
    check(what + ": hotness map with %d cells" % len(rows),
          len(cells) == len(rows), "%d cells" % len(cells))
    total = sum(int(l.rsplit(",", 1)[1]) for l in rows)
    shown = sum(int(c.find("title").text().rsplit(": ", 1)[1].split()[0])
                for c in cells if c.find("title"))
    check(what + ": hotness accesses add up to the CSV's", shown == total,
          "%d vs %d" % (shown, total))


# ---- Divergence figures and per-rank spreads ------------------------------

DIV_KEYS = ["requests_global", "requests_shared", "requested_bytes",
            "distinct_bytes_global", "distinct_bytes_shared", "sectors",
            "ideal_sectors", "bank_conflicts", "branches",
            "divergent_branches", "warp_executions", "thread_executions"]


def div_columns(d, kernel=False):
    """The page's divergence columns of figures `d`, as docs/profile-format.md
    derives them; None where a ratio has no denominator."""
    def ratio(a, b, scale=1.0):
        return None if not d[b] else scale * d[a] / d[b]
    cols = {
        "requests_global": d["requests_global"],
        "requests_shared": d["requests_shared"],
        "distinct_bytes": d["distinct_bytes_global"] +
        d["distinct_bytes_shared"],
        "sectors": d["sectors"],
        "excess_sectors": max(0, d["sectors"] - d["ideal_sectors"]),
        "bank_conflicts": d["bank_conflicts"],
        "branches": d["branches"],
        "divergent_branches": d["divergent_branches"],
        "divergent_share": ratio("divergent_branches", "branches", 100.0),
        "lanes_per_instruction": ratio("thread_executions",
                                       "warp_executions"),
    }
    if kernel:
        cols["sectors_per_request"] = ratio("sectors", "requests_global")
    return cols


def same_value(page, want):
    """A data-v against an expected count (exact) or ratio (1e-9)."""
    if want is None:
        return page == ""
    if isinstance(want, int):
        return page == str(want)
    return page not in (None, "") and \
        abs(float(page) - want) <= 1e-9 * max(1.0, abs(want))


def div_sums(prof):
    """(file, line) -> the line's divergence figures summed over its
    entries, or None when no entry of it has any."""
    sums = {}
    for l in prof["lines"]:
        if l["file"] is None:
            continue
        key = (l["file"], l["line"])
        sums.setdefault(key, None)
        if l.get("divergence"):
            old = sums[key] or {k: 0 for k in DIV_KEYS}
            sums[key] = {k: old[k] + l["divergence"][k] for k in DIV_KEYS}
    return sums


def check_divergence_table(dom, prof, what):
    table = dom.find("table", id="divergence-table")
    check(what + ": divergence table", table is not None)
    if table is None:
        return
    rows = {r.attrs.get("data-function"): r
            for r in table.find("tbody").find_all("tr")}
    entries = [f for f in prof["kernels"] + prof["device_functions"]
               if f.get("divergence")]
    check(what + ": a divergence row per function with figures",
          sorted(rows) == sorted(f["mangled"] for f in entries),
          "%s" % sorted(rows))
    for f in entries:
        row = rows.get(f["mangled"])
        want = div_columns(f["divergence"], kernel=True)
        got = {c: cell(row, c) for c in want} if row else {}
        check("divergence of %s" % f["name"][:50],
              row is not None and
              all(same_value(got[c], v) for c, v in want.items()),
              "page %s, profile %s" % (got, want))


def source_rows(dom):
    """(file, line) -> the source view's row of that counted line."""
    rows = {}
    for sec in dom.find_all("section", **{"class": "source"}):
        for r in sec.find_all("tr", **{"class": "hit"}):
            rows[(sec.attrs["data-file"], int(r.attrs["id"].split("-")[1]))] = r
    return rows


def check_divergence_lines(dom, prof, what):
    rows = source_rows(dom)
    sums = div_sums(prof)
    bad, checked = [], 0
    for key, d in sums.items():
        row = rows.get(key)
        if row is None:
            bad.append("%s:%d: no row" % key)
            continue
        want = div_columns(d) if d else {c: None for c in div_columns(
            {k: 0 for k in DIV_KEYS})}
        got = {c: cell(row, c) for c in want}
        checked += 1
        if not all(same_value(got[c], v) for c, v in want.items()):
            bad.append("%s:%d: page %s, profile %s" % (key + (got, want)))
    check(what + ": divergence cells of %d lines" % checked,
          not bad and checked == len(sums) and checked > 0, "; ".join(bad[:3]))


# The bar's measures, in the selector's order: (name, value of a source
# line from its entries and its summed divergence figures or None).
HEAT = [("bytes + FLOPs",
         lambda ls, d: sum(bytes_of(l) + flops_of(l) for l in ls)),
        ("excess sectors",
         lambda ls, d: max(0, d["sectors"] - d["ideal_sectors"]) if d else 0),
        ("bank conflicts", lambda ls, d: d["bank_conflicts"] if d else 0),
        ("divergent branches",
         lambda ls, d: d["divergent_branches"] if d else 0)]


def heat_permille(prof):
    """Per measure, (file, line) -> the bar's width in tenths of a percent:
    the line's value against the hottest line's."""
    divs = div_sums(prof)
    lines = {}
    for l in prof["lines"]:
        if l["file"] is not None:
            lines.setdefault((l["file"], l["line"]), []).append(l)
    permille = []
    for _, measure in HEAT:
        value = {k: measure(ls, divs[k]) for k, ls in lines.items()}
        top = max(value.values())
        permille.append({k: int(v / top * 1000 + 0.5) if v else 0
                         for k, v in value.items()})
    return permille


def page_width(permille):
    """The width the page writes: 12.3%, 100.0%."""
    return "%d.%d%%" % (permille // 10, permille % 10)


def script_width(permille):
    """The width report.js sets, as the DOM gives it back: 12.3%, 100%."""
    text = str(permille / 10)
    return (text[:-2] if text.endswith(".0") else text) + "%"


HEAT_SCRIPT = """<script>
window.addEventListener("load", function () {
  var select = document.getElementById("heat-measure");
  var out = ["start\\t" + select.value];
  for (var h = 0; h < select.options.length; ++h) {
    select.value = String(h);
    select.dispatchEvent(new Event("change"));
    Array.prototype.forEach.call(document.querySelectorAll("tr.hit"),
      function (tr) {
        out.push(h + "\\t" + tr.id + "\\t" +
                 tr.querySelector("td.heat span").style.width);
      });
  }
  var pre = document.createElement("pre");
  pre.id = "heat-result";
  pre.textContent = out.join("\\n");
  document.body.appendChild(pre);
});
</script>"""


def check_heat(page, dom, prof, work, what):
    """The bar starts on the first divergence measure any line has, and
    the selector switches every bar to each measure's widths."""
    permille = heat_permille(prof)
    start = next((h for h in range(1, len(HEAT))
                  if any(permille[h].values())), 0)
    rows = source_rows(dom)
    select = dom.find("select", id="heat-measure")
    options = [o.text() for o in select.find_all("option")] if select else []
    check(what + ": heat measures to choose from",
          options == [name for name, _ in HEAT], str(options))
    wrong = [k for k, r in rows.items()
             if r.find("td", **{"class": "heat"}).find("span")
             .attrs.get("style") != "width:" + page_width(permille[start][k])]
    check(what + ": the bar starts on %s" % HEAT[start][0], not wrong,
          str(wrong[:3]))
    text = open(page, encoding="utf-8").read()
    copy = os.path.join(work, "heat-test.html")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", HEAT_SCRIPT + "</body>"))
    hdom, log = render(copy, work, "heat-test")
    pre = hdom.find(id="heat-result")
    check(what + ": heat script ran", pre is not None)
    if pre is None:
        return
    got = pre.text().strip().split("\n")
    check(what + ": the selector starts on %s" % HEAT[start][0],
          got[0] == "start\t%d" % start, got[0])
    ids = {r.attrs["id"]: k for k, r in rows.items()}
    bad = []
    for line in got[1:]:
        h, rid, width = line.split("\t")
        want = script_width(permille[int(h)][ids[rid]])
        if width != want:
            bad.append("%s %s: %s, want %s" % (HEAT[int(h)][0], rid, width,
                                               want))
    check(what + ": every bar on every measure (%d)" % (len(got) - 1),
          not bad and len(got) - 1 == len(HEAT) * len(rows), "; ".join(bad[:3]))
    check_clean(hdom, log, what + " (heat)")


def check_divergence_diff(report, before, after, root, work):
    page = os.path.join(work, "div-diff.html")
    r = run([report, "html", "--diff", before, after, "-o", page,
             "--source-root", root])
    check("divergence diff: exits 0", r.returncode == 0, r.stderr)
    dom, log = render(page, work, "div-diff")
    check_clean(dom, log, "divergence diff")
    b, a = json.load(open(before)), json.load(open(after))
    figures = {"sectors": lambda d: d["sectors"],
               "excess_sectors":
               lambda d: max(0, d["sectors"] - d["ideal_sectors"]),
               "bank_conflicts": lambda d: d["bank_conflicts"],
               "divergent_branches": lambda d: d["divergent_branches"]}
    zero = {k: 0 for k in DIV_KEYS}
    rows = {r.attrs.get("data-kernel"): r
            for r in dom.find("table", id="kernel-table").find_all("tr")}
    for k in a["kernels"]:
        kb = next(x for x in b["kernels"] if x["mangled"] == k["mangled"])
        row = rows.get(k["mangled"])
        for col, fn in figures.items():
            want = (fn(kb.get("divergence") or zero),
                    fn(k.get("divergence") or zero))
            want += (want[1] - want[0],)
            got = row and tuple(int(cell(row, "%s_%s" % (col, s)))
                                for s in ("before", "after", "change"))
            check("divergence diff %s: %s" % (k["name"][:40], col),
                  got == want, "page %s, profiles %s" % (got, want))
    # Lines whose figures changed, though their bytes did not, are listed.
    db, da = div_sums(b), div_sums(a)
    changed = sorted(key for key in set(db) | set(da)
                     if any(fn(db.get(key) or zero) != fn(da.get(key) or zero)
                            for fn in figures.values()))
    table = dom.find("table", id="line-table")
    listed = []
    for row in table.find("tbody").find_all("tr") if table else []:
        f, _, n = row.find("td").text().rpartition(":")
        listed.append((f, int(n)))
        for col, fn in figures.items():
            want = (fn(db.get((f, int(n))) or zero),
                    fn(da.get((f, int(n))) or zero))
            got = tuple(int(cell(row, "%s_%s" % (col, s)))
                        for s in ("before", "after"))
            if got != want:
                check("divergence diff line %s:%s %s" % (f, n, col), False,
                      "page %s, profiles %s" % (got, want))
    check("divergence diff: the lines whose figures changed",
          sorted(listed) == changed, "%s vs %s" % (sorted(listed), changed))


def group_divergence(report, prof, fixed, root, work):
    page = os.path.join(work, "report.html")
    r = run([report, "html", prof, "-o", page, "--source-root", root])
    check("pasta-report html exits 0", r.returncode == 0, r.stderr)
    check_page(page, prof, [root], work, "divergence")
    doc = json.load(open(prof))
    dom, _ = render(page, work, "divergence-2")
    check_divergence_table(dom, doc, "divergence")
    check_divergence_lines(dom, doc, "divergence")
    check_heat(page, dom, doc, work, "divergence")
    check_divergence_diff(report, prof, fixed, root, work)


def check_balance(dom, prof, what):
    """Every function's and the heaviest lines' spreads, as `pasta-report
    show` lists them: a row per count that is not 0."""
    n = len(prof["merged_from"])
    ranks = [s["job"]["rank"] for s in prof["merged_from"]]
    want = []
    for group, work in (("kernels", "launches"),
                        ("device_functions", "calls"),
                        ("host_functions", "calls")):
        for f in prof[group]:
            want.append((f["name"], work, f[work], bytes_of(f), flops_of(f),
                         f.get("ranks")))
    for l in prof["lines"][:20]:
        want.append(("%s:%d %s" % (l["file"], l["line"], l["function"]),
                      "executions", l["executions"], bytes_of(l), flops_of(l),
                      l.get("ranks")))
    targets = {"%s:%d %s" % (k + (r.find("td", **{"class": "src"})
                                   .attrs.get("title"),)): r.attrs["id"]
               for k, r in source_rows(dom).items()}
    expect = []
    for name, work, calls, nbytes, nflops, r in want:
        for count, key, total in ((work, work, calls),
                                  ("bytes", "bytes", nbytes),
                                  ("flops", "flops", nflops)):
            if r and total:
                s = r[key]
                expect.append((name, count, s["min"], total / n, s["max"],
                               s["max"] / (total / n), s["max_rank"],
                               s["max_process"]))
    table = dom.find("table", id="balance-table")
    check(what + ": balance table", table is not None)
    if table is None:
        return
    rows = table.find("tbody").find_all("tr")
    check(what + ": %d balance rows" % len(expect), len(rows) == len(expect),
          "page has %d" % len(rows))
    bad = []
    for row, e in zip(rows, expect):
        name, count, mn, mean, mx, imb, rank, process = e
        ok = (row.find("td", data_col="entry").text() == name and
              row.find("td", data_col="count").text() == count and
              cell(row, "min") == str(mn) and cell(row, "max") == str(mx) and
              same_value(cell(row, "mean"), mean) and
              same_value(cell(row, "imbalance"), imb) and
              cell(row, "max_rank") == str(rank) and
              rank == ranks[process] and
              row.find("td", data_col="max_rank").attrs.get("data-process")
              == str(process))
        if not ok:
            bad.append("%s %s" % (name[:40], count))
        link = row.find("td", data_col="entry").find("a")
        if count == "executions" and (
                link is None or link.attrs.get("href") != "#" +
                targets.get(name, "?")):
            bad.append("%s: link %s" % (name[:40], link and link.attrs))
    check(what + ": balance rows equal the merged profile's spreads, lines "
          "link to theirs", not bad, "; ".join(bad[:3]))


def check_line_ranks(dom, prof, what):
    """Each source line of one entry: the imbalance of its executions and
    the rank holding the max; a line of several entries: none."""
    n = len(prof["merged_from"])
    entries = {}
    for l in prof["lines"]:
        if l["file"] is not None:
            entries.setdefault((l["file"], l["line"]), []).append(l)
    rows = source_rows(dom)
    bad, checked = [], 0
    for key, ls in entries.items():
        row = rows.get(key)
        r = ls[0].get("ranks") if len(ls) == 1 else None
        execs = ls[0]["executions"]
        want_imb = r["executions"]["max"] / (execs / n) if r and execs \
            else None
        want_rank = str(r["executions"]["max_rank"]) if r and execs else ""
        checked += 1
        if row is None or not same_value(cell(row, "imbalance"), want_imb) \
                or cell(row, "max_rank") != want_rank:
            bad.append("%s:%d" % key)
    check(what + ": imbalance and max rank of %d lines" % checked,
          not bad and checked > 0, "; ".join(bad[:3]))


def group_ranks(report, gen, work):
    ranks = os.path.join(work, "ranks")
    r = run([sys.executable, gen, "3", ranks, "--kernels", "3", "--host",
             "1", "--lines", "6", "--divergence"])
    check("gen_rank_profiles.py exits 0", r.returncode == 0, r.stderr)
    # Merged in reverse, so that process numbers and ranks differ.
    merged = os.path.join(work, "merged.json")
    r = run([report, "merge", merged] +
            [os.path.join(ranks, "rank%d.json" % i) for i in (2, 1, 0)])
    check("pasta-report merge exits 0", r.returncode == 0, r.stderr)
    page = os.path.join(work, "merged.html")
    r = run([report, "html", merged, "-o", page])
    check("pasta-report html exits 0", r.returncode == 0, r.stderr)
    check_page(page, merged, [], work, "merged")
    doc = json.load(open(merged))
    dom, _ = render(page, work, "merged-2")
    check_balance(dom, doc, "merged")
    check_line_ranks(dom, doc, "merged")
    check_divergence_table(dom, doc, "merged")
    check_divergence_lines(dom, doc, "merged")
    check_heat(page, dom, doc, work, "merged")
    # A profile of one process has no balance table and no rank columns.
    one = os.path.join(work, "rank0.html")
    run([report, "html", os.path.join(ranks, "rank0.json"), "-o", one])
    dom, _ = render(one, work, "rank0")
    check("one process: no balance table or rank columns",
          dom.find("table", id="balance-table") is None and
          not dom.find_all("td", data_col="max_rank"))


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def group_report(report, prof, root, work):
    page = os.path.join(work, "report.html")
    r = run([report, "html", prof, "-o", page, "--source-root", root])
    check("pasta-report html exits 0", r.returncode == 0, r.stderr)
    check_page(page, prof, [root], work, "report")


def group_host(report, prof_path, root, work):
    """A host-only profile (issue 46), with a long template name holding
    HTML's special characters and a function that never ran."""
    prof = json.load(open(prof_path))
    long_name = ("std::map<std::basic_string<char>, std::vector<std::pair<int, "
                 "double> > >::operator[]<\"a\" & 'b'>(Key&&) " * 4).strip()
    prof["host_functions"][0]["name"] = long_name
    for l in prof["lines"]:
        if l["function"] == prof["host_functions"][0]["name"]:
            l["function"] = long_name
    idle = copy.deepcopy(prof["host_functions"][-1])
    idle.update(name="never_called", mangled="never_called", calls=0)
    for g in ("loads", "stores", "load_bytes", "store_bytes", "atomics",
              "atomic_bytes"):
        idle[g] = {k: 0 for k in idle[g]}
    idle["flops"] = {k: 0 for k in idle["flops"]}
    idle["special"] = 0
    prof["host_functions"].append(idle)
    path = os.path.join(work, "host.json")
    json.dump(prof, open(path, "w"))
    page = os.path.join(work, "host.html")
    r = run([report, "html", path, "-o", page, "--source-root", root])
    check("pasta-report html of a host-only profile exits 0", r.returncode == 0,
          r.stderr)
    raw = open(page).read()
    check("host page: the long name's title escaped",
          "&lt;&quot;a&quot; &amp; " in raw and '<"a"' not in raw)
    check_page(page, path, [root], work, "host page")


def group_diff(report, before, after, root, work):
    page = os.path.join(work, "diff.html")
    r = run([report, "html", "--diff", before, after, "-o", page,
             "--source-root", root])
    check("pasta-report html --diff exits 0", r.returncode == 0, r.stderr)
    dom, log = render(page, work, "diff")
    check_clean(dom, log, "diff")
    b, a = json.load(open(before)), json.load(open(after))
    times = [{k["mangled"]: int(kernel_time(k) or 0)
              for k in p["launches"]["kernels"]} for p in (b, a)]
    rows = {r.attrs.get("data-kernel"): r
            for r in dom.find("table", id="kernel-table").find_all("tr")}
    for k in a["kernels"]:
        kb = next(x for x in b["kernels"] if x["mangled"] == k["mangled"])
        row = rows.get(k["mangled"])
        if row is None:
            check("diff %s: row" % k["name"], False)
            continue
        for col, fn in (("launches", lambda e: e["launches"]),
                        ("bytes", bytes_of), ("flops", flops_of)):
            want = (fn(kb), fn(k), fn(k) - fn(kb))
            got = tuple(int(cell(row, "%s_%s" % (col, s)))
                        for s in ("before", "after", "change"))
            check("diff %s: %s" % (k["name"][:40], col), got == want,
                  "page %s, profiles %s" % (got, want))
        want = (times[0][k["mangled"]], times[1][k["mangled"]])
        got = (int(cell(row, "time_ns_before")),
               int(cell(row, "time_ns_after")))
        check("diff %s: GPU time" % k["name"][:40], got == want,
              "page %s, profiles %s" % (got, want))
    lines = dom.find("table", id="line-table")
    rows = lines.find("tbody").find_all("tr") if lines else []
    check("diff: changed lines listed", len(rows) > 0)
    wrong = []
    for row in rows:
        where = row.find("td").text()
        f, _, n = where.rpartition(":")
        src = find_source(f, [root])
        text = open(src).read().split("\n")[int(n) - 1] if src else ""
        if row.find("td", **{"class": "src"}).text() != text:
            wrong.append(where)
    check("diff: each listed line's source text", not wrong, str(wrong[:3]))


HOSTILE = '</td></tr><script>document.title="pwned"</script><b id="x">&amp;'


def group_escape(report, prof, work):
    p = json.load(open(prof))
    p["kernels"][0]["name"] = HOSTILE
    for l in p["lines"]:
        l["function"] = HOSTILE
    p["lines"][0]["file"] = "/nowhere/<img src=x onerror=alert(1)>.cu"
    p["program"] = HOSTILE
    hostile = os.path.join(work, "hostile.json")
    json.dump(p, open(hostile, "w"))
    page = os.path.join(work, "hostile.html")
    r = run([report, "html", hostile, "-o", page])
    check("hostile profile: exits 0", r.returncode == 0, r.stderr)
    dom, log = render(page, work, "hostile")
    check_clean(dom, log, "hostile")
    check("hostile: one script element (the page's own)",
          len(dom.find_all("script")) == 1)
    check("hostile: no element of the profile's markup",
          not dom.find_all("img") and dom.find(id="x") is None)
    row = dom.find("tr", data_kernel=p["kernels"][0]["mangled"])
    check("hostile: the name is text",
          row is not None and
          row.find("td", data_col="kernel").text() == HOSTILE)
    sec = [s for s in dom.find_all("section", **{"class": "source"})
           if s.attrs.get("data-file") == p["lines"][0]["file"]]
    check("hostile: the file name is text, and missing", len(sec) == 1 and
          sec[0].find("p", **{"class": "missing"}) is not None)


def group_errors(report, prof, work):
    cases = [
        ("no profile", [report, "html"], 2),
        ("a profile that does not exist",
         [report, "html", os.path.join(work, "none.json"), "-o",
          os.path.join(work, "x.html")], 2),
        ("--diff with one profile", [report, "html", "--diff", prof, "-o",
                                     os.path.join(work, "x.html")], 2),
        ("--diff without -o", [report, "html", "--diff", prof, prof], 2),
        ("an unknown option", [report, "html", prof, "--colour"], 2),
        ("the output is the input", [report, "html", prof, "-o", prof], 2),
        ("an output that cannot be written",
         [report, "html", prof, "-o", os.path.join(work, "no/dir/x.html")], 1),
    ]
    bad = os.path.join(work, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema":"pasta-profile","version":99}')
    cases.append(("a profile of another version",
                  [report, "html", bad, "-o", os.path.join(work, "x.html")],
                  2))
    # A hotness CSV that is not one: a warning, and the page without it.
    shutil.copy(prof, os.path.join(work, "p.json"))
    with open(os.path.join(work, "p.hotness.csv"), "w") as f:
        f.write("launch,kernel,allocation,block,block_address,accesses\n"
                "0,k,zero,0,0x0,1\n")
    r = run([report, "html", os.path.join(work, "p.json"), "-o",
             os.path.join(work, "p.html")])
    # (Lines about source files outside the source roots depend on where
    # this checkout is: the profile's recorded paths may exist here.)
    warnings = [l for l in r.stderr.splitlines()
                if "is outside the source roots" not in l]
    check("a broken hotness CSV: a warning, the page without the map",
          r.returncode == 0 and r.stderr.startswith(
              "pasta-report: warning: ") and len(warnings) == 1
          and 'id="hotness"' not in open(os.path.join(work, "p.html")).read(),
          r.stderr)
    for what, cmd, rc in cases:
        r = run(cmd)
        first = r.stderr.splitlines()[0] if r.stderr else ""
        check("%s: exit %d and one error line" % (what, rc),
              r.returncode == rc and first.startswith("pasta-report: error: ")
              and not r.stdout, "rc %d, stderr %r" % (r.returncode, r.stderr))
    check("no partial page left behind",
          not os.path.exists(os.path.join(work, "x.html")) and
          not os.path.exists(os.path.join(work, "x.html.tmp")))


def main(argv):
    group, args = argv[1], argv[2:]
    work = args[-1]
    if group != "page":
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    if group != "errors" and chromium() is None:
        print("skipped: no chromium (scripts/setup.sh installs it)")
        return 77
    if group == "report":
        group_report(*args)
    elif group == "diff":
        group_diff(*args)
    elif group == "host":
        group_host(*args)
    elif group == "divergence":
        group_divergence(*args)
    elif group == "ranks":
        group_ranks(*args)
    elif group == "escape":
        group_escape(*args)
    elif group == "page":
        page, prof, root = args[0], args[1], args[2]
        work = os.path.dirname(os.path.abspath(page))
        check_page(page, prof, [root], work, "runtime page")
    elif group == "errors":
        group_errors(*args)
    else:
        print("unknown group " + group)
        return 2
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
