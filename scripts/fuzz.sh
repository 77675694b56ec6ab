#!/usr/bin/env bash
# Runs every fuzz target of the module in turn, each for DURATION
# (default 10m), and reports crashers. Not part of CI: fuzzing is long.
#
#   scripts/fuzz.sh 10m            # every target, 10 minutes each
#   scripts/fuzz.sh 30s ./format   # the targets of one package
#
# Environment:
#   FUZZ_WORKERS=N   fuzzing processes per target (go test -parallel; default GOMAXPROCS)
#   FUZZ_SHARD=i/n   run only every n-th target starting at i (0-based), so
#                    n copies of the script can share a machine
#
# New crashers land in PKG/testdata/fuzz/FuzzX/ (go test keeps them there);
# commit them as seeds once fixed.
set -uo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10m}
shift || true
pkgs=${*:-./...}
shard=${FUZZ_SHARD:-0/1}
shard_i=${shard%/*}
shard_n=${shard#*/}
parallel=()
if [ -n "${FUZZ_WORKERS:-}" ]; then
  parallel=(-parallel "$FUZZ_WORKERS")
fi
status=0
k=0
for pkg in $(go list $pkgs); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u)
  for t in $targets; do
    if [ $((k % shard_n)) -ne "$shard_i" ]; then
      k=$((k + 1))
      continue
    fi
    k=$((k + 1))
    echo "== $pkg $t ($duration) $(date -u +%H:%M:%S)"
    if ! go test "$pkg" -run '^$' -fuzz "^$t\$" -fuzztime "$duration" "${parallel[@]}" 2>&1 | tail -5; then
      status=1
    fi
  done
done
exit $status
