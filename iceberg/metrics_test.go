package iceberg

import (
	"bytes"
	"encoding/hex"
	"math"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

func metricsSchema() *ice.Schema {
	return ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.Int64, Required: true},
		ice.NestedField{ID: 2, Name: "name", Type: ice.PrimitiveTypes.String},
		ice.NestedField{ID: 3, Name: "score", Type: ice.PrimitiveTypes.Float64},
		ice.NestedField{ID: 4, Name: "price", Type: ice.DecimalTypeOf(9, 2)},
		ice.NestedField{ID: 5, Name: "d", Type: ice.PrimitiveTypes.Date},
		ice.NestedField{ID: 6, Name: "tags", Type: &ice.ListType{ElementID: 7, Element: ice.PrimitiveTypes.String}},
		ice.NestedField{ID: 8, Name: "raw", Type: ice.PrimitiveTypes.Binary},
		ice.NestedField{ID: 9, Name: "s", Type: &ice.StructType{FieldList: []ice.NestedField{
			{ID: 10, Name: "f", Type: ice.PrimitiveTypes.Float32}}}},
	)
}

// metricsBatch holds five rows whose metrics are worked out by hand in
// TestWriterMetrics.
func metricsBatch(s *orc.Schema) *orc.Batch {
	b := orc.NewBatch(s, 5)
	b.Cols[0].(*orc.LongVector).Values = []int64{1, 2, 3, 4, 5}
	name := b.Cols[1].(*orc.BytesVector)
	for _, v := range []string{"apple", "", "banana", "cherry pie with cream and extras", ""} {
		if v == "" {
			name.AppendNull()
		} else {
			name.AppendString(v)
		}
	}
	nan := math.NaN()
	b.Cols[2].(*orc.DoubleVector).Values = []float64{1.5, nan, -2, 0, nan}
	b.Cols[2].(*orc.DoubleVector).Nulls.Nulls = []bool{false, false, false, true, false}
	price := b.Cols[3].(*orc.DecimalVector)
	for _, v := range []int64{123, -450, 0, 1000, 5} {
		price.Values = append(price.Values, orc.Int128FromInt64(v))
	}
	price.Nulls.Nulls = []bool{false, false, true, false, false}
	b.Cols[4].(*orc.LongVector).Values = []int64{18000, 18001, 0, 17999, 18002}
	b.Cols[4].(*orc.LongVector).Nulls.Nulls = []bool{false, false, true, false, false}
	tags := b.Cols[5].(*orc.ListVector)
	elem := tags.Elem.(*orc.BytesVector)
	for _, e := range []string{"a", "b", "zz", "c"} {
		elem.AppendString(e)
	}
	elem.AppendNull()
	tags.Offsets = []int64{0, 2, 2, 2, 3, 5}
	tags.Nulls.Nulls = []bool{false, true, false, false, false}
	raw := b.Cols[6].(*orc.BytesVector)
	for _, v := range []string{"0001", "ffffff", "", "102030", "10"} {
		if v == "" {
			raw.AppendNull()
			continue
		}
		x, _ := hex.DecodeString(v)
		raw.Append(x)
	}
	st := b.Cols[7].(*orc.StructVector)
	st.N = 5
	st.Nulls.Nulls = []bool{false, true, false, false, false}
	f := st.Fields[0].(*orc.DoubleVector)
	f.Values = []float64{0.5, nan, 0, math.Copysign(0, -1), 3.25}
	f.Nulls.Nulls = []bool{false, false, true, false, false}
	b.NumRows = 5
	return b
}

func hexes(m map[int][]byte) map[int]string {
	out := map[int]string{}
	for k, v := range m {
		out[k] = hex.EncodeToString(v)
	}
	return out
}

func TestWriterMetrics(t *testing.T) {
	s := metricsSchema()
	cfg, err := NewMetricsConfig(s, map[string]string{
		PropMetricsColumnPrefix + "id":  "none",
		PropMetricsColumnPrefix + "d":   "counts",
		PropMetricsColumnPrefix + "raw": "truncate(2)",
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(metricsBatch(w.Schema())); err != nil {
		t.Fatal(err)
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if m.RecordCount != 5 || m.FileSize != int64(buf.Len()) {
		t.Errorf("records %d, size %d (file %d)", m.RecordCount, m.FileSize, buf.Len())
	}
	// id is none: nothing. tags has 2+0+1+2 = 5 elements, one null; s.f
	// has a value in rows 0, 3 and 4 (row 1 is under a null s), so 2 nulls.
	checkCounts(t, "values", m.ValueCounts, map[int]int64{2: 5, 3: 5, 4: 5, 5: 5, 7: 5, 8: 5, 10: 5})
	checkCounts(t, "nulls", m.NullCounts, map[int]int64{2: 2, 3: 1, 4: 1, 5: 1, 7: 1, 8: 1, 10: 2})
	// The NaN under the null struct is not stored, so not counted.
	checkCounts(t, "NaNs", m.NaNCounts, map[int]int64{3: 2, 10: 0})
	wantLower := map[int]string{
		2:  hex.EncodeToString([]byte("apple")),
		3:  "00000000000000c0", // -2.0
		4:  "fe3e",             // -450 at scale 2
		7:  "61",               // "a"
		8:  "0001",
		10: "00000080", // -0.0f: a zero lower bound is written negative
	}
	wantUpper := map[int]string{
		2:  hex.EncodeToString([]byte("cherry pie with!")), // cut to 16 characters, last one incremented
		3:  "000000000000f83f",                             // 1.5
		4:  "03e8",                                         // 1000
		7:  hex.EncodeToString([]byte("zz")),
		10: "00005040", // 3.25f; raw's ffffff cut to 2 bytes cannot be incremented: no upper bound
	}
	checkBounds(t, "lower", hexes(m.LowerBounds), wantLower)
	checkBounds(t, "upper", hexes(m.UpperBounds), wantUpper)
	for _, id := range []int{2, 3, 4, 5, 7, 8, 10} {
		if m.ColumnSizes[id] <= 0 {
			t.Errorf("column size of %d: %d", id, m.ColumnSizes[id])
		}
	}
	if _, ok := m.ColumnSizes[1]; ok {
		t.Error("a column of mode none has a size")
	}

	// From the file alone: no NaN counts, no binary bounds, and no double
	// bounds where the column held a NaN (ORC's statistics drop them).
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	fm, err := FileMetrics(r, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkCounts(t, "file values", fm.ValueCounts, m.ValueCounts)
	checkCounts(t, "file nulls", fm.NullCounts, m.NullCounts)
	checkCounts(t, "file NaNs", fm.NaNCounts, nil)
	delete(wantLower, 8)
	delete(wantLower, 3)
	delete(wantUpper, 3)
	checkBounds(t, "file lower", hexes(fm.LowerBounds), wantLower)
	checkBounds(t, "file upper", hexes(fm.UpperBounds), wantUpper)
}

func checkCounts(t *testing.T, what string, got, want map[int]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
		return
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s of %d: got %d (%v), want %d", what, k, g, ok, v)
		}
	}
}

func checkBounds(t *testing.T, what string, got, want map[int]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s bound of %d: got %q, want %q", what, k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s bound of %d: %q, want none", what, k, v)
		}
	}
}
