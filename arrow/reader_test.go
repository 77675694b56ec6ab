package orcarrow_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// salesFile writes n rows of struct<id:bigint,name:string,price:decimal(10,2),tags:array<string>>.
func salesFile(tb testing.TB, n int) []byte {
	tb.Helper()
	s := orc.MustParseSchema("struct<id:bigint,name:string,price:decimal(10,2),tags:array<string>>")
	b := orc.NewBatch(s, n)
	id := b.Cols[0].(*orc.LongVector)
	name := b.Cols[1].(*orc.BytesVector)
	price := b.Cols[2].(*orc.DecimalVector)
	tags := b.Cols[3].(*orc.ListVector)
	elem := tags.Elem.(*orc.BytesVector)
	tags.Offsets = append(tags.Offsets[:0], 0)
	for i := range n {
		id.Values = append(id.Values, int64(i))
		if i%7 == 3 {
			name.AppendNull()
		} else {
			name.AppendString(fmt.Sprintf("name-%d", i%100))
		}
		price.Values = append(price.Values, orc.Int128FromInt64(int64(i*13)))
		for j := range i % 3 {
			elem.AppendString(fmt.Sprint("t", j))
		}
		tags.Offsets = append(tags.Offsets, int64(elem.Len()))
	}
	b.NumRows = n
	return writeORC(tb, s, []*orc.Batch{b}, writer.WithRowIndexStride(1000))
}

// TestPrunedFilteredScan reads a projected scan with a search argument and
// the exact filter through Arrow and compares it with the batch API's, for
// plain comparisons and for functions of columns (spec.md 7.17).
func TestPrunedFilteredScan(t *testing.T) {
	data := salesFile(t, 20000)
	r := openORC(t, data)
	for _, c := range []struct {
		where string
		rows  int // -1: some
	}{
		{"id >= 12345 AND id < 12400 AND name = 'name-50'", 1}, // id 12350
		{"id * 2 BETWEEN 24690 AND 24798 AND LOWER(name) = 'name-50'", 1},
		{"id - 12345 < 55 AND id + 0 >= 12345 AND UPPER(name) LIKE 'NAME-5%' AND LENGTH(name) = 7", -1},
	} {
		scan := []reader.ScanOption{
			reader.WithColumns("id", "name"),
			reader.WithSearchArgument(sarg.MustParse(c.where)),
			reader.WithExactFilter(true),
			reader.WithBatchSize(16),
		}
		want := orcRows(t, r, scan...)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := orcarrow.FromReader(r, orcarrow.WithAllocator(mem), orcarrow.WithScanOptions(scan...))
		if err != nil {
			t.Fatal(err)
		}
		if got := rr.Schema().String(); !strings.Contains(got, "id: type=int64") || strings.Contains(got, "price") {
			t.Fatalf("schema not projected: %s", got)
		}
		var got []any
		proj, _ := orcarrow.ORCSchema(rr.Schema())
		for rr.Next() {
			validate(t, rr.RecordBatch())
			got = append(got, recordRows(proj, rr.RecordBatch())...)
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		if c.rows >= 0 && len(got) != c.rows || len(got) == 0 {
			t.Fatalf("%s: got %d rows, want %d: %v", c.where, len(got), c.rows, got)
		}
		if d := testutil.Diff(want, got); d != "" {
			t.Fatalf("%s: %s", c.where, d)
		}
		if st := rr.Stats(); st.GroupsSkipped == 0 || st.RowsReturned != int64(len(got)) {
			t.Fatalf("%s: scan did not prune: %v", c.where, st)
		}
		rr.Release()
		mem.AssertSize(t, 0)
	}
}

// TestRecordsOutliveNext keeps every record of a scan and checks them after
// the scan has ended: records alias decoded vectors, so the reader must never
// decode into a batch an earlier record still uses.
func TestRecordsOutliveNext(t *testing.T) {
	scans := map[string][]reader.ScanOption{
		"serial":  nil,
		"stripes": {reader.WithParallelism(2)},
		"columns": {reader.WithColumnParallelism(2)},
	}
	for name, scan := range scans {
		for _, reuse := range []bool{false, true} {
			t.Run(fmt.Sprint(name, "/reuse=", reuse), func(t *testing.T) { recordsOutliveNext(t, reuse, scan) })
		}
	}
}

func recordsOutliveNext(t *testing.T, reuse bool, scan []reader.ScanOption) {
	data := salesFile(t, 5000)
	r := openORC(t, data)
	want := orcRows(t, r, reader.WithBatchSize(100))
	br, err := r.NewBatchReader(append([]reader.ScanOption{reader.WithBatchSize(100)}, scan...)...)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rr, err := orcarrow.NewRecordReader(br, orcarrow.WithReuse(reuse), orcarrow.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	var kept []arrow.RecordBatch
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		kept = append(kept, rec)
	}
	rr.Release()
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	s := r.Schema()
	var got []any
	for _, rec := range kept {
		validate(t, rec)
		got = append(got, recordRows(s, rec)...)
		rec.Release()
	}
	if d := testutil.Diff(want, got); d != "" {
		t.Fatal(d)
	}
	if rr.Next() {
		t.Fatal("Next after Release returned a record")
	}
}

// TestReadErrors checks that data Arrow cannot hold is an error naming the
// column and row, not a panic or a wrong value.
func TestReadErrors(t *testing.T) {
	cases := []struct {
		schema string
		fill   func(b *orc.Batch)
		want   string
	}{
		{"struct<t:timestamp>", func(b *orc.Batch) {
			v := b.Cols[0].(*orc.TimestampVector)
			v.Seconds = append(v.Seconds, 0, 32503680000) // 3000-01-01
			v.Nanos = append(v.Nanos, 0, 0)
		}, `column "t": row 1: timestamp`},
		{"struct<s:struct<t:timestamp with local time zone>>", func(b *orc.Batch) {
			sv := b.Cols[0].(*orc.StructVector)
			v := sv.Fields[0].(*orc.TimestampVector)
			v.Seconds = append(v.Seconds, -10_000_000_000, 0)
			v.Nanos = append(v.Nanos, 0, 0)
			sv.N = 2
		}, `column "s.t": row 0`},
		{"struct<m:map<string,int>>", func(b *orc.Batch) {
			mv := b.Cols[0].(*orc.MapVector)
			k := mv.Keys.(*orc.BytesVector)
			k.AppendString("a")
			k.AppendNull()
			mv.Values.(*orc.LongVector).Values = append(mv.Values.(*orc.LongVector).Values, 1, 2)
			mv.Offsets = append(mv.Offsets, 0, 2)
		}, `column "m": a map key is null`},
	}
	for _, c := range cases {
		s := orc.MustParseSchema(c.schema)
		b := orc.NewBatch(s, 2)
		c.fill(b)
		b.NumRows = b.Cols[0].Len()
		data := writeORC(t, s, []*orc.Batch{b})
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := orcarrow.FromReader(openORC(t, data), orcarrow.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		for rr.Next() {
		}
		if err := rr.Err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.schema, err, c.want)
		}
		rr.Release()
		mem.AssertSize(t, 0)
	}
}

// TestConvert converts one batch directly and checks options.
func TestConvert(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,b:string>")
	b := orc.NewBatch(s, 4)
	b.Cols[0].(*orc.LongVector).Values = []int64{1, 2, 3}
	b.Cols[0].(*orc.LongVector).Nulls.Nulls = []bool{false, true, false}
	bv := b.Cols[1].(*orc.BytesVector)
	bv.AppendString("x")
	bv.AppendString("")
	bv.AppendNull()
	b.NumRows = 3
	rec, err := orcarrow.Convert(s, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	validate(t, rec)
	if got, want := fmt.Sprint(recordRows(s, rec)), "[[1 x] [<nil> ] [3 <nil>]]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	// a decimal vector at another scale than its column's is rescaled
	ds := orc.MustParseSchema("struct<d:decimal(10,3)>")
	db := orc.NewBatch(ds, 2)
	dv := db.Cols[0].(*orc.DecimalVector)
	dv.Scale = 1
	dv.Values = []orc.Int128{orc.Int128FromInt64(-15), orc.Int128FromInt64(7)}
	db.NumRows = 2
	drec, err := orcarrow.Convert(ds, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer drec.Release()
	if got := fmt.Sprint(recordRows(ds, drec)); got != "[[{{-1 18446744073709550116} 3}] [{{0 700} 3}]]" {
		t.Fatalf("rescaled decimals: %s", got)
	}
	dv.Scale = 5
	if _, err := orcarrow.Convert(ds, db, nil); err == nil || !strings.Contains(err.Error(), "scale 3") {
		t.Fatalf("inexact rescale: got %v", err)
	}

	b.NumRows = 4
	if _, err := orcarrow.Convert(s, b, nil); err == nil {
		t.Fatal("a batch whose vectors are short was accepted")
	}
	if _, err := orcarrow.FromReader(openORC(t, salesFile(t, 1)), orcarrow.WithAllocator(nil)); err == nil {
		t.Fatal("nil allocator accepted")
	}
	br, err := openORC(t, salesFile(t, 1)).NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	if _, err := orcarrow.NewRecordReader(nil); err == nil {
		t.Fatal("nil BatchReader accepted")
	}
	if _, err := orcarrow.FromReader(nil); err == nil {
		t.Fatal("nil Reader accepted")
	}
	if _, err := orcarrow.NewRecordReader(br, orcarrow.WithScanOptions(reader.WithBatchSize(5))); err == nil {
		t.Fatal("scan options on a started scan accepted")
	}
}

// TestZeroCopy checks that bigint, double and string values are shared with
// the decoded batch, not copied from the allocator (and copied with
// WithReuse).
func TestZeroCopy(t *testing.T) {
	s := orc.MustParseSchema("struct<i:bigint,d:double,s:string>")
	const n = 1000
	b := orc.NewBatch(s, n)
	long := strings.Repeat("x", 100)
	for i := range n {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		b.Cols[1].(*orc.DoubleVector).Values = append(b.Cols[1].(*orc.DoubleVector).Values, float64(i))
		b.Cols[2].(*orc.BytesVector).AppendString(long)
	}
	b.NumRows = n
	data := writeORC(t, s, []*orc.Batch{b})
	for _, reuse := range []bool{false, true} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := orcarrow.FromReader(openORC(t, data), orcarrow.WithAllocator(mem), orcarrow.WithReuse(reuse),
			orcarrow.WithScanOptions(reader.WithBatchSize(n)))
		if err != nil {
			t.Fatal(err)
		}
		if !rr.Next() {
			t.Fatal(rr.Err())
		}
		got := mem.CurrentAlloc()
		shared := n*8 + n*8 + n*len(long)
		if !reuse && got >= shared/10 {
			t.Errorf("default: %d bytes from the allocator for %d bytes of values", got, shared)
		}
		if reuse && got < shared {
			t.Errorf("WithReuse: %d bytes from the allocator, want at least the %d bytes of values", got, shared)
		}
		rr.Release()
		mem.AssertSize(t, 0)
	}
}
