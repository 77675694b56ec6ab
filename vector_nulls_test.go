package orc

import "testing"

// foreignVector is a Vector of another kind than this package's.
type foreignVector struct{}

func (foreignVector) Len() int        { return 0 }
func (foreignVector) IsNull(int) bool { return false }
func (foreignVector) Reset()          {}

// TestNullsOf checks that NullsOf finds the mask every vector type embeds
// (the same mask, not a copy) and nil for a Vector of another package.
func TestNullsOf(t *testing.T) {
	vs := []Vector{&LongVector{}, &DoubleVector{}, &BytesVector{}, &DecimalVector{}, &TimestampVector{},
		&StructVector{}, &ListVector{}, &MapVector{}, &UnionVector{}}
	for _, v := range vs {
		n := NullsOf(v)
		if n == nil {
			t.Fatalf("%T: no null mask", v)
		}
		n.Nulls = []bool{false, true}
		if !v.IsNull(1) || v.IsNull(0) {
			t.Errorf("%T: the mask NullsOf returned is not the vector's", v)
		}
	}
	if n := NullsOf(foreignVector{}); n != nil {
		t.Errorf("a foreign vector's mask: %v", n)
	}
}
