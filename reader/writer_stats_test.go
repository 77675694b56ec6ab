package reader_test

// Statistics written by package writer, read back at every level (row
// group from the ROW_INDEX streams, stripe from the metadata section, file
// from the footer) and compared with statistics recomputed from the written
// values by testutil's reference implementation.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/stats"
	"github.com/orcgo/orc/writer"
)

// rowIndexes decodes the ROW_INDEX streams of stripe i, by column id.
func rowIndexes(t testing.TB, r *reader.Reader, data []byte, i int) map[int]*orcpb.RowIndex {
	t.Helper()
	d, err := r.StripeDetail(i)
	if err != nil {
		t.Fatalf("StripeDetail(%d): %v", i, err)
	}
	var dec format.Decompressor
	if r.Compression() != orc.CompressionNone {
		if dec, err = format.NewDecompressor(r.Compression()); err != nil {
			t.Fatal(err)
		}
	}
	out := map[int]*orcpb.RowIndex{}
	for _, s := range d.Streams {
		if s.Kind != orcpb.Stream_ROW_INDEX.String() {
			continue
		}
		raw := data[s.Offset : s.Offset+s.Length]
		in := format.NewInStream(format.StreamInfo{Name: s.Kind, FileOffset: s.Offset, Stripe: i, Column: s.Column},
			raw, r.Compression(), r.CompressionBlockSize(), dec)
		b, err := format.ReadAll(in, 64<<20)
		if err != nil {
			t.Fatalf("stripe %d column %d: ROW_INDEX: %v", i, s.Column, err)
		}
		ri := &orcpb.RowIndex{}
		if err := proto.Unmarshal(b, ri); err != nil {
			t.Fatalf("stripe %d column %d: ROW_INDEX: %v", i, s.Column, err)
		}
		if _, dup := out[s.Column]; dup {
			t.Errorf("stripe %d: two ROW_INDEX streams for column %d", i, s.Column)
		}
		out[s.Column] = ri
	}
	return out
}

// dataBytes sums the lengths of the data-area streams of each column.
func dataBytes(d *reader.StripeDetail) map[int]uint64 {
	m := map[int]uint64{}
	for _, s := range d.Streams {
		switch s.Kind {
		case "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8":
			continue
		}
		m[s.Column] += uint64(s.Length)
	}
	return m
}

// stored returns the reference statistics as a file stores them (string
// bounds cut at 1,024 bytes).
func stored(c stats.Column) stats.Column {
	if c.String != nil {
		s := *c.String
		testutil.StoredString(&s)
		c.String = &s
	}
	return c
}

// mergeDiff compares merged lower-level statistics with the level above.
// Truncated string bounds may merge into a looser (still valid) bound than
// the one computed from the exact values, so with bounds involved the
// merged range need only contain the upper level's.
func mergeDiff(merged, upper stats.Column) string {
	merged.BytesOnDisk = upper.BytesOnDisk
	if m, u := merged.String, upper.String; m != nil && u != nil &&
		(m.MinIsLowerBound || m.MaxIsUpperBound || u.MinIsLowerBound || u.MaxIsUpperBound) {
		if m.HasMin != u.HasMin || m.HasMax != u.HasMax || m.Min > u.Min || m.Max < u.Max {
			return fmt.Sprintf("merged string bounds %+v do not contain %+v", *m, *u)
		}
		c := *m
		c.Min, c.Max, c.MinIsLowerBound, c.MaxIsUpperBound = u.Min, u.Max, u.MinIsLowerBound, u.MaxIsUpperBound
		merged.String = &c
	}
	return testutil.StatsDiff(merged, upper, false)
}

// checkStatistics checks every level of statistics of a written file
// against the rows written. It returns how many row-group string
// statistics held truncated bounds.
func checkStatistics(t *testing.T, data []byte, schema *orc.Schema, rows []any) (bounds int) {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	cols := r.Schema().Columns()
	flat := testutil.Flatten(r.Schema(), rows)
	info := stats.WriterInfoFromTail(r.Tail().PostScript, r.Tail().Footer)
	stride := r.RowIndexStride()
	errs := 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
		if errs++; errs >= 8 {
			t.Fatalf("too many errors; schema %s", schema)
		}
	}
	if !r.HasStripeStatistics() && len(r.Stripes()) > 0 {
		t.Fatalf("no stripe statistics")
	}
	fileParts := make([][]stats.Column, len(cols))
	fileGot := make([]*stats.Column, len(cols))
	fileBytes := make([]uint64, len(cols))
	row := 0
	for si, st := range r.Stripes() {
		detail, err := r.StripeDetail(si)
		if err != nil {
			t.Fatal(err)
		}
		onDisk := dataBytes(detail)
		var index map[int]*orcpb.RowIndex
		if stride > 0 {
			index = rowIndexes(t, r, data, si)
		}
		n := int(st.NumRows)
		for id, node := range cols {
			// Row groups.
			var groups []stats.Column
			var merged *stats.Column
			if stride > 0 {
				ri := index[id]
				want := (n + stride - 1) / stride
				if ri == nil || len(ri.GetEntry()) != want {
					fail("stripe %d column %d: row index has %d entries, want %d", si, id, len(ri.GetEntry()), want)
					continue
				}
				for k, e := range ri.GetEntry() {
					from, to := row+k*stride, min(row+(k+1)*stride, row+n)
					ref := testutil.RefStats(node, flat.Range(id, from, to))
					groups = append(groups, ref)
					got := stats.FromProto(e.GetStatistics(), node, info)
					if got.String != nil && (got.String.MinIsLowerBound || got.String.MaxIsUpperBound) {
						bounds++
					}
					if d := testutil.StatsDiff(stored(ref), got, true); d != "" {
						fail("stripe %d column %d (%s) group %d: %s", si, id, node, k, d)
					}
					if merged == nil {
						merged = &got
					} else {
						merged.Merge(&got)
					}
				}
			} else {
				groups = []stats.Column{testutil.RefStats(node, flat.Range(id, row, row+n))}
			}
			// Stripe.
			ref := testutil.RefMerge(node, groups, flat.Range(id, row, row+n))
			ref.BytesOnDisk = onDisk[id]
			fileParts[id] = append(fileParts[id], ref)
			fileBytes[id] += onDisk[id]
			got, ok := r.StripeStatistics(si, id)
			if !ok {
				fail("stripe %d column %d: no statistics", si, id)
				continue
			}
			if got.BytesOnDisk != onDisk[id] {
				fail("stripe %d column %d: bytes_on_disk %d, streams hold %d", si, id, got.BytesOnDisk, onDisk[id])
			}
			if d := testutil.StatsDiff(stored(ref), got, false); d != "" {
				fail("stripe %d column %d (%s): %s", si, id, node, d)
			}
			if merged != nil {
				if d := mergeDiff(*merged, got); d != "" {
					fail("stripe %d column %d (%s): merged row groups differ from the stripe: %s", si, id, node, d)
				}
			}
			if fileGot[id] == nil {
				c := got
				fileGot[id] = &c
			} else {
				fileGot[id].Merge(&got)
			}
		}
		row += n
	}
	// File.
	for id, node := range cols {
		ref := testutil.RefMerge(node, fileParts[id], flat.Items[id])
		ref.BytesOnDisk = fileBytes[id]
		got, ok := r.Statistics(id)
		if !ok {
			fail("column %d: no file statistics", id)
			continue
		}
		if got.BytesOnDisk != fileBytes[id] {
			fail("column %d: file bytes_on_disk %d, streams hold %d", id, got.BytesOnDisk, fileBytes[id])
		}
		if d := testutil.StatsDiff(stored(ref), got, false); d != "" {
			fail("column %d (%s): file: %s", id, node, d)
		}
		if fileGot[id] != nil {
			if d := mergeDiff(*fileGot[id], got); d != "" {
				fail("column %d (%s): merged stripes differ from the file: %s", id, node, d)
			}
		}
	}
	return bounds
}

// TestWriterStatisticsRandom checks the statistics of random files.
func TestWriterStatisticsRandom(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 20
	}
	for seed := 0; seed < seeds; seed++ {
		f := randomFile(uint64(1000 + seed))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			data := writeFile(t, f)
			checkStatistics(t, data, f.schema, f.rows)
			if t.Failed() {
				t.Logf("schema %s, %s", f.schema, f.desc)
			}
		})
	}
}

// TestWriterStatisticsAllTypes checks the statistics of every type, with
// several stripes and partial last row groups.
func TestWriterStatisticsAllTypes(t *testing.T) {
	for i, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		t.Run(codec.String(), func(t *testing.T) {
			f := allTypesFile(uint64(i), codec)
			data := writeFile(t, f)
			checkStatistics(t, data, f.schema, f.rows)
		})
	}
}

// TestWriterStatisticsLongStrings checks string statistics whose minimum or
// maximum is longer than 1,024 bytes, stored as truncated bounds.
func TestWriterStatisticsLongStrings(t *testing.T) {
	bounds := 0
	for seed := 0; seed < 6; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		s := orc.MustParseSchema("struct<a:string,b:string,c:string,d:struct<e:string>,f:array<string>>")
		g := testutil.NewGenerator(r, s)
		f := &fileSpec{schema: s, opts: []writer.Option{writer.WithRowIndexStride(100), writer.WithStripeRowLimit(450),
			writer.WithCompression(allCodecs[seed%len(allCodecs)])}}
		for i := 0; i < 4; i++ {
			b := g.Batch(260)
			f.batches = append(f.batches, b)
			f.rows = append(f.rows, testutil.Rows(s, b, true)...)
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			bounds += checkStatistics(t, writeFile(t, f), s, f.rows)
		})
	}
	if bounds == 0 {
		t.Errorf("no truncated string bounds were written; the test does not cover them")
	}
	t.Logf("%d row groups with truncated string bounds", bounds)
}
