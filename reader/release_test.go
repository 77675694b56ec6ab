package reader_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// Fields started at their first use in a stripe, which give their stream
// readers back when a batch ends it (a serial scan), read what fields
// started with the stripe read (with column parallelism, which starts them
// all then): random files of schemas whose fields can start so (no
// strings, decimals or timestamps but one) of many stripes and row groups,
// in batches of 1, 7 and 1,024 rows, whole and filtered exactly on a
// clustered field (the deferred fields starting at their first use after a
// match, in runs of row groups the statistics kept, dense, sparse and
// late-materialized).
func TestLazyFieldsMatchEager(t *testing.T) {
	schemas := []*orc.Schema{
		orc.MustParseSchema("struct<k:tinyint,a:int,b:struct<x:smallint,y:array<int>>,c:map<tinyint,boolean>,d:uniontype<int,double>,e:float,f:array<struct<p:bigint>>,g:string>"),
		orc.MustParseSchema("struct<k:tinyint,n:struct<s:struct<a:bigint,b:boolean>,l:array<array<int>>>,m:map<int,struct<q:double>>,z:date>"),
	}
	seeds := 16
	if testing.Short() {
		seeds = 6
	}
	matched, skipped := 0, 0
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 0x1a2f))
		s := schemas[seed%uint64(len(schemas))]
		codec := allCodecs[seed%uint64(len(allCodecs))]
		opts, _, desc := randomOptions(rng, codec)
		g := testutil.NewGenerator(rng, s)
		f := &fileSpec{schema: s, opts: opts, desc: desc}
		for n, total := 0, 500+rng.IntN(3500); n < total; {
			k := min(1+rng.IntN(1500), total-n)
			b := g.Batch(k)
			// k clustered, so that its row groups' statistics prune runs
			// (the deferred fields then seek to the runs they start in).
			for i, v := range b.Cols[0].(*orc.LongVector).Values[:k] {
				b.Cols[0].(*orc.LongVector).Values[i] = int64((n+i)/250%200-100) + v%2
			}
			f.batches = append(f.batches, b)
			n += k
		}
		data := writeFile(t, f)
		for _, where := range []string{"", "k >= 0", "k = 7", "k < -100"} {
			for _, batch := range []int{1, 7, 1024} {
				opts := []reader.ScanOption{reader.WithBatchSize(batch)}
				if where != "" {
					opts = append(opts, reader.WithSearchArgument(sarg.MustParse(where)), reader.WithExactFilter(true))
				}
				lazy, st := lazyScanRows(t, data, opts...)
				eager, _ := lazyScanRows(t, data, append(opts, reader.WithColumnParallelism(2))...)
				skipped += st.GroupsSkipped
				if len(lazy) != len(eager) {
					t.Fatalf("seed %d (%s) where %q batch %d: %d rows, %d started with the stripe", seed, f.desc, where, batch, len(lazy), len(eager))
				}
				for i := range lazy {
					if d := testutil.Diff(eager[i], lazy[i]); d != "" {
						t.Fatalf("seed %d (%s) where %q batch %d: row %d: %s", seed, f.desc, where, batch, i, d)
					}
				}
				if where != "" {
					matched += len(lazy)
				}
			}
		}
	}
	if matched == 0 || skipped == 0 {
		t.Fatalf("%d rows matched, %d row groups skipped", matched, skipped)
	}
}

// lazyScanRows returns the rows a scan of data with opts returns, and its
// statistics.
func lazyScanRows(t *testing.T, data []byte, opts ...reader.ScanOption) ([]any, reader.ScanStats) {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	var rows []any
	for {
		err := br.Next(b)
		if errors.Is(err, io.EOF) {
			return rows, br.Stats()
		}
		if err != nil {
			t.Fatalf("Next after %d rows: %v", len(rows), err)
		}
		rows = append(rows, testutil.Rows(br.Schema(), b, false)...)
	}
}
