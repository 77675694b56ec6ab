#!/usr/bin/env bash
# Checks that the writer of the work tree writes the same files, byte for
# byte, as the writer of another commit (default main): it runs
# TestWriteSameFiles (writer/samefiles_test.go) in both, the test file of
# the work tree in both, and compares the files with cmp.
#
#   scripts/samefiles.sh           # against main
#   scripts/samefiles.sh 1b00746   # against a commit
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-main}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git archive "$base" | tar -x -C "$tmp/src"
cp writer/samefiles_test.go "$tmp/src/writer/"
ORCGO_SAMEFILES="$tmp/new" go test -count=1 -run '^TestWriteSameFiles(FewValues|Sparse)?$' ./writer/ >/dev/null
(cd "$tmp/src" && ORCGO_SAMEFILES="$tmp/base" go test -count=1 -run '^TestWriteSameFiles(FewValues|Sparse)?$' ./writer/ >/dev/null)
n=0 differ=0
for f in "$tmp"/base/*.orc; do
	n=$((n + 1))
	if ! cmp -s "$f" "$tmp/new/$(basename "$f")"; then
		differ=$((differ + 1))
		echo "differs: $(basename "$f")"
	fi
done
if [ "$n" -ne "$(ls "$tmp"/new | wc -l)" ]; then
	echo "the two commits wrote different sets of files"
	exit 1
fi
echo "$n files, $differ differ from $base's"
[ "$differ" -eq 0 ]
