package statsindex_test

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// editIndex rewrites an index file with edit applied to its rows (one
// batch), keeping its schema and header.
func editIndex(t *testing.T, data []byte, edit func(b *orc.Batch)) []byte {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader(reader.WithBatchSize(int(r.NumRows())))
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		t.Fatal(err)
	}
	edit(b)
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, r.Schema(), writer.WithRowIndexStride(1024))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.UserMetadata() {
		if err := w.AddUserMetadata(m.Key, m.Value); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Entries of the index that no footer could hold (inverted bounds, a
// negative count) are ignored with a warning and their files opened,
// as the reader ignores such footer statistics (spec.md 5.7): they rule
// no file out, at the entry or through the index's row groups.
func TestIndexImpossibleEntries(t *testing.T) {
	files := makeFiles(t, 2, 2, 500) // files 2 and 3 have note; qty has nulls
	byName := map[string][]byte{}
	var listed []dataset.File
	for _, f := range files {
		byName[f.name] = f.data
		name := f.name
		listed = append(listed, dataset.File{Name: name, Size: int64(len(f.data)), Version: "v1",
			Open: func() (io.ReaderAt, int64, io.Closer, error) {
				return bytes.NewReader(byName[name]), int64(len(byName[name])), nil, nil
			}})
	}
	var ix bytes.Buffer
	if _, err := statsindex.Write(newDataset(t, listed).IndexSource(), &ix); err != nil {
		t.Fatal(err)
	}
	col := func(b *orc.Batch, name string) orc.Vector { return b.Col(name) }
	for _, tc := range []struct {
		name, where string
		edit        func(b *orc.Batch)
		want        string // in the warning
	}{
		// c3 is note: every entry's text bounds inverted, so that the
		// index's row group rules them all out.
		{"inverted text bounds", "note = 'n5'", func(b *orc.Batch) {
			mn, mx := col(b, "c3_min").(*orc.BytesVector), col(b, "c3_max").(*orc.BytesVector)
			nmn, nmx := &orc.BytesVector{}, &orc.BytesVector{}
			for range b.NumRows {
				nmn.AppendString("o")
				nmx.AppendString("m")
			}
			*mn, *mx = *nmn, *nmx
		}, "minimum"},
		// c1 is qty: a negative null count read as "no nulls".
		{"negative null count", "qty IS NULL", func(b *orc.Batch) {
			v := col(b, "c1_nulls").(*orc.LongVector)
			for i := range b.NumRows {
				if !v.IsNull(i) {
					v.Values[i] = -1
				}
			}
		}, "null count"},
		{"negative value count", "qty = 7", func(b *orc.Batch) {
			v := col(b, "c1_values").(*orc.LongVector)
			for i := range b.NumRows {
				v.Values[i] = -5
			}
		}, "value count"},
		{"inverted integer bounds", "id = 1700", func(b *orc.Batch) {
			mn, mx := col(b, "c0_min").(*orc.LongVector), col(b, "c0_max").(*orc.LongVector)
			for i := range b.NumRows {
				mn.Values[i], mx.Values[i] = mx.Values[i], mn.Values[i]
			}
		}, "minimum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := editIndex(t, ix.Bytes(), tc.edit)
			d, err := dataset.New(listed, dataset.WithSchema(orc.MustParseSchema(readSchema)), dataset.WithPartitioning(parts),
				dataset.WithIndex("idx", func() (io.ReaderAt, int64, io.Closer, error) {
					return bytes.NewReader(bad), int64(len(bad)), nil, nil
				}))
			if err != nil {
				t.Fatal(err)
			}
			where := sarg.MustParse(tc.where)
			want, _ := scanRows(t, d, dataset.WithSearchArgument(where), dataset.WithIndexLookup(false), dataset.WithExactFilter(true))
			if len(want) == 0 {
				t.Fatal("the query matches no row")
			}
			got, st := scanRows(t, d, dataset.WithSearchArgument(where), dataset.WithExactFilter(true))
			if !st.IndexUsed || !slices.Equal(got, want) {
				t.Fatalf("through the index: %d rows, want %d (%+v)", len(got), len(want), st)
			}
			if !strings.Contains(st.IndexWarning, tc.want) || !strings.Contains(st.IndexWarning, "part-") {
				t.Fatalf("warning %q, want one naming the file and %q", st.IndexWarning, tc.want)
			}
		})
	}
}
