#!/bin/sh
# Runs Apache ORC C++'s tools over every data file gen.go wrote and compares
# (see README.md):  sh scripts/cppiceberg/run.sh DIR CPPTOOLS ORC
#   DIR       gen.go's output directory
#   CPPTOOLS  the directory holding orc-contents, orc-metadata, orc-statistics
#   ORC       orcgo's orc command
# Prints one line per file and check, then a summary; exits 1 on any difference.
set -u
dir=$1 tools=$2 orc=$3
here=$(cd "$(dirname "$0")" && pwd)
export TZ=UTC
out=$dir/cmp
mkdir -p "$out"
fail=0 n=0
check() { # name command...
	if ! "$@" >>"$out/log" 2>&1; then
		fail=$((fail + 1))
		echo "FAILED: $*" | tee -a "$out/log"
	fi
}
: >"$out/log"
{
	cat "$dir/files.txt"
	echo "nanos $dir/nanos.orc 3000 $dir/nanos.schema.json"
} | while read -r table path rows schema; do
	n=$((n + 1))
	b=$out/$n
	echo "$table $path $rows" >>"$out/log"
	check sh -c "'$tools/orc-metadata' '$path' > '$b.meta'"
	check python3 "$here/attrs.py" "$schema" "$b.meta"
	check sh -c "'$tools/orc-contents' '$path' > '$b.cpp'"
	check sh -c "'$orc' cat '$path' > '$b.go'"
	typ=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read(), strict=False)["type"])' "$b.meta")
	check python3 "$here/cmpvals.py" "$typ" "$b.cpp" "$b.go"
	check test "$(wc -l <"$b.cpp")" -eq "$rows"
	check sh -c "'$tools/orc-statistics' '$path' > '$b.cppstats'"
	check sh -c "'$orc' meta --json '$path' > '$b.gostats'"
	check python3 "$here/cmpstats.py" "$b.cppstats" "$b.gostats"
	echo "$fail" >"$out/failures"
done
fail=$(cat "$out/failures")
echo "files: $(($(wc -l <"$dir/files.txt") + 1))"
grep ': .* rows, .* values, .* differ$' "$out/log" | awk '{r += $2; v += $4; d += $6} END {print "values: " r " rows, " v " values, " d " rows differ"}'
grep 'typed nodes' "$out/log" | awk '{n += $2; a += $5; d += $7} END {print "attributes: " n " typed nodes, " a " attributes, " d " differ"}'
grep 'scopes, .* statistics' "$out/log" | awk '{s += $2; t += $4; d += $6} END {print "statistics: " s " scopes (file and stripes), " t " statistics, " d " differ"}'
echo "failed checks: $fail (log: $out/log)"
test "$fail" -eq 0
