package orc_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// The Append helpers build valid vectors of every type, nulls included at
// every level: the writer takes them and the reader returns the same rows.
func TestAppendHelpers(t *testing.T) {
	s := orc.MustParseSchema("struct<i:int,d:double,m:decimal(10,2),ts:timestamp,s:string," +
		"st:struct<a:int,b:string>,l:array<bigint>,mp:map<string,int>,u:uniontype<int,string>>")
	b := orc.NewBatch(s, 4)
	c := func(name string) orc.Vector { return b.Col(name) }
	for row := range 3 {
		null := row == 1
		if null {
			c("i").(*orc.LongVector).AppendNull()
			c("d").(*orc.DoubleVector).AppendNull()
			c("m").(*orc.DecimalVector).AppendNull()
			c("ts").(*orc.TimestampVector).AppendNull()
			c("s").(*orc.BytesVector).AppendNull()
			c("st").(*orc.StructVector).AppendNull()
			c("l").(*orc.ListVector).AppendNull()
			c("mp").(*orc.MapVector).AppendNull()
			c("u").(*orc.UnionVector).AppendNull()
			continue
		}
		c("i").(*orc.LongVector).Append(int64(row))
		c("d").(*orc.DoubleVector).Append(float64(row) / 2)
		c("m").(*orc.DecimalVector).Append(orc.Int128FromInt64(int64(row*100 + 5)))
		c("ts").(*orc.TimestampVector).Append(int64(row)*86400, 5)
		c("s").(*orc.BytesVector).AppendString("x")
		st := c("st").(*orc.StructVector)
		st.Fields[0].(*orc.LongVector).Append(7)
		st.Fields[1].(*orc.BytesVector).AppendNull()
		st.AppendRow()
		l := c("l").(*orc.ListVector)
		l.Elem.(*orc.LongVector).Append(1)
		l.Elem.(*orc.LongVector).AppendNull()
		l.AppendRow()
		mp := c("mp").(*orc.MapVector)
		mp.Keys.(*orc.BytesVector).AppendString("k")
		mp.Values.(*orc.LongVector).Append(int64(row))
		mp.AppendRow()
		u := c("u").(*orc.UnionVector)
		if row == 0 {
			u.Children[0].(*orc.LongVector).Append(42)
			u.AppendRow(0)
		} else {
			u.Children[1].(*orc.BytesVector).AppendString("v")
			u.AppendRow(1)
		}
	}
	b.NumRows = 3
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	br, _ := r.NewBatchReader()
	defer br.Close()
	got := br.NewBatch()
	if err := br.Next(got); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i := range got.NumRows {
		lines = append(lines, string(reader.AppendJSONRow(nil, got, i)))
	}
	want := []string{
		`{"i": 0, "d": 0, "m": 0.05, "ts": "1970-01-01 00:00:00.000000005", "s": "x", "st": {"a": 7, "b": null}, "l": [1, null], "mp": [{"key": "k", "value": 0}], "u": {"tag": 0, "value": 42}}`,
		`{"i": null, "d": null, "m": null, "ts": null, "s": null, "st": null, "l": null, "mp": null, "u": null}`,
		`{"i": 2, "d": 1, "m": 2.05, "ts": "1970-01-03 00:00:00.000000005", "s": "x", "st": {"a": 7, "b": null}, "l": [1, null], "mp": [{"key": "k", "value": 2}], "u": {"tag": 1, "value": "v"}}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// CapacityBytes counts every slice's capacity times its element size, on
// every vector kind, nested ones included.
func TestBatchCapacityBytes(t *testing.T) {
	s := orc.MustParseSchema("struct<a:bigint,b:string,c:array<decimal(10,2)>,d:map<string,double>,e:timestamp,f:uniontype<int,string>,g:struct<h:float>>")
	b := orc.NewBatch(s, 100)
	// Per row: 8 (a), 8 offsets (b; 101 of them), 8 offsets + 16 (c),
	// 8 offsets + 8 offsets + 8 (d), 12 (e), 1 tag + 8 + 8 offsets (f), 8 (g).
	want := int64(100*8 + 101*8 + 101*8 + 100*16 + 101*8 + 101*8 + 100*8 + 100*12 + 100 + 100*8 + 101*8 + 100*8)
	if got := b.CapacityBytes(); got != want {
		t.Fatalf("CapacityBytes of an empty 100-row batch = %d, want %d", got, want)
	}
	b.Cols[1].(*orc.BytesVector).Data = make([]byte, 0, 5000)
	b.Cols[0].(*orc.LongVector).Nulls.Nulls = make([]bool, 0, 100)
	if got := b.CapacityBytes(); got != want+5100 {
		t.Fatalf("CapacityBytes with 5,000 bytes of text and 100 null flags = %d, want %d", got, want+5100)
	}
}
