package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// A column's type in meta is written one level deep (nested compound types
// as struct<...>), so that the types of a chain of nested structs print in
// size linear in its columns, where each line repeated its whole
// subtree's type. (Column names are dotted paths, as long as the depth.)
func TestMetaNestedTypesLinear(t *testing.T) {
	const depth, fields = 100, 10
	var sb strings.Builder
	for d := range depth {
		sb.WriteString("struct<")
		for f := range fields {
			fmt.Fprintf(&sb, "f%d_%d:int,", d, f)
		}
		sb.WriteString("next:")
	}
	sb.WriteString("int")
	sb.WriteString(strings.Repeat(">", depth))
	s := orc.MustParseSchema("struct<top:" + sb.String() + ">")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1)
	b.NumRows = 0
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chain.orc")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"meta", "--json", "--no-stripes", path}, &out, &errOut); code != 0 {
		t.Fatalf("meta --json: exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Columns []struct {
			Type string `json:"type"`
		} `json:"columns"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// Every column's children are written once, at their parent: the
	// types of all columns together are about the schema's length (they
	// were depth/2 times it).
	total := 0
	for _, c := range doc.Columns {
		total += len(c.Type)
	}
	if limit := 2 * len(s.String()); total > limit {
		t.Errorf("the columns' types take %d bytes, over %d (twice the schema's)", total, limit)
	}
	if got := doc.Columns[1].Type; !strings.HasPrefix(got, "struct<f0_0:int,") || !strings.HasSuffix(got, ",next:struct<...>>") {
		t.Errorf("column 1's type: %.80s...", got)
	}
	if got := doc.Columns[2].Type; got != "int" {
		t.Errorf("column 2's type: %s", got)
	}
	out.Reset()
	if code := run([]string{"meta", "--no-stripes", path}, &out, &errOut); code != 0 {
		t.Fatalf("meta: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "  1 top                      struct<f0_0:int,") {
		t.Errorf("meta's column 1:\n%.400s", out.String())
	}
}

// orc meta of a file of 100,000 nested columns (500 structs of 200 int
// fields, no rows: a 371 KB file) prints output linear in the columns
// (87 bytes a column in text, 210 in JSON) and its peak heap is at most 72
// bytes a column above the live heap of an open reader of the file (the
// schema and the tail, 15 MiB): columns and their names are produced one
// at a time, not kept in slices of every column, the JSON writer lets go
// of the megabyte buffer of the file's head, and the head's schema (1.3
// MB here) is written as it is, not through fmt's buffer or the JSON
// encoder's and indenter's at once. Measured 18-46 bytes a column (a
// fresh-clone CI run had caught 68 in text and 87 in JSON before the
// schema was written apart); it was 88-103. With nothing else to make its heap small (meta
// set GOGC 50 for that), such a file peaks at 54 MiB RSS (62 MiB before),
// within the bound of 64 MiB + 8x the file. -short: 10,000 columns, the
// output's size only (the heap of so few columns is mostly noise).
func TestMetaWideNestedMemory(t *testing.T) {
	structs, fields := 500, 200
	if testing.Short() {
		structs = 50
	}
	var sb strings.Builder
	sb.WriteString("struct<")
	for i := range structs {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "s%d:struct<", i)
		for j := range fields {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "f%d:int", j)
		}
		sb.WriteByte('>')
	}
	sb.WriteByte('>')
	s := orc.MustParseSchema(sb.String())
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wide.orc")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cols := s.MaxID() + 1
	// held is the live heap of an open reader of the file.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(r)
	held := after.HeapAlloc - before.HeapAlloc
	for _, args := range [][]string{{path}, {"--json", path}} {
		// The least peak of two runs: a forced collection counts as live
		// what is allocated while it marks, so on a loaded machine (go
		// test runs packages side by side) a sample can only come out
		// high (73 bytes a column once, 29-45 alone).
		var out countingWriter
		peak := uint64(math.MaxUint64)
		for range 2 {
			out = countingWriter{}
			peak = min(peak, peakHeap(func() {
				if err := runMeta(args, &out, io.Discard); err != nil {
					t.Fatal(err)
				}
			}))
		}
		extra := (int64(peak) - int64(held)) / int64(cols)
		t.Logf("meta %v of %d columns (%d bytes): %d bytes out (%d a column), peak heap %.1f MiB, the reader's %.1f MiB: %d B a column more",
			args[:len(args)-1], cols, buf.Len(), out.n, out.n/int64(cols), float64(peak)/(1<<20), float64(held)/(1<<20), extra)
		if out.n > 300*int64(cols) {
			t.Errorf("meta %v: %d bytes out for %d columns, over 300 a column", args[:len(args)-1], out.n, cols)
		}
		if extra > 72 && !testing.Short() {
			t.Errorf("meta %v: the peak heap is %d bytes a column above the reader's, over 72", args[:len(args)-1], extra)
		}
	}
}

// TestJSONStringPieces: a string written a piece at a time is the JSON
// the encoder gives for it whole, for long strings of multi-byte
// characters cut anywhere, escapes and invalid bytes.
func TestJSONStringPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 52))
	parts := []string{"a", "é", "€", "😀", `"`, `\`, "\n", "\x01", "\u2028", "<>&", "\xff", "\xe2\x82", "struct<`x y`:int>"}
	for range 40 {
		var sb strings.Builder
		for sb.Len() < 40_000+r.IntN(100_000) {
			sb.WriteString(parts[r.IntN(len(parts))])
		}
		s := sb.String()
		var out bytes.Buffer
		j := &jsonOut{w: &out}
		j.stringValue(s)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if j.err != nil || out.String() != strings.TrimSuffix(want.String(), "\n") {
			t.Fatalf("a string of %d bytes: written in pieces it differs from the encoder's JSON (err %v)", len(s), j.err)
		}
	}
}
