#!/bin/sh
# Issue [safe-io]: nothing PASTA reads or writes can be turned against its
# user. One group of cases per run (each a ctest, safe-io-GROUP):
#   html-roots  pasta-report html reads sources only under its roots
#   html-tmp    pasta-report html -o OUT never writes through OUT.tmp
#   links       the runtime never writes through a link at PASTA_OUTPUT
#   identity    no tool writes over one of its inputs, by any name
#   clobber     PASTA_OUTPUT / html -o naming a file that is not PASTA's
#   merge-dup   merge reads a file named twice once
#   small       long paths, /dev/null, PASTA_ANALYZERS=html, a reused fd 2,
#               show /dev/zero, call-path frames in a fifo
#   process     what the program does to its process: chdir before exit, a
#               removed working directory, ulimit -f, umask 077,
#               PASTA_RUNTIME naming a fifo
# Links another user plants in a shared directory are simulated by links
# of our own in a temporary directory: the fix must not depend on
# fs.protected_symlinks, so the test does not either.
# usage: run_safe_io.sh GROUP CLANG PLUGIN RUNTIME_LIB PASTA_REPORT SOURCE_DIR WORKDIR
set -eu
group=$1 clang=$2 plugin=$3 rt=$4 report=$5 src=$6 work=$7
rm -rf "$work"
mkdir -p "$work"
fail=0
expect() { # expect NAME CONDITION...
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else
    echo "FAIL $name"
    fail=1
  fi
}
has() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }
lines() { test "$(wc -l <"$1")" -eq "$2"; }
same() { cmp -s "$1" "$2"; }
# build NAME SOURCE: a host-only instrumented program.
build() {
  PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" "$2" -o "$work/$1" "$rt"
}
profile=$src/integration/profiles/host_dot_scale.json
is_profile() { head -c 40 "$1" | grep -q '^{"schema":"pasta-profile"'; }

case $group in
html-roots)
  # A profile naming files outside the tree html runs in: through "..",
  # absolutely, through a link inside the tree, and /proc, /etc.
  mkdir -p "$work/tree/src" "$work/outside"
  echo "int legit; /* LEGIT-MARKER */" >"$work/tree/src/ok.c"
  echo "SECRET-MARKER-1" >"$work/outside/secret.txt"
  echo "SECRET-MARKER-2" >"$work/outside/other.txt"
  ln -s ../../outside/other.txt "$work/tree/src/link.c"
  python3 - "$profile" "$work/tree/p.json" "$work/outside" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tree = sys.argv[2].rsplit("/", 1)[0]
files = ["src/ok.c", tree + "/src/ok.c", "../outside/secret.txt", sys.argv[3] + "/secret.txt",
         "src/link.c", "/proc/self/status", "/etc/passwd",
         "src/../../outside/secret.txt"]
proto = d["lines"][0]
d["lines"] = [dict(proto, file=f, line=1 + i) for i, f in enumerate(files)]
json.dump(d, open(sys.argv[2], "w"))
EOF
  (cd "$work/tree" && "$report" html p.json -o page.html) \
    >"$work/out" 2>"$work/err" || echo "html exit $?" >>"$work/err"
  cat "$work/err"
  page=$work/tree/page.html
  expect "the page is written" test -s "$page"
  expect "a file under the current directory is read" has "$page" LEGIT-MARKER
  expect "no file outside through .." lacks "$page" SECRET-MARKER-1
  expect "no file outside through a link" lacks "$page" SECRET-MARKER-2
  expect "not /proc/self/status" lacks "$page" TracerPid
  expect "not /etc/passwd" lacks "$page" "root:x:0:0"
  for f in ../outside/secret.txt "$work/outside/secret.txt" src/link.c \
    /proc/self/status /etc/passwd src/../../outside/secret.txt; do
    expect "refused, one line: $f" has "$work/err" \
      "pasta-report: warning: source file $f is outside the source roots"
  done
  expect "one line per refused file" test "$(grep -c 'is outside the source roots' "$work/err")" -eq 6
  expect "the page says which were not read" has "$page" "Source not read: ../outside/secret.txt"
  # --source-root widens the set; the profile's own directory is a root.
  mkdir "$work/elsewhere"
  (cd "$work/elsewhere" && "$report" html "$work/tree/p.json" -o "$work/page2.html" \
    --source-root "$work/outside") >"$work/out2" 2>"$work/err2" || true
  expect "--source-root DIR: files under DIR are read" has "$work/page2.html" SECRET-MARKER-1
  expect "the profile's directory is a root" has "$work/page2.html" LEGIT-MARKER
  expect "still not /etc/passwd" lacks "$work/page2.html" "root:x:0:0"
  # Under the directory html runs in (often one's home) and the profile's,
  # only files named like source are read: not .ssh/id_rsa, not notes.txt
  # (before: any file there went into the page); under --source-root, any.
  mkdir -p "$work/home/.ssh" "$work/home/proj"
  echo "KEY-MARKER" >"$work/home/.ssh/id_rsa"
  echo "NOTES-MARKER" >"$work/home/notes.txt"
  echo "int k; /* CODE-MARKER */" >"$work/home/proj/k.cu"
  python3 - "$profile" "$work/home/proj/p.json" "$work/home" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
home = sys.argv[3]
files = [home + "/.ssh/id_rsa", home + "/notes.txt", home + "/proj/k.cu"]
proto = d["lines"][0]
d["lines"] = [dict(proto, file=f, line=1) for f in files]
json.dump(d, open(sys.argv[2], "w"))
EOF
  (cd "$work/home" && "$report" html proj/p.json -o "$work/home.html") >/dev/null 2>"$work/err4" || true
  expect "cwd root: a source file is read" has "$work/home.html" CODE-MARKER
  expect "cwd root: not .ssh/id_rsa" lacks "$work/home.html" KEY-MARKER
  expect "cwd root: not notes.txt" lacks "$work/home.html" NOTES-MARKER
  expect "cwd root: says so" has "$work/err4" "pasta-report: warning: source file $work/home/.ssh/id_rsa is outside the source roots"
  (cd "$work/home" && "$report" html proj/p.json -o "$work/home2.html" --source-root "$work/home") \
    >/dev/null 2>&1 || true
  expect "--source-root: any file under it" has "$work/home2.html" NOTES-MARKER
  # A mistyped --source-root is said, not silently ignored.
  (cd "$work/elsewhere" && "$report" html "$work/tree/p.json" -o "$work/page3.html" \
    --source-root "$work/outsde") >/dev/null 2>"$work/err3" || true
  expect "--source-root that does not exist: says so" has "$work/err3" \
    "pasta-report: warning: --source-root $work/outsde: No such file or directory; ignored"
  ;;
html-tmp)
  # OUT.tmp holds a link to a file of the user's, then an ordinary file:
  # neither is touched; no temporary file is left.
  cp "$profile" "$work/p.json"
  echo "precious" >"$work/victim"
  ln -s "$work/victim" "$work/out.html.tmp"
  "$report" html "$work/p.json" -o "$work/out.html" 2>"$work/err" || true
  cat "$work/err"
  expect "the page is written" has "$work/out.html" "<!DOCTYPE html>"
  expect "the link's target is untouched" test "$(cat "$work/victim")" = precious
  expect "the link at OUT.tmp stays" test -L "$work/out.html.tmp"
  rm -f "$work/out.html.tmp"
  echo "mine" >"$work/out.html.tmp"
  "$report" html "$work/p.json" -o "$work/out.html" 2>"$work/err" || true
  expect "a file at OUT.tmp is kept" test "$(cat "$work/out.html.tmp")" = mine
  expect "no temporary file left" test "$(find "$work" -name '.*pasta-*' | wc -l)" -eq 0
  # The merged profile too (merge --force).
  ln -s "$work/victim" "$work/m.json.tmp"
  "$report" merge "$work/m.json" "$work/p.json" 2>"$work/err" || true
  expect "merge: the link's target is untouched" test "$(cat "$work/victim")" = precious
  ;;
links)
  build dot "$src/host/dot_scale.c"
  # A link planted at the output name, to a file of the user's: the file is
  # never written; the name gets the profile.
  echo "precious" >"$work/victim"
  ln -s "$work/victim" "$work/o.json"
  PASTA_OUTPUT=$work/o.json PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  cat "$work/err"
  expect "planted link: its target is untouched" test "$(cat "$work/victim")" = precious
  expect "planted link: the name now holds the profile" is_profile "$work/o.json"
  expect "planted link: replaced by a regular file" test ! -L "$work/o.json"
  # A link of the user's own to an earlier profile: replaced without a
  # false "written by another process" warning (item 11).
  cp "$profile" "$work/run1.json"
  touch -d "@$(($(date +%s) - 60))" "$work/run1.json"
  ln -s "$work/run1.json" "$work/latest.json"
  touch -h -d "@$(($(date +%s) - 60))" "$work/latest.json"
  PASTA_OUTPUT=$work/latest.json "$work/dot" >/dev/null 2>"$work/err"
  expect "own link: no warning" lacks "$work/err" "written by another process"
  expect "own link: written to its name" has "$work/err" "pasta: profile written to $work/latest.json"
  expect "own link: the earlier profile is kept" same "$work/run1.json" "$profile"
  # The files beside the profile too (the HTML report).
  echo "precious" >"$work/victim2"
  ln -s "$work/victim2" "$work/h.html"
  PASTA_OUTPUT=$work/h.json PASTA_HTML=1 PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  expect "html beside the profile: the link's target is untouched" test "$(cat "$work/victim2")" = precious
  ;;
identity)
  cp "$profile" "$work/a.json"
  cp "$profile" "$work/b.json"
  cp "$work/a.json" "$work/a.orig"
  (cd "$work" && "$report" html a.json -o ./a.json) 2>"$work/err" && rc=0 || rc=$?
  cat "$work/err"
  expect "html a.json -o ./a.json: exit 2" test "$rc" -eq 2
  expect "html a.json -o ./a.json: the input is intact" same "$work/a.json" "$work/a.orig"
  expect "html a.json -o ./a.json: says so" has "$work/err" "pasta-report: error: the output ./a.json is the input profile a.json"
  ln "$work/a.json" "$work/hard.json"
  "$report" html "$work/a.json" -o "$work/hard.json" 2>"$work/err" && rc=0 || rc=$?
  expect "html -o a hard link of the input: refused" test "$rc" -eq 2
  expect "html -o a hard link of the input: intact" same "$work/a.json" "$work/a.orig"
  cp "$src/fixtures/working_set.hotness.csv" "$work/a.hotness.csv"
  "$report" html "$work/a.json" -o "$work/a.hotness.csv" --force 2>"$work/err" && rc=0 || rc=$?
  expect "html -o the input's hotness map: refused" test "$rc" -eq 2
  "$report" merge --force "$work/a.json" "$work/./a.json" "$work/b.json" 2>"$work/err" && rc=0 || rc=$?
  cat "$work/err"
  expect "merge --force a.json ./a.json: exit 2" test "$rc" -eq 2
  expect "merge --force a.json ./a.json: the input is intact" same "$work/a.json" "$work/a.orig"
  ;;
clobber)
  build dot "$src/host/dot_scale.c"
  printf 'int main(void) { return 0; }\n' >"$work/prog.c"
  cp "$work/prog.c" "$work/prog.orig"
  touch -d "@$(($(date +%s) - 60))" "$work/prog.c"
  PASTA_OUTPUT=$work/prog.c PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  cat "$work/err"
  expect "PASTA_OUTPUT=prog.c: the source is intact" same "$work/prog.c" "$work/prog.orig"
  expect "PASTA_OUTPUT=prog.c: one line, naming the fresh name" has "$work/err" \
    "pasta: warning: $work/prog.c is not a PASTA profile (PASTA_OVERWRITE=1 replaces it); the profile is written to $work/prog.1.c instead"
  expect "PASTA_OUTPUT=prog.c: only that line" lines "$work/err" 1
  expect "the profile is at the fresh name" is_profile "$work/prog.1.c"
  # An earlier profile at the name is replaced (nothing said).
  cp "$profile" "$work/old.json"
  touch -d "@$(($(date +%s) - 60))" "$work/old.json"
  PASTA_OUTPUT=$work/old.json PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  expect "an earlier profile: replaced" test ! -e "$work/old.1.json"
  expect "an earlier profile: nothing said" lines "$work/err" 0
  # A write-protected earlier profile (chmod a-w, a baseline kept on
  # purpose): kept, the profile goes to a fresh name (before: replaced).
  cp "$profile" "$work/base.json"
  chmod a-w "$work/base.json"
  touch -d "@$(($(date +%s) - 60))" "$work/base.json"
  PASTA_OUTPUT=$work/base.json PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  expect "write-protected profile: kept" same "$work/base.json" "$profile"
  expect "write-protected profile: one line" has "$work/err" \
    "pasta: warning: $work/base.json is not writable (PASTA_OVERWRITE=1 replaces it); the profile is written to $work/base.1.json instead"
  # PASTA_OVERWRITE=1: the user means it.
  PASTA_OVERWRITE=1 PASTA_OUTPUT=$work/prog.c PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  expect "PASTA_OVERWRITE=1: replaced" is_profile "$work/prog.c"
  # pasta-report html -o a file that is not an HTML report: refused; --force.
  cp "$profile" "$work/p.json"
  echo "notes" >"$work/notes.html"
  "$report" html "$work/p.json" -o "$work/notes.html" 2>"$work/err" && rc=0 || rc=$?
  cat "$work/err"
  expect "html -o notes.html: refused (exit 1)" test "$rc" -eq 1
  expect "html -o notes.html: kept" test "$(cat "$work/notes.html")" = notes
  expect "html -o notes.html: says why" has "$work/err" "notes.html exists and is not a PASTA HTML report (--force replaces it)"
  "$report" html "$work/p.json" -o "$work/page.html" 2>"$work/err"
  "$report" html "$work/p.json" -o "$work/page.html" 2>"$work/err" && rc=0 || rc=$?
  expect "html -o an earlier page: replaced" test "$rc" -eq 0
  "$report" html "$work/p.json" -o "$work/notes.html" --force 2>"$work/err" && rc=0 || rc=$?
  expect "html --force: replaced" has "$work/notes.html" "<!DOCTYPE html>"
  ;;
merge-dup)
  mkdir "$work/ranks"
  cp "$profile" "$work/ranks/r0.json"
  cp "$profile" "$work/ranks/r1.json"
  "$report" merge "$work/once.json" "$work/ranks/r0.json" "$work/ranks/r1.json" 2>"$work/err1"
  "$report" merge "$work/m.json" "$work/ranks/" "$work/ranks/*.json" "$work/ranks/r0.json" 2>"$work/err"
  cat "$work/err"
  n() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["merged_from"]), d["host_functions"][0]["calls"])' "$1"; }
  expect "each file merged once" test "$(n "$work/m.json")" = "$(n "$work/once.json")"
  expect "two processes" test "$(n "$work/m.json" | cut -d' ' -f1)" -eq 2
  expect "one note" has "$work/err" "pasta-report: warning: 3 inputs named a file named before"
  expect "only the note" lines "$work/err" 1
  expect "no note without duplicates" lines "$work/err1" 0
  ;;
small)
  build dot "$src/host/dot_scale.c"
  # A 5,000-character path: the error keeps its reason.
  long=$work
  while [ ${#long} -lt 5000 ]; do long=$long/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done
  PASTA_OUTPUT=$long/p.json PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  expect "long path: the reason is there" has "$work/err" "File name too long (PASTA_OUTPUT sets the profile's path)"
  expect "long path: one line" lines "$work/err" 1
  # /dev/null: nothing written, nothing said about writing it.
  PASTA_OUTPUT=/dev/null "$work/dot" >/dev/null 2>"$work/err"
  expect "/dev/null: no 'written to' note" lacks "$work/err" "written to /dev/null"
  # ... and the files beside the profile go there too (before: the HTML
  # report was written to /dev/null.html: created in /dev as root, an error
  # line otherwise).
  had=0
  [ -e /dev/null.html ] && had=1
  PASTA_OUTPUT=/dev/null PASTA_HTML=1 PASTA_QUIET=1 "$work/dot" >/dev/null 2>"$work/err"
  expect "/dev/null with PASTA_HTML=1: nothing said" lines "$work/err" 0
  [ "$had" = 1 ] || expect "/dev/null with PASTA_HTML=1: no /dev/null.html" test ! -e /dev/null.html
  # /dev/stdout: the profile goes there; the page has nowhere to go.
  had=0
  [ -e /dev/stdout.html ] && had=1
  PASTA_OUTPUT=/dev/stdout PASTA_HTML=1 PASTA_QUIET=1 "$work/dot" >"$work/out" 2>"$work/err"
  expect "/dev/stdout with PASTA_HTML=1: the profile on stdout" grep -q '^{"schema":"pasta-profile"' "$work/out"
  expect "/dev/stdout with PASTA_HTML=1: one line says the page is not written" has "$work/err" \
    "pasta: warning: the profile goes to /dev/stdout, which has no directory to put the HTML report in: not written"
  [ "$had" = 1 ] || expect "/dev/stdout with PASTA_HTML=1: no /dev/stdout.html" test ! -e /dev/stdout.html
  # PASTA_ANALYZERS=html alone writes the page.
  PASTA_ANALYZERS=html PASTA_OUTPUT=$work/h.json "$work/dot" >/dev/null 2>"$work/err"
  cat "$work/err"
  expect "PASTA_ANALYZERS=html: the page is written" has "$work/h.html" "<!DOCTYPE html>"
  PASTA_ANALYZERS=html PASTA_HTML=0 PASTA_OUTPUT=$work/h0.json "$work/dot" >/dev/null 2>"$work/err"
  expect "PASTA_ANALYZERS=html PASTA_HTML=0: says so" has "$work/err" "pasta: warning: PASTA_ANALYZERS names html but PASTA_HTML=0"
  # A program that closes fd 2 and opens a file of its own there: the
  # tables do not go into that file.
  build reuse "$src/host/reuse_stderr.c"
  PASTA_OUTPUT=$work/r.json "$work/reuse" "$work/data.txt" 2>"$work/err"
  expect "reused fd 2: the program's file holds only its data" test "$(cat "$work/data.txt")" = "the program's data"
  expect "reused fd 2: the profile is written" is_profile "$work/r.json"
  # show /dev/zero: refused without reading.
  timeout 20 "$report" show /dev/zero >/dev/null 2>"$work/err" && rc=0 || rc=$?
  cat "$work/err"
  expect "show /dev/zero: exit 2" test "$rc" -eq 2
  expect "show /dev/zero: says why" has "$work/err" "pasta-report: error: /dev/zero: a device, not a file"
  # html's <profile>.hotness.csv a link to /dev/zero: not read, a warning.
  cp "$src/fixtures/html/lud_ws.json" "$work/z.json"
  ln -s /dev/zero "$work/z.hotness.csv"
  timeout 20 "$report" html "$work/z.json" -o "$work/z.html" 2>"$work/err" && rc=0 || rc=$?
  expect "html with a hotness map that is /dev/zero: the page" test "$rc" -eq 0
  expect "html with a hotness map that is /dev/zero: says why" has "$work/err" \
    "pasta-report: warning: $work/z.hotness.csv: a device, not a file (devices are never read); the page has no hotness map"
  # A profile whose call-path frames name a fifo (or a device) as their
  # object: frames not resolved there are looked up in their object, which
  # is read only when it is a regular file (before: show blocked on the
  # fifo for ever).
  mkfifo "$work/obj.fifo"
  python3 - "$src/fixtures/html/lud_ws.json" "$work/frames.json" "$work/obj.fifo" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for k in d["launches"]["kernels"]:
    for cp in k["call_paths"]:
        for f in cp["frames"]:
            f.update(function=None, file=None, line=0, object=sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
EOF
  timeout 20 "$report" show "$work/frames.json" >"$work/out" 2>"$work/err" && rc=0 || rc=$?
  expect "frames in a fifo: show ends, exit 0" test "$rc" -eq 0
  expect "frames in a fifo: the launch table" has "$work/out" "lud_diagonal"
  # merge of a quoted pattern that matches a fifo: only regular files, as
  # for a directory (before: blocked on the fifo for ever); matching only
  # the fifo is an error (not an empty merge).
  mkdir "$work/ranks"
  cp "$profile" "$work/ranks/r0.json"
  mkfifo "$work/ranks/r1.json"
  timeout 20 "$report" merge "$work/m.json" "$work/ranks/r*.json" 2>"$work/err" && rc=0 || rc=$?
  expect "merge 'r*.json' with a fifo: merged, exit 0" test "$rc" -eq 0
  expect "merge 'r*.json' with a fifo: one process" test \
    "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["merged_from"]))' "$work/m.json")" -eq 1
  timeout 20 "$report" merge "$work/m1.json" "$work/ranks/r1*.json" 2>"$work/err" && rc=0 || rc=$?
  expect "merge 'r1*.json' (only the fifo): exit 2" test "$rc" -eq 2
  expect "merge 'r1*.json' (only the fifo): says why" has "$work/err" "r1*.json: matches no regular file"
  # The hotness map beside a profile is a fifo (planted in a shared
  # directory): not read, a warning (before: html blocked on it for ever).
  cp "$src/fixtures/html/lud_ws.json" "$work/f.json"
  mkfifo "$work/f.hotness.csv"
  timeout 20 "$report" html "$work/f.json" -o "$work/f.html" 2>"$work/err" && rc=0 || rc=$?
  expect "a hotness map that is a fifo: the page" test "$rc" -eq 0
  expect "a hotness map that is a fifo: says why" has "$work/err" \
    "pasta-report: warning: $work/f.hotness.csv: a named pipe, not a file (only a regular file is read); the page has no hotness map"
  # html of a profile read from a pipe or a descriptor, without -o: an
  # error (before: the page went to /dev/stdin.html, in /dev as root).
  had=0
  [ -e /dev/stdin.html ] && had=1
  "$report" html /dev/stdin <"$profile" >/dev/null 2>"$work/err" && rc=0 || rc=$?
  expect "html /dev/stdin without -o: exit 2" test "$rc" -eq 2
  expect "html /dev/stdin without -o: says why" has "$work/err" \
    "pasta-report: error: html of /dev/stdin (a pipe or a descriptor: no directory to put the page in) needs -o OUT.html"
  [ "$had" = 1 ] || expect "html /dev/stdin without -o: no /dev/stdin.html" test ! -e /dev/stdin.html
  "$report" html /dev/stdin -o "$work/stdin.html" <"$profile" >/dev/null 2>"$work/err" && rc=0 || rc=$?
  expect "html /dev/stdin -o OUT: the page" has "$work/stdin.html" "<!DOCTYPE html>"
  # show --kernel with nested counted repetitions: refused before regcomp
  # (glibc: 1.2 s and 1.1 GB for this one; minutes for one more level).
  cp "$profile" "$work/k.json"
  timeout 20 "$report" show "$work/k.json" --kernel '(((a{1,100}){1,100}){1,100})' \
    >/dev/null 2>"$work/err" && rc=0 || rc=$?
  expect "show --kernel costly regex: exit 2" test "$rc" -eq 2
  expect "show --kernel costly regex: says why" has "$work/err" "is too costly to compile"
  # A file above the limit is refused before it is read (sparse: no disk).
  truncate -s 5G "$work/huge.json" 2>/dev/null || true
  if [ -e "$work/huge.json" ]; then
    timeout 20 "$report" show "$work/huge.json" >/dev/null 2>"$work/err" && rc=0 || rc=$?
    expect "a 5 GiB profile: refused" has "$work/err" "larger than the 4096 MiB limit"
    rm -f "$work/huge.json"
  fi
  ;;
process)
  build chd "$src/host/chdir_exit.c"
  mkdir "$work/run" "$work/run/sub"
  # chdir before exit: a relative PASTA_OUTPUT names a file in the
  # directory the program started in (before: in the one it ended in).
  (cd "$work/run" && PASTA_OUTPUT=rel.json PASTA_HTML=1 PASTA_QUIET=1 ../chd chdir sub) \
    >/dev/null 2>"$work/err"
  cat "$work/err"
  expect "chdir: the profile is in the start directory" is_profile "$work/run/rel.json"
  expect "chdir: the page beside it" has "$work/run/rel.html" "<!DOCTYPE html>"
  expect "chdir: nothing in the directory it ended in" test -z "$(ls -A "$work/run/sub")"
  (cd "$work/run" && ../chd chdir sub) >/dev/null 2>"$work/err"
  expect "chdir, default name: in the start directory" \
    test "$(find "$work/run" -maxdepth 1 -name 'pasta-chd-*.json' | wc -l)" -eq 1
  expect "chdir: the note names where it went" has "$work/err" "pasta: profile written to $work/run/pasta-chd-"
  # The directory it ended in was removed (before: "cannot create a file
  # in .: No such file or directory", no profile).
  (cd "$work/run" && PASTA_OUTPUT=gone.json PASTA_QUIET=1 ../chd rmcwd) >/dev/null 2>"$work/err"
  cat "$work/err"
  expect "removed working directory: the profile is written" is_profile "$work/run/gone.json"
  expect "removed working directory: nothing said" lines "$work/err" 0
  # ulimit -f: the write fails with one line; the program's exit status is
  # its own (before: killed by SIGXFSZ, status 153, a temporary file left).
  (ulimit -f 1 && cd "$work/run" && PASTA_OUTPUT=big.json PASTA_QUIET=1 ../chd chdir .) \
    >/dev/null 2>"$work/err" && rc=0 || rc=$?
  cat "$work/err"
  expect "ulimit -f: exit status 0" test "$rc" -eq 0
  expect "ulimit -f: one error line, naming the file" has "$work/err" "pasta: error: cannot write the profile: cannot write to big.json: File too large"
  expect "ulimit -f: the reason" has "$work/err" "File too large"
  expect "ulimit -f: no temporary file left" test "$(find "$work/run" -name '.*pasta-*' | wc -l)" -eq 0
  # stderr a pipe whose reader is gone when the tables are written
  # (prog 2>&1 | head -1): the program's exit status is its own (before:
  # killed by SIGPIPE at exit, 141).
  { PASTA_OUTPUT=$work/wait.json "$work/chd" wait; echo $? >"$work/status"; } 2>&1 | true
  expect "stderr's reader gone: exit status 0" test "$(cat "$work/status")" -eq 0
  # The tables to a file past ulimit -f: the same (before: SIGXFSZ, 153).
  (ulimit -f 1 && PASTA_OUTPUT=$work/wait.json "$work/chd" chdir . >/dev/null 2>"$work/tables") && rc=0 || rc=$?
  expect "tables past ulimit -f: exit status 0" test "$rc" -eq 0
  # Eight processes with one PASTA_OUTPUT at once: every file there is a
  # whole profile (each is renamed or linked into place, never written in
  # place), none is left half-written or as a temporary file.
  mkdir "$work/same"
  for i in 1 2 3 4 5 6 7 8; do
    PASTA_OUTPUT=$work/same/p.json PASTA_QUIET=1 "$work/chd" chdir . >/dev/null 2>>"$work/same.err" &
  done
  wait
  whole=1
  for f in "$work"/same/p*.json; do
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null || whole=0
  done
  expect "one PASTA_OUTPUT at once: every file a whole profile" test "$whole" -eq 1
  expect "one PASTA_OUTPUT at once: no temporary file left" test "$(find "$work/same" -name '.*' -type f | wc -l)" -eq 0
  # umask 077: the profile and the page are the user's alone.
  (umask 077 && cd "$work/run" && PASTA_OUTPUT=private.json PASTA_HTML=1 PASTA_QUIET=1 ../chd chdir .) \
    >/dev/null 2>&1
  expect "umask 077: the profile is 0600" test "$(stat -c %a "$work/run/private.json")" = 600
  expect "umask 077: the page is 0600" test "$(stat -c %a "$work/run/private.html")" = 600
  # PASTA_RUNTIME naming a fifo no one writes (or a pipe, a terminal) for a
  # program linked without the runtime: one warning, the program runs
  # uninstrumented (before: dlopen blocked on it for ever).
  PASTA_HOST=1 "$clang" -O2 -g -fpass-plugin="$plugin" "$src/host/chdir_exit.c" -o "$work/nort"
  mkfifo "$work/rt.fifo"
  PASTA_RUNTIME=$work/rt.fifo timeout 20 "$work/nort" chdir . >"$work/out" 2>"$work/err" && rc=0 || rc=$?
  cat "$work/err"
  expect "PASTA_RUNTIME=fifo: the program ends, exit 0" test "$rc" -eq 0
  expect "PASTA_RUNTIME=fifo: its output" test "$(cat "$work/out")" = 42
  expect "PASTA_RUNTIME=fifo: says why" has "$work/err" \
    "pasta: warning: cannot load the PASTA runtime $work/rt.fifo (a pipe, a fifo or a terminal, not a library)"
  echo | PASTA_RUNTIME=/dev/stdin timeout 20 "$work/nort" chdir . >/dev/null 2>"$work/err" && rc=0 || rc=$?
  expect "PASTA_RUNTIME=/dev/stdin (a pipe): exit 0" test "$rc" -eq 0
  expect "PASTA_RUNTIME=/dev/stdin (a pipe): says why" has "$work/err" "(a pipe, a fifo or a terminal, not a library)"
  # A set-user-ID root program run by another user (as root only: setpriv
  # to nobody): PASTA_RUNTIME and PASTA_OUTPUT are the caller's, and must
  # not load a library or write a file with root's privileges (before: the
  # caller's library ran as root, the profile was written where it said).
  nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    nobody test -x "$work" && ! findmnt -no OPTIONS -T "$work" 2>/dev/null | grep -q nosuid; then
    mkdir "$work/suid" "$work/rootonly"
    chmod 755 "$work/suid"
    chmod 700 "$work/rootonly"
    cp "$work/chd" "$work/nort" "$work/suid/"
    chmod 4755 "$work/suid/chd" "$work/suid/nort"
    printf '#include <stdio.h>\n__attribute__((constructor)) static void c(void) { fputs("EVIL-LOADED\\n", stderr); }\n' >"$work/evil.c"
    "$clang" -shared -fPIC "$work/evil.c" -o "$work/suid/evil.so"
    chmod 755 "$work/suid/evil.so"
    nobody env PASTA_RUNTIME="$work/suid/evil.so" \
      "$work/suid/nort" chdir / >/dev/null 2>"$work/err" || true
    cat "$work/err"
    expect "set-user-ID: PASTA_RUNTIME's library is not loaded" lacks "$work/err" EVIL-LOADED
    nobody env PASTA_OUTPUT="$work/rootonly/p.json" \
      "$work/suid/chd" chdir / >/dev/null 2>"$work/err" || true
    cat "$work/err"
    expect "set-user-ID: nothing written where the caller says" test ! -e "$work/rootonly/p.json"
    expect "set-user-ID: one line says why" has "$work/err" \
      "pasta: warning: this program runs with privileges its user does not have"
  else
    echo "skipped: set-user-ID cases (need root, setpriv, and a work directory nobody can reach, not mounted nosuid)"
  fi
  ;;
*)
  echo "unknown group $group"
  exit 2
  ;;
esac
exit $fail
