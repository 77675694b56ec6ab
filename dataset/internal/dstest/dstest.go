// Package dstest makes the partitioned datasets that the tests of dataset
// and dataset/statsindex scan, and scans them.
package dstest

import (
	"bytes"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// File is a test file: its path in the dataset, its bytes, and its rows
// as the dataset returns them (read schema, then partition columns), as
// JSON.
type File struct {
	Name string
	Data []byte
	Rows []string
}

// ReadSchema is the datasets' read schema; OldSchema is the first half of
// their files', which lack "note" and have "qty" as int.
const (
	ReadSchema = "struct<id:bigint,qty:bigint,price:decimal(10,2),note:string>"
	OldSchema  = "struct<id:bigint,qty:int,price:decimal(10,2)>"
)

// MakeFiles writes a dataset partitioned by dt and region: months
// dt=2024-01-01 .. of regions, the first half of the files in OldSchema,
// sorted by path. Every file holds rows with ids from a range of its own.
func MakeFiles(t testing.TB, months, regions, rows int) []File {
	t.Helper()
	var files []File
	n := 0
	for m := range months {
		for g := range regions {
			old := n < months*regions/2
			sch := ReadSchema
			if old {
				sch = OldSchema
			}
			s := orc.MustParseSchema(sch)
			b := orc.NewBatch(s, rows)
			dt := time.Date(2024, time.Month(1+m), 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
			region := []string{"eu", "us west", "ap"}[g%3]
			var want []string
			for i := range rows {
				id := int64(n*rows + i)
				b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, id)
				q := b.Cols[1].(*orc.LongVector)
				q.Values = append(q.Values, id%50)
				q.Nulls.Nulls = append(q.Nulls.Nulls, i%9 == 0)
				p := b.Cols[2].(*orc.DecimalVector)
				p.Values = append(p.Values, orc.Int128FromInt64(id*7%100000))
				qty := fmt.Sprint(id % 50)
				if i%9 == 0 {
					qty = "null"
				}
				note := "null"
				if !old {
					b.Cols[3].(*orc.BytesVector).AppendString(fmt.Sprint("n", id%13))
					note = fmt.Sprintf("%q", fmt.Sprint("n", id%13))
				}
				want = append(want, fmt.Sprintf(`{"id": %d, "qty": %s, "price": %s, "note": %s, "dt": "%s", "region": %q}`,
					id, qty, orc.FormatDecimal(orc.Int128FromInt64(id*7%100000), 2), note, dt, region))
			}
			b.NumRows = rows
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(int64(rows/2)))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("dt=%s/region=%s/part-%05d.orc", dt, Escape(region), n)
			files = append(files, File{Name: name, Data: buf.Bytes(), Rows: want})
			n++
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files
}

// Escape escapes the spaces of a partition value as a Hive path does.
func Escape(s string) string {
	out := ""
	for _, r := range s {
		if r == ' ' {
			out += "%20"
		} else {
			out += string(r)
		}
	}
	return out
}

// Parts is the datasets' partitioning: dt, then region.
var Parts = orc.MustParseSchema("struct<dt:date,region:string>")

// NewDataset makes a dataset of files with ReadSchema and Parts.
func NewDataset(t testing.TB, files []dataset.File) *dataset.Dataset {
	t.Helper()
	d, err := dataset.New(files, dataset.WithSchema(orc.MustParseSchema(ReadSchema)), dataset.WithPartitioning(Parts))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ScanRows scans d and returns the rows as JSON, and the statistics.
func ScanRows(t testing.TB, d *dataset.Dataset, opts ...dataset.ScanOption) ([]string, dataset.Stats) {
	t.Helper()
	rows, st, _ := scan(t, d, opts)
	return rows, st
}

// ScanAll is ScanRows with the scan's pruning decisions (WithExplain).
func ScanAll(t testing.TB, d *dataset.Dataset, opts ...dataset.ScanOption) ([]string, dataset.Stats, string) {
	t.Helper()
	return scan(t, d, append(opts, dataset.WithExplain()))
}

func scan(t testing.TB, d *dataset.Dataset, opts []dataset.ScanOption) ([]string, dataset.Stats, string) {
	t.Helper()
	s, err := d.Scan(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rows []string
	for b, err := range s.All() {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, JSONRows(b)...)
	}
	return rows, s.Stats(), s.Explain()
}

// JSONRows returns b's rows as JSON, as the expected rows are written.
func JSONRows(b *orc.Batch) []string {
	var rows []string
	for i := range b.NumRows {
		rows = append(rows, string(reader.AppendJSONRow(nil, b, i)))
	}
	return rows
}

// Same fails t unless got holds the rows of want, in order.
func Same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d:\n got %s\nwant %s", what, i, got[i], want[i])
		}
	}
}

// LatencyFiles writes n small files of a few rows each, file i holding ids
// 10i to 10i+3 (columns id and name), named part-00000.orc and on: many
// files whose footers tell them apart, for the tests that count how a
// scan's opens overlap over a store with latency.
func LatencyFiles(t testing.TB, n int) []File {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,name:string>")
	var files []File
	for i := range n {
		b := orc.NewBatch(s, 4)
		var rows []string
		for k := range 4 {
			id := int64(10*i + k)
			b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, id)
			b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprint("row ", id))
			rows = append(rows, fmt.Sprintf(`{"id": %d, "name": "row %d"}`, id, id))
		}
		b.NumRows = 4
		files = append(files, File{Name: fmt.Sprintf("part-%05d.orc", i), Data: WriteORC(t, s, b), Rows: rows})
	}
	return files
}

// WriteORC returns an uncompressed ORC file of schema s holding batch b's
// rows, failing t if the writer fails.
func WriteORC(t testing.TB, s *orc.Schema, b *orc.Batch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionNone))
	if err == nil {
		err = w.Write(b)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
