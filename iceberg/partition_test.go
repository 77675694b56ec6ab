package iceberg

import (
	"errors"
	"math"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
)

// TestBucketSpecExamples: the Iceberg spec's 32-bit Murmur3 hashes (its
// appendix B) of int 34, long 34, date 2017-11-16, timestamp and
// timestamptz 2017-11-16T22:31:08, string "iceberg" and decimal(9,2) 14.20,
// through the
// partitioner's conversion of ORC vectors: bucket(2^31-1) of a value is its
// hash with the sign bit cleared.
func TestBucketSpecExamples(t *testing.T) {
	s := ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "i", Type: ice.PrimitiveTypes.Int32},
		ice.NestedField{ID: 2, Name: "l", Type: ice.PrimitiveTypes.Int64},
		ice.NestedField{ID: 3, Name: "d", Type: ice.PrimitiveTypes.Date},
		ice.NestedField{ID: 4, Name: "ts", Type: ice.PrimitiveTypes.Timestamp},
		ice.NestedField{ID: 5, Name: "tz", Type: ice.PrimitiveTypes.TimestampTz},
		ice.NestedField{ID: 6, Name: "s", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 9, Name: "dec", Type: ice.DecimalTypeOf(9, 2)},
		ice.NestedField{ID: 7, Name: "st", Type: &ice.StructType{FieldList: []ice.NestedField{
			{ID: 8, Name: "x", Type: ice.PrimitiveTypes.Int32}}}},
	)
	var opts []ice.PartitionOption
	for i, name := range []string{"i", "l", "d", "ts", "tz", "s", "dec", "st.x"} {
		id := 1000 + i
		opts = append(opts, ice.AddPartitionFieldByName(name, name+"_b", ice.BucketTransform{NumBuckets: math.MaxInt32}, s, &id))
	}
	spec, err := ice.NewPartitionSpecOpts(opts...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPartitioner(s, spec)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := ToORC(s)
	b := orc.NewBatch(o, 2)
	b.Cols[0].(*orc.LongVector).Append(34)
	b.Cols[1].(*orc.LongVector).Append(34)
	b.Cols[2].(*orc.LongVector).Append(17486)
	b.Cols[3].(*orc.TimestampVector).Append(1510871468, 0)
	b.Cols[4].(*orc.TimestampVector).Append(1510871468, 0)
	b.Cols[5].(*orc.BytesVector).AppendString("iceberg")
	b.Cols[6].(*orc.DecimalVector).Append(orc.Int128FromInt64(1420)) // 14.20
	st := b.Cols[7].(*orc.StructVector)
	st.AppendNull() // a null parent: the partition value is null
	b.NumRows = 1
	vals, _, err := p.values(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	hashes := []int64{2017239379, 2017239379, -653330422, -2047944441, -2047944441, 1210000089, -500754589}
	i := 0
	for _, f := range spec.Fields() {
		if i == len(hashes) {
			if vals[f.FieldID] != nil {
				t.Errorf("%s under a null struct: %v", f.Name, vals[f.FieldID])
			}
			break
		}
		if want := int32(hashes[i] & math.MaxInt32); vals[f.FieldID] != want {
			t.Errorf("%s: %v, want %d (hash %d)", f.Name, vals[f.FieldID], want, hashes[i])
		}
		i++
	}
}

func TestPartitionErrors(t *testing.T) {
	s := ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "dec", Type: ice.FixedTypeOf(3)},
		ice.NestedField{ID: 2, Name: "l", Type: &ice.ListType{ElementID: 3, Element: ice.PrimitiveTypes.Int32}})
	spec, _ := ice.NewPartitionSpecOpts(ice.AddPartitionFieldByName("dec", "dec", ice.IdentityTransform{}, s, nil))
	p, err := newPartitioner(s, spec)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := ToORC(s)
	b := orc.NewBatch(o, 1)
	b.Cols[0].(*orc.BytesVector).AppendString("abc")
	b.NumRows = 1
	if _, _, err := p.values(b, 0); !errors.Is(err, ErrUnsupportedType) {
		t.Errorf("fixed partition source: %v", err)
	}
	// A batch whose offsets point past its elements is refused, not copied.
	lv := b.Cols[1].(*orc.ListVector)
	lv.Offsets = []int64{0, 5}
	if err := checkRows(b); err == nil {
		t.Error("list offsets past the elements were accepted")
	}
	lv.Offsets = []int64{3, 1}
	if err := checkRows(b); err == nil {
		t.Error("decreasing offsets were accepted")
	}
	// A batch with a selection: its rows are not its vectors' first ones.
	lv.Offsets = []int64{0, 0}
	b.Selected = []int32{0}
	if err := checkRows(b); err == nil || !strings.Contains(err.Error(), "selection") {
		t.Errorf("a batch with a selection: %v", err)
	}
}
