package reader_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestLateMaterialization checks exact filtering with sparse matches, where
// the columns without a predicate decode only the selected runs of rows
// and skip the others: every kind of column (nested ones with nulls at
// every level, strings direct and dictionary, over 1,024 bytes), several
// batches to a row-group run, matches at the ends of batches and runs.
// The rows must equal those of a full scan filtered here.
func TestLateMaterialization(t *testing.T) {
	t.Parallel()
	schema := orc.MustParseSchema("struct<rid:bigint,sel:int,b:boolean,t:tinyint,sh:smallint,s:string,c:char(5)," +
		"v:varchar(20),bin:binary,d:decimal(20,3),d2:decimal(10,2),ts:timestamp,tsi:timestamp with local time zone," +
		"dt:date,f:float,x:double,l:array<int>,m:map<string,bigint>,st:struct<a:int,b:string,c:array<string>>," +
		"u:uniontype<int,string,array<bigint>>>")
	preds := map[string]func(sel int64) bool{
		"sel < 2":               func(s int64) bool { return s < 2 },
		"sel = 7 OR sel > 96":   func(s int64) bool { return s == 7 || s > 96 },
		"sel < 5 AND sel <> 2":  func(s int64) bool { return s < 5 && s != 2 },
		"sel BETWEEN 40 AND 69": func(s int64) bool { return s >= 40 && s <= 69 }, // dense: decoded whole
	}
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		g := testutil.NewGenerator(rng, schema)
		var batches []*orc.Batch
		for i := 0; i < 24; i++ {
			b := g.Batch(1000)
			rid := b.Cols[0].(*orc.LongVector)
			sel := b.Cols[1].(*orc.LongVector)
			rid.Nulls.Nulls, sel.Nulls.Nulls = nil, nil
			for k := range rid.Values {
				rid.Values[k] = int64(i*1000 + k)
				// Runs of matches now and then, isolated ones otherwise.
				if rng.IntN(200) == 0 {
					sel.Values[k] = 1
				} else {
					sel.Values[k] = int64(rng.IntN(100))
				}
				if k > 0 && sel.Values[k-1] == 1 && rng.IntN(3) > 0 {
					sel.Values[k] = 1
				}
			}
			batches = append(batches, b)
		}
		r, _ := writeOpen(t, schema, batches, writer.WithRowIndexStride(5000), writer.WithCompression(orc.CompressionZstd),
			writer.WithCompressionBlockSize(8<<10))
		all, sels, _ := lateScan(t, r, reader.WithBatchSize(1000))
		some := []string{"rid", "s", "l", "st", "u"} // no predicate column
		allSome, _, _ := lateScan(t, r, reader.WithBatchSize(1000), reader.WithColumns(some...))
		selected := 0
		for where, match := range preds {
			var want, wantSome []string
			for i, line := range all {
				if match(sels[i]) {
					want = append(want, line)
					wantSome = append(wantSome, allSome[i])
				}
			}
			for _, c := range []struct {
				batch int
				more  []reader.ScanOption
				some  bool // the scan reads the columns some
			}{
				{1000, nil, false}, {4096, nil, false}, {1237, nil, false},
				{1000, []reader.ScanOption{reader.WithSelection()}, false},
				{1237, []reader.ScanOption{reader.WithSelection(), reader.WithParallelism(2)}, false},
				{1000, []reader.ScanOption{reader.WithSelection(), reader.WithColumnParallelism(3)}, false},
				{4096, []reader.ScanOption{reader.WithSelection(), reader.WithColumns(some...)}, true},
			} {
				batch := c.batch
				opts := append([]reader.ScanOption{reader.WithBatchSize(batch), reader.WithSearchArgument(sarg.MustParse(where)),
					reader.WithExactFilter(true)}, c.more...)
				got, _, sel := lateScan(t, r, opts...)
				selected += sel
				want := want
				if c.some {
					want = wantSome
				}
				if !slices.Equal(got, want) {
					for i := range min(len(got), len(want)) {
						if got[i] != want[i] {
							t.Fatalf("seed %d, %q, batch %d: row %d:\n got %s\nwant %s", seed, where, batch, i, got[i], want[i])
						}
					}
					t.Fatalf("seed %d, %q, batch %d: %d rows, want %d", seed, where, batch, len(got), len(want))
				}
			}
		}
		if selected == 0 {
			t.Fatalf("seed %d: no batch had a selection", seed)
		}
	}
}

// lateScan returns a scan's rows as JSON with their sel values (when the
// scan reads sel), and how many batches came with a selection.
func lateScan(t *testing.T, r *reader.Reader, opts ...reader.ScanOption) ([]string, []int64, int) {
	t.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	var lines []string
	var sels []int64
	var line []byte
	selected := 0
	for {
		err := br.Next(b)
		if err == io.EOF {
			return lines, sels, selected
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Selected) > 0 {
			selected++
			if len(b.Selected) != b.NumRows {
				t.Fatalf("a selection of %d rows in a batch of %d", len(b.Selected), b.NumRows)
			}
		}
		sel, _ := b.Col("sel").(*orc.LongVector)
		for i := 0; i < b.NumRows; i++ {
			line = reader.AppendJSONRow(line[:0], b, i)
			lines = append(lines, string(line))
			if sel != nil {
				sels = append(sels, sel.Values[b.Row(i)])
			}
		}
		if b.NumRows == 0 {
			t.Fatal(fmt.Errorf("Next returned an empty batch"))
		}
	}
}
