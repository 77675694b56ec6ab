package reader_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// TestDeferredColumnsPerRun checks that with exact filtering the columns
// without a predicate are fetched only for the row-group runs that have a
// match: a run kept by the row index but holding no matching row costs
// only its predicate column's bytes.
func TestDeferredColumnsPerRun(t *testing.T) {
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		t.Run(codec.String(), func(t *testing.T) {
			s := orc.MustParseSchema("struct<k:bigint,payload:string,n:int>")
			rng := rand.New(rand.NewPCG(1, 2))
			text := make([]byte, 200)
			var batches []*orc.Batch
			for i := 0; i < 20000; {
				b := orc.NewBatch(s, 1000)
				keys := b.Cols[0].(*orc.LongVector)
				payload := b.Cols[1].(*orc.BytesVector)
				small := b.Cols[2].(*orc.LongVector) // many groups to a chunk
				for ; b.NumRows < 1000; i++ {
					keys.Values = append(keys.Values, int64(2*i)) // even keys only
					// 200 random bytes: they do not compress away (random
					// letters do, to about 60% with ZSTD).
					for k := range text {
						text[k] = byte(rng.Uint32())
					}
					payload.Append(text)
					small.Values = append(small.Values, int64(i%7))
					b.NumRows++
				}
				batches = append(batches, b)
			}
			r, _ := writeOpen(t, s, batches, writer.WithCompression(codec), writer.WithRowIndexStride(1000), writer.WithAllowInvalidUTF8(true),
				writer.WithCompressionBlockSize(16<<10))
			// A local read: over a network (reading ahead) a kept run's
			// deferred columns are fetched with it, a round trip being
			// dearer than their bytes (ORCGO_PREFETCH=always).
			scan := func(where string) ([]string, reader.ScanStats) {
				return scanLines(t, r, reader.WithSearchArgument(sarg.MustParse(where)), reader.WithExactFilter(true), reader.WithPrefetch(0))
			}
			// Key 2,000 is in group 1; 30,001 is odd, so group 15 survives its
			// statistics without holding the key.
			one, st1 := scan("k = 2000")
			two, st2 := scan("k IN (2000, 30001)")
			if len(one) != 1 || len(two) != 1 || one[0] != two[0] || !strings.Contains(one[0], `"k": 2000`) {
				t.Fatalf("rows: %v / %v", one, two)
			}
			if st1.GroupsSkipped != 19 || st2.GroupsSkipped != 18 {
				t.Fatalf("groups skipped: %d and %d, want 19 and 18", st1.GroupsSkipped, st2.GroupsSkipped)
			}
			// A payload group is about 200 KB; its key group a few KB.
			if extra := st2.BytesRead - st1.BytesRead; extra > 50<<10 {
				t.Fatalf("the run without a match cost %d bytes more (%d vs %d): its payload was fetched", extra, st2.BytesRead, st1.BytesRead)
			}
			// Both groups matching fetch both payload groups.
			_, st3 := scan("k IN (2000, 30000)")
			if extra := st3.BytesRead - st1.BytesRead; extra < 150<<10 {
				t.Fatalf("a second matching group cost only %d bytes more", extra)
			}
			// Runs close together share the chunks of column n: each run
			// still finds all of its bytes, with no fallback to whole streams.
			got, st := scan("k IN (2000, 6000, 6002, 18000)")
			want := []string{
				`{"k": 2000, "payload": "`, `{"k": 6000, "payload": "`, `{"k": 6002, "payload": "`, `{"k": 18000, "payload": "`}
			wantN := []string{`"n": 6}`, `"n": 4}`, `"n": 5}`, `"n": 5}`}
			if len(got) != len(want) || st.UnplannedReads != 0 || st.GroupsSkipped != 17 {
				t.Fatalf("got %d rows, %d unplanned reads, %d groups skipped", len(got), st.UnplannedReads, st.GroupsSkipped)
			}
			for i, row := range got {
				if !strings.HasPrefix(row, want[i]) || !strings.HasSuffix(row, wantN[i]) {
					t.Fatalf("row %d: %.40s...%s", i, row, row[len(row)-10:])
				}
			}
		})
	}
}
