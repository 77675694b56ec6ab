package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestConvertWideLineMemory converts one CSV line of 5,000 integers and
// checks the bytes allocated a column (issue 49 item 10: a line of 100,000
// took 2.05 GiB). The batch's vectors grow with the rows instead of being
// made at the batch size (8 KB a column), and the writer's per-column
// state starts small: 30 KB a column before, 8 KB now.
func TestConvertWideLineMemory(t *testing.T) {
	const cols = 5000
	var head, line strings.Builder
	for i := range cols {
		if i > 0 {
			head.WriteByte(',')
			line.WriteByte(',')
		}
		head.WriteString("c" + strconv.Itoa(i))
		line.WriteString(strconv.Itoa(i))
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(in, []byte(head.String()+"\n"+line.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if rc := run([]string{"convert", "--header", in, filepath.Join(dir, "wide.orc")}, io.Discard, io.Discard); rc != 0 {
		t.Fatalf("exit %d", rc)
	}
	runtime.ReadMemStats(&after)
	per := int(after.TotalAlloc-before.TotalAlloc) / cols
	t.Logf("%d bytes allocated a column", per)
	if per > 12_000 {
		t.Errorf("%d bytes allocated a column, want at most 12,000", per)
	}
}
