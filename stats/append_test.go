package stats

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
)

// AppendProto writes what proto.Marshal writes of Proto's message, byte
// for byte, over random integer, struct and other accumulators: empty,
// with nulls, with sums that overflow, merged with another kind, with
// bytes on disk.
func TestAppendProtoAsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 10))
	kinds := []string{"tinyint", "smallint", "int", "bigint", "struct<a:int>", "string", "double", "boolean", "date", "decimal(10,2)"}
	values := []int64{0, 1, -1, 63, -64, 64, 1 << 40, math.MaxInt64, math.MinInt64, math.MaxInt64 - 3}
	for k := range 5000 {
		typ := kinds[rng.IntN(len(kinds))]
		a := NewAccumulator(orc.MustParseSchema(typ))
		for range rng.IntN(6) {
			switch rng.IntN(4) {
			case 0:
				a.AddNull()
			case 1:
				a.AddValue()
			default:
				if a.kind != orc.Struct {
					a.AddInt(values[rng.IntN(len(values))])
				} else {
					a.AddValue()
				}
			}
		}
		if rng.IntN(3) == 0 {
			a.SetBytesOnDisk(uint64(rng.IntN(1 << 20)))
		}
		if rng.IntN(20) == 0 {
			a.Merge(NewAccumulator(orc.MustParseSchema("double")))
		}
		want, err := proto.Marshal(a.Proto())
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.AppendProto([]byte("x"))
		if err != nil || !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("case %d (%s): AppendProto %x, %v; proto.Marshal %x", k, typ, got, err, want)
		}
		if got, err := a.Marshal(); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("case %d (%s): Marshal %x, %v; proto.Marshal %x", k, typ, got, err, want)
		}
	}
}
