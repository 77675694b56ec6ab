package orcarrow_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// generated writes a file of random batches of schema s (fitted to Arrow).
func generated(tb testing.TB, seed uint64, s *orc.Schema, batches, rows int) []byte {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	g := testutil.NewGenerator(r, s)
	var bs []*orc.Batch
	for range batches {
		b := g.Batch(rows)
		if s.Kind != orc.Struct {
			fitForArrow(s, b.Cols[0])
		}
		for f, c := range s.Children {
			if s.Kind == orc.Struct {
				fitForArrow(c, b.Cols[f])
			}
		}
		bs = append(bs, b)
	}
	return writeORC(tb, s, bs, writer.WithRowIndexStride(1000))
}

// roundTrip reads file a through Arrow, checks every record against the
// batch API's rows, writes the records back to ORC through Arrow and checks
// that the new file has the same schema and rows.
func roundTrip(t *testing.T, a []byte, scan ...reader.ScanOption) {
	t.Helper()
	roundTripOpts(t, a, nil, scan...)
}

func roundTripOpts(t *testing.T, a []byte, opts []orcarrow.Option, scan ...reader.ScanOption) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	ra := openORC(t, a)
	want := orcRows(t, ra, scan...)
	opts = append(opts, orcarrow.WithAllocator(mem), orcarrow.WithScanOptions(scan...))
	rr, err := orcarrow.FromReader(ra, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var out bytes.Buffer
	w, err := orcarrow.NewWriter(&out, rr.Schema(), writer.WithRowIndexStride(1000))
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	records := 0
	for rr.Next() {
		rec := rr.RecordBatch()
		validate(t, rec)
		got = append(got, recordRows(w.ORCSchema(), rec)...)
		// every other record is written as two slices, so that every type
		// is also converted from arrays with an offset
		n := rec.NumRows()
		records++
		if k := n / 3; records%2 == 1 && k > 0 {
			for _, part := range [][2]int64{{0, k}, {k, n}} {
				sl := rec.NewSlice(part[0], part[1])
				if err := w.Write(sl); err != nil {
					t.Fatal(err)
				}
				sl.Release()
			}
			continue
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if d := testutil.Diff(want, got); d != "" {
		t.Fatalf("ORC -> Arrow: %s", d)
	}
	rb := openORC(t, out.Bytes())
	proj := rr.Schema()
	_ = proj
	if ra2, _ := ra.NewBatchReader(scan...); ra2 != nil {
		if g, w := rb.Schema().String(), ra2.Schema().String(); g != w {
			t.Fatalf("schema after the round trip:\n got %s\nwant %s", g, w)
		}
		ra2.Close()
	}
	if d := testutil.Diff(want, orcRows(t, rb)); d != "" {
		t.Fatalf("ORC -> Arrow -> ORC: %s", d)
	}
}

func TestRoundTripAllTypes(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := testutil.AllTypesSchema()
			roundTrip(t, generated(t, seed, s, 3, 700), reader.WithBatchSize(333))
		})
	}
}

// TestRoundTripBareRoot round-trips files whose root is not a struct.
func TestRoundTripBareRoot(t *testing.T) {
	for i, s := range []string{"array<struct<a:int,b:map<string,uniontype<int,date>>>>", "timestamp", "uniontype<string,decimal(38,2)>"} {
		t.Run(s, func(t *testing.T) {
			roundTrip(t, generated(t, uint64(i), orc.MustParseSchema(s), 2, 300), reader.WithBatchSize(100))
		})
	}
}

// TestRoundTripReuse runs the all-types round trip with reused vectors.
func TestRoundTripReuse(t *testing.T) {
	roundTripOpts(t, generated(t, 9, testutil.AllTypesSchema(), 3, 500), []orcarrow.Option{orcarrow.WithReuse(true)}, reader.WithBatchSize(200))
}

func TestRoundTripRandomSchemas(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			s := testutil.RandomSchema(r, 6, 3)
			t.Logf("schema %s", s)
			roundTrip(t, generated(t, seed, s, 2, 300), reader.WithBatchSize(128))
		})
	}
}

var _ = errors.Is
