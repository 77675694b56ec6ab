package reader_test

import (
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// A nested field's row-group pruning uses its enclosing structs' row-group
// statistics: a group where neither the field nor its struct has a null
// cannot match `st.a IS NULL`, and a group where the struct is null on
// every row makes every comparison on its fields NULL.
func TestNestedFieldGroupNulls(t *testing.T) {
	s := orc.MustParseSchema("struct<id:int,st:struct<a:int,b:string>,top:int>")
	const groups, stride = 10, 1000
	b := orc.NewBatch(s, groups*stride)
	st := b.Col("st").(*orc.StructVector)
	for i := range groups * stride {
		g := i / stride
		b.Col("id").(*orc.LongVector).Append(int64(i))
		switch {
		case g == 3 && i%stride == 7: // one null field, in group 3
			st.Fields[0].(*orc.LongVector).AppendNull()
			st.Fields[1].(*orc.BytesVector).AppendString("x")
			st.AppendRow()
		case g == 6: // the struct is null on every row of group 6
			st.AppendNull()
		default:
			st.Fields[0].(*orc.LongVector).Append(int64(g))
			st.Fields[1].(*orc.BytesVector).AppendString("x")
			st.AppendRow()
		}
		if g == 3 && i%stride == 7 {
			b.Col("top").(*orc.LongVector).AppendNull()
		} else {
			b.Col("top").(*orc.LongVector).Append(int64(g))
		}
	}
	b.NumRows = groups * stride
	r, _ := writeOpen(t, s, []*orc.Batch{b}, writer.WithRowIndexStride(stride))
	for _, c := range []struct {
		where string
		kept  int // row groups a scan must keep
		rows  int
	}{
		{"top IS NULL", 1, 1},
		{"st.a IS NULL", 2, 1001},     // group 3's null field, and group 6 (all null)
		{"st IS NULL", 1, 1000},       // group 6
		{"st.a >= 0", 9, 8999},        // group 6 is all NULL: no match there
		{"NOT (st.a = 4)", 8, 7999},   // NULL rows do not match NOT either
		{"st.b = 'x'", 9, 9000},       // every group but 6
		{"st.a IS NOT NULL", 9, 8999}, // group 6 cannot match
	} {
		br, err := r.NewBatchReader(reader.WithSearchArgument(sarg.MustParse(c.where)), reader.WithExactFilter(true))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for b, err := range br.All() {
			if err != nil {
				t.Fatal(err)
			}
			n += b.NumRows
		}
		st := br.Stats()
		br.Close()
		if n != c.rows {
			t.Errorf("%s: %d rows, want %d", c.where, n, c.rows)
		}
		if kept := st.GroupsConsidered - st.GroupsSkipped; kept != c.kept {
			t.Errorf("%s: kept %d of %d row groups, want %d", c.where, kept, st.GroupsConsidered, c.kept)
		}
	}
}
