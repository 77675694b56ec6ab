#!/usr/bin/env bash
# Runs every fuzz target of the module in turn, each for DURATION
# (default 10m), and reports crashers. Not part of CI: fuzzing is long.
#
#   scripts/fuzz.sh 10m            # every target, 10 minutes each
#   scripts/fuzz.sh 30s ./format   # the targets of one package
#
# New crashers land in PKG/testdata/fuzz/FuzzX/ (go test keeps them there);
# commit them as seeds once fixed.
set -uo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10m}
shift || true
pkgs=${*:-./...}
status=0
for pkg in $(go list $pkgs); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u)
  for t in $targets; do
    echo "== $pkg $t ($duration)"
    if ! go test "$pkg" -run '^$' -fuzz "^$t\$" -fuzztime "$duration" 2>&1 | tail -5; then
      status=1
    fi
  done
done
exit $status
