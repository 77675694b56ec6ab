package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Converting one WKT line of 2,000,000 points (17.6 MB) stays within the
// bound for inputs, 64 MiB + 8x the input (198 MiB): it peaked at 212 MiB
// while the WKB grew by copies.
func TestConvertLongWKTMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("converts a 17.6 MB line in a process")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "wkt.csv")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(`1,"LINESTRING (`)
	for i := range 2_000_000 {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, "%d %d", i%1000, i%997)
	}
	w.WriteString(")\"\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, err := os.Stat(in)
	if err != nil {
		t.Fatal(err)
	}
	bound := 64<<20 + 8*fi.Size()
	rss, took := runProcess(t, io.Discard, "convert", "--schema", "struct<id:int,g:geometry>", in, filepath.Join(dir, "out.orc"))
	t.Logf("%d bytes of WKT: peak RSS %.1f MiB (bound %.1f MiB), %v", fi.Size(), float64(rss)/(1<<20), float64(bound)/(1<<20), took)
	if rss > bound {
		t.Errorf("peak RSS %d bytes, over %d", rss, bound)
	}
}
