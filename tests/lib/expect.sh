# Checks for the shell tests of the report's text (sourced): each check
# counts a pass or prints a FAIL line; checks_done ends the test with the
# count line and its status.
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect() { # expect TEXT NEEDLE
  if grep -qF -- "$2" <<< "$1"; then ok; else bad "missing: $2"; fi
}
absent() { # absent TEXT NEEDLE
  if grep -qF -- "$2" <<< "$1"; then bad "unexpected: $2"; else ok; fi
}
checks_done() { # checks_done [NAME]
  echo "${1:+$1: }$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
