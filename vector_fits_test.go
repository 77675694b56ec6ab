package orc_test

import (
	"fmt"
	"testing"

	"github.com/orcgo/orc"
)

// TestVectorFits checks that the vector NewVector makes for each kind fits
// it and that the vectors of the other kinds do not.
func TestVectorFits(t *testing.T) {
	types := []string{"boolean", "tinyint", "smallint", "int", "bigint", "date", "float", "double",
		"string", "binary", "varchar(3)", "char(2)", "geometry(OGC:CRS84)", "geography(OGC:CRS84,spherical)",
		"decimal(5,2)", "timestamp", "timestamp with local time zone",
		"struct<x:int>", "array<int>", "map<int,int>", "uniontype<int>"}
	for _, a := range types {
		sa := orc.MustParseSchema(a)
		va := orc.NewVector(sa, 0)
		for _, b := range types {
			vb := orc.NewVector(orc.MustParseSchema(b), 0)
			want := fmt.Sprintf("%T", va) == fmt.Sprintf("%T", vb)
			if got := orc.VectorFits(sa, vb); got != want {
				t.Errorf("VectorFits(%s, a vector for %s %T) = %v, want %v", a, b, vb, got, want)
			}
		}
	}
	if orc.VectorFits(orc.MustParseSchema("int"), nil) {
		t.Error("a nil Vector fits an int")
	}
	if !orc.VectorFits(orc.MustParseSchema("int"), (*orc.LongVector)(nil)) {
		t.Error("a nil *LongVector does not fit an int")
	}
}
