package reader

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestDeferredUnusableIndex checks the exact filter when a deferred
// column's row index, read at the stripe's first match, turns out unusable:
// the column is read from the stripe's start and brought to each run by
// skipping rows, and the rows match those of a scan without pruning.
func TestDeferredUnusableIndex(t *testing.T) {
	schema := orc.MustParseSchema("struct<k:bigint,s:string,l:array<int>>")
	// (A column without streams of its own, a struct, is covered by the
	// differential test.)
	const n = 20000
	b := orc.NewBatch(schema, n)
	k := b.Cols[0].(*orc.LongVector)
	s := b.Cols[1].(*orc.BytesVector)
	l := b.Cols[2].(*orc.ListVector)
	elem := l.Elem.(*orc.LongVector)
	l.Offsets = append(l.Offsets[:0], 0)
	for i := range n {
		k.Values = append(k.Values, int64(i))
		s.AppendString(fmt.Sprintf("row %d %s", i, bytes.Repeat([]byte{'x'}, i%50)))
		for j := range i % 4 {
			elem.Values = append(elem.Values, int64(i*10+j))
		}
		l.Offsets = append(l.Offsets, int64(len(elem.Values)))
	}
	b.NumRows = n
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(7000),
		writer.WithCompression(orc.CompressionZstd), writer.WithCompressionBlockSize(4<<10))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	where := "k BETWEEN 1500 AND 1700 OR k BETWEEN 4100 AND 4100 OR k BETWEEN 6990 AND 7010 OR k BETWEEN 12000 AND 13500"
	want := map[int64]bool{}
	for i := int64(0); i < n; i++ {
		if i >= 1500 && i <= 1700 || i == 4100 || i >= 6990 && i <= 7010 || i >= 12000 && i <= 13500 {
			want[i] = true
		}
	}
	for _, unusable := range []bool{false, true} {
		opts := []ScanOption{WithExactFilter(true), WithBatchSize(100), WithReadWindow(4 << 10)}
		if unusable {
			opts = append(opts, WithUnusableIndex(func(col int) bool { return col >= 2 })) // s and l (with its element)
		}
		e, err := sarg.Parse(where)
		if err != nil {
			t.Fatal(err)
		}
		br, err := r.NewBatchReader(append(opts, WithSearchArgument(e))...)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		out := br.NewBatch()
		for {
			if err := br.Next(out); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("unusable=%v: %v", unusable, err)
			}
			ks := out.Cols[0].(*orc.LongVector)
			ss := out.Cols[1].(*orc.BytesVector)
			ls := out.Cols[2].(*orc.ListVector)
			for i := range out.NumRows {
				v := ks.Values[i]
				if !want[v] {
					t.Fatalf("unusable=%v: row k=%d does not match", unusable, v)
				}
				if ss.String(i) != fmt.Sprintf("row %d %s", v, bytes.Repeat([]byte{'x'}, int(v%50))) ||
					ls.Offsets[i+1]-ls.Offsets[i] != v%4 {
					t.Fatalf("unusable=%v: row k=%d has s=%q and %d elements", unusable, v, ss.String(i), ls.Offsets[i+1]-ls.Offsets[i])
				}
				if v%4 > 0 && ls.Elem.(*orc.LongVector).Values[ls.Offsets[i]] != v*10 {
					t.Fatalf("unusable=%v: row k=%d: element %d", unusable, v, ls.Elem.(*orc.LongVector).Values[ls.Offsets[i]])
				}
				got++
			}
		}
		if got != len(want) {
			t.Errorf("unusable=%v: %d rows, want %d", unusable, got, len(want))
		}
		if st := br.Stats(); st.GroupsSkipped == 0 {
			t.Errorf("unusable=%v: nothing pruned: %+v", unusable, st)
		}
	}
}
