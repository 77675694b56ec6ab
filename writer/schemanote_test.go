package writer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// TestWriterUsesSchemaAsGiven checks that a numbered schema is used, not
// copied, and that a subtree, numbered from its place in its tree, is
// copied and numbered from 0.
func TestWriterUsesSchemaAsGiven(t *testing.T) {
	s := orc.MustParseSchema("struct<a:bigint,b:struct<c:string,d:decimal(10,2)>>")
	w, err := writer.NewWriter(&bytes.Buffer{}, s)
	if err != nil {
		t.Fatal(err)
	}
	if w.Schema() != s {
		t.Errorf("the writer copied a schema numbered from 0")
	}
	sub := s.Children[1]
	w, err = writer.NewWriter(&bytes.Buffer{}, sub)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Schema(); got == sub || got.ID() != 0 || got.Children[1].ID() != 2 || sub.ID() != 2 {
		t.Errorf("a subtree: the writer's schema %p (ids %d, %d), the subtree %p (id %d)", got, got.ID(), got.Children[1].ID(), sub, sub.ID())
	}
}

// TestSchemaChangedAfterNewWriter changes the schema given to NewWriter
// in each way the file depends on: Write (but for field names, which only
// the footer holds) and Close must refuse, naming the column, and once the
// schema is put back the file must be the one written without the change.
func TestSchemaChangedAfterNewWriter(t *testing.T) {
	const text = "struct<a:bigint,b:struct<c:varchar(5),d:decimal(10,2)>,e:uniontype<int,string>>"
	changes := []struct {
		name   string
		change func(s *orc.Schema) (undo func())
		want   string
		names  bool // checked at Close only
	}{
		{"kind", func(s *orc.Schema) func() {
			s.Children[0].Kind = orc.Int
			return func() { s.Children[0].Kind = orc.Long }
		}, "column 1 was bigint, is int", false},
		{"scale", func(s *orc.Schema) func() {
			s.Children[1].Children[1].Scale = 3
			return func() { s.Children[1].Children[1].Scale = 2 }
		}, "column 4's type is decimal(10,3)", false},
		{"length", func(s *orc.Schema) func() {
			s.Children[1].Children[0].MaxLength = 50
			return func() { s.Children[1].Children[0].MaxLength = 5 }
		}, "column 3's type is varchar(50)", false},
		{"name", func(s *orc.Schema) func() {
			s.Children[1].FieldNames[1] = "x"
			return func() { s.Children[1].FieldNames[1] = "d" }
		}, `column 2's field names are ["c" "x"] now`, true},
		{"names", func(s *orc.Schema) func() {
			names := s.FieldNames
			s.FieldNames = names[:2]
			return func() { s.FieldNames = names }
		}, `column 0's field names are ["a" "b"] now`, false},
		{"attributes", func(s *orc.Schema) func() {
			s.Children[0].Attributes = map[string]string{"k": "v"}
			return func() { s.Children[0].Attributes = nil }
		}, "column 1's type is bigint", false},
		{"replaced", func(s *orc.Schema) func() {
			old := s.Children[0]
			s.Children[0] = orc.MustParseSchema("bigint")
			s.Assign()
			return func() { s.Children[0] = old }
		}, "column 1 is another node", false},
		{"variant", func(s *orc.Schema) func() {
			u := s.Children[2]
			u.Children = append(u.Children, orc.MustParseSchema("double"))
			s.Assign()
			return func() { u.Children = u.Children[:2]; s.Assign() }
		}, "column 5 had 2 children, has 3", false},
	}
	want := writeChanged(t, text, nil)
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			if got := writeChanged(t, text, func(s *orc.Schema, w *writer.Writer, b *orc.Batch) {
				undo := c.change(s)
				type call struct {
					name string
					err  error
				}
				calls := []call{{"Close", w.Close()}}
				if !c.names {
					calls = append(calls, call{"Write", w.Write(b)})
				}
				for _, call := range calls {
					if call.err == nil || !strings.Contains(call.err.Error(), "changed after") || !strings.Contains(call.err.Error(), c.want) {
						t.Errorf("%s: %v, want an error saying %q", call.name, call.err, c.want)
					}
				}
				undo()
			}); !bytes.Equal(got, want) {
				t.Errorf("after the schema is put back: a file of %d bytes, want the %d of one written without the change", len(got), len(want))
			}
		})
	}
}

// writeChanged writes two rows of schema text, calling between them, if
// not nil, change with the writer's schema, the writer and the batch of
// the second row, and returns the file.
func writeChanged(t *testing.T, text string, change func(*orc.Schema, *writer.Writer, *orc.Batch)) []byte {
	t.Helper()
	s := orc.MustParseSchema(text)
	var out bytes.Buffer
	w, err := writer.NewWriter(&out, s)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1)
	b.Cols[0].(*orc.LongVector).Append(7)
	st := b.Cols[1].(*orc.StructVector)
	st.N = 1
	st.Fields[0].(*orc.BytesVector).AppendString("abc")
	dv := st.Fields[1].(*orc.DecimalVector)
	dv.Append(orc.Int128FromInt64(1234))
	dv.Scale = 2
	u := b.Cols[2].(*orc.UnionVector)
	u.Tags = append(u.Tags, 1)
	u.Children[0].(*orc.LongVector).Append(0)
	u.Children[1].(*orc.BytesVector).AppendString("u")
	b.NumRows = 1
	for i := range 2 {
		if i == 1 && change != nil {
			change(s, w, b)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
