package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc/geo"
)

// The WKB of a WKT text is built in one buffer of wkbSizeBound bytes: it
// never grows (which copied five times its size on a long line).
func TestWKBSizeBound(t *testing.T) {
	for _, wkt := range []string{
		"POINT (1 2)", "POINT EMPTY", "POINT Z (1 2 3)", "POINT (NaN NaN)",
		"LINESTRING (0 0, 1 1, 2 2)", "POLYGON ((0 0, 1 0, 1 1, 0 0), (0.1 0.1, 0.2 0.1, 0.2 0.2, 0.1 0.1))",
		"MULTIPOINT ((1 2), (3 4))", "MULTIPOINT (1 2, 3 4)", "MULTIPOLYGON Z (((0 0 1, 1 0 1, 1 1 1, 0 0 1)))",
		"GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1), GEOMETRYCOLLECTION EMPTY)",
		"MULTILINESTRING ZM ((0 0 0 0, 1 1 1 1))", "LINESTRING(-1.5e3 +2,3 4)",
	} {
		got, err := parseGeometryText(wkt)
		if err != nil {
			t.Fatalf("%s: %v", wkt, err)
		}
		want, err := geo.AppendWKB(nil, wkt)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%s: the WKB differs (%v)", wkt, err)
		}
		if bound := wkbSizeBound(wkt); len(got) > bound || cap(got) != bound {
			t.Errorf("%s: %d bytes of WKB, bound %d, capacity %d", wkt, len(got), bound, cap(got))
		}
	}
}

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
