package reader_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// TestInvalidBatchEveryKind gives each column kind a vector of another
// type: Next refuses the batch with ErrInvalidBatch naming the column,
// for every kind (geometry and geography included), never a panic.
func TestInvalidBatchEveryKind(t *testing.T) {
	for _, typ := range []string{"boolean", "tinyint", "int", "date", "double", "string", "binary",
		"varchar(3)", "char(2)", "geometry(OGC:CRS84)", "geography(OGC:CRS84,spherical)", "decimal(5,2)",
		"timestamp", "timestamp with local time zone", "struct<x:int>", "array<int>", "map<int,int>", "uniontype<int>"} {
		s := orc.MustParseSchema("struct<c:" + typ + ">")
		b := orc.NewBatch(s, 1)
		b.Cols[0].(interface{ AppendNull() }).AppendNull()
		b.NumRows = 1
		r, _ := writeOpen(t, s, []*orc.Batch{b})
		br, err := r.NewBatchReader()
		if err != nil {
			t.Fatal(err)
		}
		bad := br.NewBatch()
		bad.Cols[0] = &orc.UnionVector{}
		if typ == "uniontype<int>" {
			bad.Cols[0] = &orc.LongVector{}
		}
		err = br.Next(bad)
		if !errors.Is(err, orc.ErrInvalidBatch) || !strings.Contains(err.Error(), `column "c" of type `) {
			t.Errorf("%s: a vector of another type: %v", typ, err)
		}
		br.Close()
	}
}
