package ingest

import (
	"bufio"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

// Matching a header of n names to a struct of n fields, and the keys of a
// JSON object of n keys to them, takes time linear in n: 100,000 names
// took n^2 = 10^10 comparisons (over 20 s) before.
func TestWideHeaderAndObjectMatching(t *testing.T) {
	const n = 100000
	s := &orc.Schema{Kind: orc.Struct}
	rec := make([]string, n)
	obj := make(map[string]any, n)
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		s.FieldNames = append(s.FieldNames, name)
		s.Children = append(s.Children, &orc.Schema{Kind: orc.Long})
		// The header names the fields in reverse order, in upper case
		// for every other one (matched ignoring case).
		h := fmt.Sprintf("c%d", n-1-i)
		if i%2 == 1 {
			h = fmt.Sprintf("C%d", n-1-i)
		}
		rec[i] = h
		obj[name] = nil
	}
	s.Assign()
	b := orc.NewBatch(s, 1)
	rb := newRowBuilder(b, time.UTC)
	src := &csvSource{rb: rb}
	start := time.Now()
	if err := src.useHeader(rec, 1); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a header of %d names took %v", n, d)
	}
	for i, j := range src.order {
		if j != n-1-i {
			t.Fatalf("header column %d (%s) went to field %d, want %d", i, rec[i], j, n-1-i)
		}
	}
	start = time.Now()
	if err := rb.appendJSON(obj); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("an object of %d keys took %v", n, d)
	}
	obj["nope"] = nil
	if err := rb.appendJSON(obj); err == nil {
		t.Fatal("an unknown key was taken")
	}
}

// foldKey gives two strings one key exactly when strings.EqualFold says
// they are equal.
func TestFoldKey(t *testing.T) {
	words := []string{"k", "K", "\u212a", "s", "S", "\u017f", "straße", "STRASSE", "Straße", "é", "É", "σ", "Σ", "ς", "abc", "ABC", "aBc", "ǅ", "ǆ", "Ǆ", "", "x1", "X1"}
	for _, a := range words {
		for _, b := range words {
			if (foldKey(a) == foldKey(b)) != strings.EqualFold(a, b) {
				t.Errorf("%q, %q: keys %q, %q; EqualFold %v", a, b, foldKey(a), foldKey(b), strings.EqualFold(a, b))
			}
		}
	}
}

// TestInferWideLineGarbage infers the schema of one CSV line of 20,000
// integers and checks the bytes allocated a column: every field that is
// not a date or timestamp made an error value saying so, where the type
// tests only ask whether it is one: 816 bytes a column before, 446 now
// (the schema's nodes among them). The bound keeps a tenth over.
func TestInferWideLineGarbage(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const n = 20000
	var line strings.Builder
	for i := range n {
		if i > 0 {
			line.WriteByte(',')
		}
		fmt.Fprintf(&line, "%d", i%10)
	}
	line.WriteByte('\n')
	src := bufio.NewReader(strings.NewReader(line.String()))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	inf, _, err := Infer(src, CSV, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if inf.Schema.Kind != orc.Struct || len(inf.Schema.Children) != n || inf.Schema.Children[0].Kind != orc.Long {
		t.Fatalf("inferred %s...", inf.Schema.StringDepth(0))
	}
	per := int(after.TotalAlloc-before.TotalAlloc) / n
	t.Logf("%d bytes allocated a column", per)
	if per > 490 {
		t.Errorf("%d bytes allocated a column, want at most 490", per)
	}
}
