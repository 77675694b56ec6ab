package orcarrow_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/reader"
)

// FuzzRecordReader reads arbitrary bytes through Arrow: the scan may fail,
// but never panic, and every record it returns must pass ValidateFull and
// release all it allocated.
func FuzzRecordReader(f *testing.F) {
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 1))
		s := testutil.RandomSchema(r, 4, 2)
		f.Add(generated(f, seed, s, 1, 50))
	}
	f.Add(salesFile(f, 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rr, err := orcarrow.FromReader(r, orcarrow.WithAllocator(mem),
			orcarrow.WithScanOptions(reader.WithBatchSize(17), reader.WithMaxScanMemory(64<<20)))
		if err != nil {
			return
		}
		for rr.Next() {
			for _, c := range rr.RecordBatch().Columns() {
				if err := array.ValidateFull(c); err != nil {
					t.Fatalf("ValidateFull: %v (schema %s)", err, r.Schema())
				}
			}
		}
		rr.Release()
		mem.AssertSize(t, 0)
	})
}
