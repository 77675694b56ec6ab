package writer_test

// Strict batch checks: every vector, null mask and nanos slice holds
// exactly NumRows rows, and string, varchar and char values are UTF-8
// unless WithAllowInvalidUTF8.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

func TestMisuseStrictLengthsAndUTF8(t *testing.T) {
	s := orc.MustParseSchema(badSchema)
	opts := []writer.Option{writer.WithRowIndexStride(100), writer.WithBloomFilterColumns("i", "s")}
	cases := []struct {
		name   string
		break_ func(b *orc.Batch)
		want   []string
	}{
		{"NumRows below the vectors", func(b *orc.Batch) { b.NumRows = 2 }, []string{"column ti", "3 rows", "NumRows 2"}},
		{"NumRows 0 with filled vectors", func(b *orc.Batch) { b.NumRows = 0 }, []string{"column ti", "NumRows 0"}},
		{"one vector longer", func(b *orc.Batch) { b.Cols[6].(*orc.BytesVector).AppendString("x") }, []string{"column s", "4 rows", "NumRows 3"}},
		{"nanos longer than seconds", func(b *orc.Batch) {
			v := b.Cols[8].(*orc.TimestampVector)
			v.Nanos = append(v.Nanos, 0)
		}, []string{"column ts", "4 nanos"}},
		{"long null mask", func(b *orc.Batch) {
			b.Cols[0].(*orc.LongVector).Nulls.Nulls = []bool{false, true, false, false}
		}, []string{"column ti", "null mask has 4 entries for 3 rows"}},
		{"long null mask in a struct field", func(b *orc.Batch) {
			b.Cols[11].(*orc.StructVector).Fields[0].(*orc.LongVector).Nulls.Nulls = make([]bool, 5)
		}, []string{"column st.x", "null mask has 5 entries"}},
		{"invalid UTF-8 string", func(b *orc.Batch) {
			v := b.Cols[6].(*orc.BytesVector)
			v.Data[1] = 0xff // row 1 is "bb"
		}, []string{"column s", "row 1", "UTF-8"}},
		{"invalid UTF-8 map key", func(b *orc.Batch) {
			b.Cols[10].(*orc.MapVector).Keys.(*orc.BytesVector).Data[0] = 0x80
		}, []string{"column m._key", "row 0", "UTF-8"}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			bad := goodBatch()
			c.break_(bad)
			refused(t, s, goodBatch, bad, opts, c.want...)
		})
	}
}

const textSchema = "struct<b:boolean,s:string,v:varchar(3),c:char(3)>"

func textBatch() *orc.Batch {
	s := orc.MustParseSchema(textSchema)
	b := orc.NewBatch(s, 2)
	b.NumRows = 2
	bv := b.Cols[0].(*orc.LongVector)
	bv.Values = []int64{1, 7} // junk under the null
	bv.Nulls.Nulls = []bool{false, true}
	for i := 1; i <= 3; i++ {
		v := b.Cols[i].(*orc.BytesVector)
		v.AppendString("éa")
		v.AppendString("x")
	}
	return b
}

// TestMisuseText covers text that is not UTF-8 in each text type.
func TestMisuseText(t *testing.T) {
	s := orc.MustParseSchema(textSchema)
	cases := []struct {
		name   string
		break_ func(b *orc.Batch)
		want   []string
	}{
		{"string", func(b *orc.Batch) { b.Cols[1].(*orc.BytesVector).Data[2] = 0xc3 }, []string{"column s", "row 0", "UTF-8"}},
		{"varchar", func(b *orc.Batch) { b.Cols[2].(*orc.BytesVector).Data[3] = 0xfe }, []string{"column v", "row 1", "UTF-8"}},
		{"char", func(b *orc.Batch) { b.Cols[3].(*orc.BytesVector).Data[1] = 'a' }, []string{"column c", "row 0", "UTF-8"}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			bad := textBatch()
			c.break_(bad)
			refused(t, s, textBatch, bad, nil, c.want...)
		})
	}
}

// TestAllowInvalidUTF8 checks the opt-out: bytes are stored as given, and
// varchar/char count each byte that does not start a valid sequence as one
// character.
func TestAllowInvalidUTF8(t *testing.T) {
	s := orc.MustParseSchema("struct<s:string,v:varchar(3),c:char(3)>")
	b := orc.NewBatch(s, 1)
	b.NumRows = 1
	for i := range 3 {
		b.Cols[i].(*orc.BytesVector).Append([]byte("\xffé\x80zz"))
	}
	want := [][]string{{"\xffé\x80zz"}, {"\xffé\x80"}, {"\xffé\x80"}}
	for col := range 3 {
		if got := readStrings(t, b, col, writer.WithAllowInvalidUTF8(true)); fmt.Sprint(got) != fmt.Sprint(want[col]) {
			t.Errorf("column %d: %q, want %q", col, got, want[col])
		}
	}
	if _, err := writer.NewWriter(&bytes.Buffer{}, s, writer.WithAllowInvalidUTF8(false)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := writer.NewWriter(&buf, s)
	if err := w.Write(b); err == nil || !strings.Contains(err.Error(), "WithAllowInvalidUTF8") {
		t.Errorf("default: error %v does not name the option", err)
	}
}

// A boolean column holds 0 or 1; anything else is refused, naming the row.
func TestBooleanRange(t *testing.T) {
	s := orc.MustParseSchema("struct<b:boolean>")
	for _, v := range []int64{2, -1} {
		w, err := writer.NewWriter(io.Discard, s)
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(s, 3)
		b.Cols[0].(*orc.LongVector).Values = []int64{0, 1, v}
		b.NumRows = 3
		if err := w.Write(b); err == nil || !strings.Contains(err.Error(), "row 2") {
			t.Fatalf("boolean %d: %v", v, err)
		}
		b.Cols[0].(*orc.LongVector).Values[2] = 1
		if err := w.Write(b); err != nil {
			t.Fatalf("after a refused batch: %v", err)
		}
	}
}
