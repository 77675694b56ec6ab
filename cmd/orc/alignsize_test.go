package main

// What aligned row groups (writer.WithAlignedRowGroups) cost in file size:
// the demo table and, given a file of it, the bench lineitem table are
// written with alignment on and off, and the bytes of each column's
// streams (summed over the stripe footers) are printed side by side. Not
// run by default:
//
//	ORCGO_ALIGN_SIZE=1 go test ./cmd/orc -run TestAlignSize -v
//	ORCGO_ALIGN_SIZE=1 ORCGO_ALIGN_LINEITEM=/tmp/alignbench/orcgo-zstd.orc go test ./cmd/orc -run TestAlignSize -v
//
// ORCGO_ALIGN_ROWS sets the demo's rows (default 3,000,000, as orc demo).
// The lineitem file (from `cd bench && go run . -keep -dir DIR ...`) is
// read back and rewritten with the bench's writer settings.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// columnBytes is what a file's stripes hold per column id.
type columnBytes struct {
	data, index []int64
	size        int64
}

func measureColumns(t *testing.T, data []byte) columnBytes {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	n := r.Schema().MaxID() + 1
	cb := columnBytes{data: make([]int64, n), index: make([]int64, n), size: int64(len(data))}
	for i := range r.Stripes() {
		d, err := r.StripeDetail(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Streams {
			switch s.Kind {
			case "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8":
				cb.index[s.Column] += s.Length
			default:
				cb.data[s.Column] += s.Length
			}
		}
	}
	return cb
}

// printAlignTable logs per column the data bytes off and on, then totals.
func printAlignTable(t *testing.T, title string, s *orc.Schema, off, on columnBytes) {
	t.Helper()
	var b strings.Builder
	pct := func(a, b int64) string {
		if a == 0 {
			return "-"
		}
		return fmt.Sprintf("%+.2f%%", 100*float64(b-a)/float64(a))
	}
	fmt.Fprintf(&b, "\n%s\n| column | data off | data on | change | index off | index on |\n|---|---:|---:|---:|---:|---:|\n", title)
	var doff, don, ioff, ion int64
	names := map[int]string{0: "(root)"}
	var walk func(n *orc.Schema, prefix string)
	walk = func(n *orc.Schema, prefix string) {
		for i, k := range n.Children {
			name := fmt.Sprint(i)
			if i < len(n.FieldNames) {
				name = n.FieldNames[i]
			}
			names[k.ID()] = prefix + name
			walk(k, prefix+name+".")
		}
	}
	walk(s, "")
	for _, node := range s.Columns() {
		id := node.ID()
		name := names[id]
		fmt.Fprintf(&b, "| %d %s | %d | %d | %s | %d | %d |\n", id, name, off.data[id], on.data[id],
			pct(off.data[id], on.data[id]), off.index[id], on.index[id])
		doff += off.data[id]
		don += on.data[id]
		ioff += off.index[id]
		ion += on.index[id]
	}
	fmt.Fprintf(&b, "| all data streams | %d | %d | %s | %d | %d |\n", doff, don, pct(doff, don), ioff, ion)
	fmt.Fprintf(&b, "| whole file | %d | %d | %s | | |\n", off.size, on.size, pct(off.size, on.size))
	if on.size > off.size+off.size/50 {
		fmt.Fprintf(&b, "aligned file is %s larger: over the 2%% budget\n", pct(off.size, on.size))
	}
	t.Log(b.String())
}

func TestAlignSize(t *testing.T) {
	if os.Getenv("ORCGO_ALIGN_SIZE") == "" {
		t.Skip("set ORCGO_ALIGN_SIZE=1 to measure the cost of aligned row groups")
	}
	rows := int64(3_000_000)
	if v := os.Getenv("ORCGO_ALIGN_ROWS"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		rows = n
	}
	codecs := []orc.CompressionKind{orc.CompressionZstd, orc.CompressionSnappy}
	schema := orc.MustParseSchema(ordersSchemaText)
	for _, codec := range codecs {
		var res [2]columnBytes
		for i, aligned := range []bool{false, true} {
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, schema, writer.WithCompression(codec), writer.WithRowIndexStride(10000),
				writer.WithBloomFilterColumns("order_key"), writer.WithBloomFilterFPP(0.01),
				writer.WithAlignedRowGroups(aligned))
			if err != nil {
				t.Fatal(err)
			}
			b := orc.NewBatch(schema, 1024)
			for first := int64(0); first < rows; first += 1024 {
				genOrders(b, first, int(min(1024, rows-first)))
				if err := w.Write(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			res[i] = measureColumns(t, buf.Bytes())
		}
		printAlignTable(t, fmt.Sprintf("demo table, %d rows, %v", rows, codec), schema, res[0], res[1])
	}

	path := os.Getenv("ORCGO_ALIGN_LINEITEM")
	if path == "" {
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	for _, codec := range codecs {
		var res [2]columnBytes
		for i, aligned := range []bool{false, true} {
			var buf bytes.Buffer
			// The bench's settings (bench/side_orc.go).
			w, err := writer.NewWriter(&buf, r.Schema(), writer.WithCompression(codec), writer.WithStripeSize(64<<20),
				writer.WithRowIndexStride(10000), writer.WithBloomFilterColumns("l_uuid"), writer.WithBloomFilterFPP(0.01),
				writer.WithAlignedRowGroups(aligned))
			if err != nil {
				t.Fatal(err)
			}
			br, err := r.NewBatchReader(reader.WithBatchSize(4096))
			if err != nil {
				t.Fatal(err)
			}
			b := br.NewBatch()
			for {
				if err := br.Next(b); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
				if err := w.Write(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			res[i] = measureColumns(t, buf.Bytes())
		}
		printAlignTable(t, fmt.Sprintf("lineitem, %d rows, %v", r.NumRows(), codec), r.Schema(), res[0], res[1])
	}
}
