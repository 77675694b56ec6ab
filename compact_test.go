package orc_test

import (
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
)

// TestCompactSelection checks a batch's selection on random schemas of
// every type, nested with nulls at every level: row i of a batch with a
// selection reads as row Selected[i] of its vectors (Row, and so
// AppendJSONRow), Compact leaves the same rows moved to the front with the
// selection cleared, and Truncate cuts the selection.
func TestCompactSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 52))
	for trial := 0; trial < 200; trial++ {
		s := testutil.RandomSchema(rng, 6, 3)
		n := 1 + rng.IntN(60)
		orig := testutil.NewGenerator(rand.New(rand.NewPCG(uint64(trial), 1)), s).Batch(n)
		b := testutil.NewGenerator(rand.New(rand.NewPCG(uint64(trial), 1)), s).Batch(n)
		var rows []int32
		for i := range n {
			if rng.IntN(3) > 0 {
				rows = append(rows, int32(i))
			}
		}
		if len(rows) == 0 {
			continue
		}
		b.Selected, b.NumRows = rows, len(rows)
		want := make([]string, len(rows))
		for j, i := range rows {
			want[j] = string(reader.AppendJSONRow(nil, orig, int(i)))
			if got := string(reader.AppendJSONRow(nil, b, j)); got != want[j] {
				t.Fatalf("%s: selected row %d (vector row %d):\n got %s\nwant %s", s, j, i, got, want[j])
			}
		}
		b.Compact()
		if len(b.Selected) != 0 || b.NumRows != len(rows) {
			t.Fatalf("%s: after Compact, %d rows and a selection of %d", s, b.NumRows, len(b.Selected))
		}
		for j := range rows {
			if got := string(reader.AppendJSONRow(nil, b, j)); got != want[j] {
				t.Fatalf("%s: compacted row %d:\n got %s\nwant %s", s, j, got, want[j])
			}
		}
		// Truncate of a batch with a selection cuts the selection.
		b2 := testutil.NewGenerator(rand.New(rand.NewPCG(uint64(trial), 1)), s).Batch(n)
		b2.Selected, b2.NumRows = append([]int32(nil), rows...), len(rows)
		k := len(rows) / 2
		b2.Truncate(k)
		if b2.NumRows != k || len(b2.Selected) != k {
			t.Fatalf("Truncate(%d): %d rows, selection of %d", k, b2.NumRows, len(b2.Selected))
		}
		for j := range k {
			if got := string(reader.AppendJSONRow(nil, b2, j)); got != want[j] {
				t.Fatalf("%s: truncated row %d:\n got %s\nwant %s", s, j, got, want[j])
			}
		}
	}
}

// TestResetClearsSelection checks that Reset empties the selection and
// keeps its buffer.
func TestResetClearsSelection(t *testing.T) {
	b := orc.NewBatch(orc.MustParseSchema("struct<a:int>"), 4)
	b.Selected = append(make([]int32, 0, 8), 1, 3)
	b.NumRows = 2
	b.Reset()
	if len(b.Selected) != 0 || cap(b.Selected) != 8 || b.NumRows != 0 {
		t.Fatalf("after Reset: selection %v (cap %d), %d rows", b.Selected, cap(b.Selected), b.NumRows)
	}
	if b.Row(0) != 0 {
		t.Fatal("Row of a batch without a selection is not the identity")
	}
}
