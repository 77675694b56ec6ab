package reader_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// The evolution test writes the same rows twice: with an old schema, and
// with the read schema, converted in Go by the rules WithReadSchema
// documents. Reading the old file through the read schema must give the
// rows of the new file read plainly, with and without predicates.
const (
	evoOld = "struct<a:int,b:float,c:varchar(10),d:date,e:decimal(5,2),st:struct<x:smallint,y:string>," +
		"l:array<int>,m:map<string,tinyint>,f:string,g:tinyint,h:int,gone:string,ch:char(4)>"
	evoNew = "struct<e:decimal(10,4),a:bigint,b:double,c:string,newcol:string,d:timestamp," +
		"st:struct<y:varchar(3),z:int,x:bigint>,l:array<decimal(12,2)>,m:map<string,int>,f:char(6),g:double,H:int,ns:struct<p:int>,ch:string>"
)

// evoFiles returns the old file and the new (reference) file.
func evoFiles(t testing.TB, rows int) (old, ref *reader.Reader) {
	t.Helper()
	os, ns := orc.MustParseSchema(evoOld), orc.MustParseSchema(evoNew)
	ob, nb := orc.NewBatch(os, rows), orc.NewBatch(ns, rows)
	r := rand.New(rand.NewPCG(3, 5))
	words := []string{"", "a", "ab", "héllo", "日本語テキスト", "zz", "abcdefghij", "sp  "}
	oc := func(name string) orc.Vector { return ob.Col(name) }
	nc := func(name string) orc.Vector { return nb.Col(name) }
	long := func(v orc.Vector, x int64, null bool) {
		lv := v.(*orc.LongVector)
		lv.Values = append(lv.Values, x)
		lv.Nulls.Nulls = append(lv.Nulls.Nulls, null)
	}
	dbl := func(v orc.Vector, x float64, null bool) {
		dv := v.(*orc.DoubleVector)
		dv.Values = append(dv.Values, x)
		dv.Nulls.Nulls = append(dv.Nulls.Nulls, null)
	}
	dec := func(v orc.Vector, x int64, null bool) {
		dv := v.(*orc.DecimalVector)
		dv.Values = append(dv.Values, orc.Int128FromInt64(x))
		dv.Nulls.Nulls = append(dv.Nulls.Nulls, null)
	}
	str := func(v orc.Vector, s string, null bool) {
		bv := v.(*orc.BytesVector)
		if null {
			bv.AppendNull()
		} else {
			bv.AppendString(s)
		}
	}
	trunc := func(s string, n int) string {
		rs := []rune(s)
		if len(rs) > n {
			rs = rs[:n]
		}
		return string(rs)
	}
	pad := func(s string, n int) string {
		s = trunc(s, n)
		return s + strings.Repeat(" ", n-len([]rune(s)))
	}
	ost, nst := oc("st").(*orc.StructVector), nc("st").(*orc.StructVector)
	ol, nl := oc("l").(*orc.ListVector), nc("l").(*orc.ListVector)
	om, nm := oc("m").(*orc.MapVector), nc("m").(*orc.MapVector)
	nns := nc("ns").(*orc.StructVector)
	ol.Offsets, nl.Offsets, om.Offsets, nm.Offsets = []int64{0}, []int64{0}, []int64{0}, []int64{0}
	for i := range rows {
		null := func(k int) bool { return i%k == 0 }
		a := int64(i - rows/2)
		long(oc("a"), a, null(7))
		long(nc("a"), a, null(7))
		f := float32(i) / 3
		if i%97 == 5 {
			f = float32(math.NaN())
		}
		dbl(oc("b"), float64(f), null(11))
		dbl(nc("b"), float64(f), null(11))
		w := words[r.IntN(len(words))]
		if r.IntN(4) == 0 {
			w = fmt.Sprintf("k%05d", i)
		}
		str(oc("c"), w, null(5))
		str(nc("c"), w, null(5))
		str(nc("newcol"), "", true)
		d := int64(i/10 - 1000)
		long(oc("d"), d, null(13))
		ts := nc("d").(*orc.TimestampVector)
		ts.Seconds, ts.Nanos = append(ts.Seconds, d*86400), append(ts.Nanos, 0)
		ts.Nulls.Nulls = append(ts.Nulls.Nulls, null(13))
		e := int64(i%20000 - 10000)
		dec(oc("e"), e, null(17))
		dec(nc("e"), e*100, null(17))
		// st: null every 19th row; its fields have their own nulls.
		stNull := null(19)
		ost.Nulls.Nulls = append(ost.Nulls.Nulls, stNull)
		nst.Nulls.Nulls = append(nst.Nulls.Nulls, stNull)
		x := int64(i%3000 - 1500)
		long(ost.Fields[0], x, stNull || null(23))
		long(nst.Fields[2], x, stNull || null(23))
		y := words[(i/100)%len(words)]
		str(ost.Fields[1], y, stNull || null(29))
		str(nst.Fields[0], trunc(y, 3), stNull || null(29))
		long(nst.Fields[1], 0, true)
		ost.N, nst.N = ost.N+1, nst.N+1
		// l: null, empty or two elements.
		lnull := null(31)
		ol.Nulls.Nulls = append(ol.Nulls.Nulls, lnull)
		nl.Nulls.Nulls = append(nl.Nulls.Nulls, lnull)
		if !lnull && i%3 != 0 {
			for k := range 2 {
				long(ol.Elem, a+int64(k), k == 1 && i%2 == 0)
				dec(nl.Elem, (a+int64(k))*100, k == 1 && i%2 == 0)
			}
		}
		ol.Offsets = append(ol.Offsets, int64(ol.Elem.Len()))
		nl.Offsets = append(nl.Offsets, int64(nl.Elem.Len()))
		om.Nulls.Nulls = append(om.Nulls.Nulls, false)
		nm.Nulls.Nulls = append(nm.Nulls.Nulls, false)
		str(om.Keys, "k", false)
		str(nm.Keys, "k", false)
		long(om.Values, int64(i%100), null(37))
		long(nm.Values, int64(i%100), null(37))
		om.Offsets = append(om.Offsets, int64(om.Keys.Len()))
		nm.Offsets = append(nm.Offsets, int64(nm.Keys.Len()))
		str(oc("f"), w, null(41))
		str(nc("f"), pad(w, 6), null(41))
		g := int64(i%256 - 128)
		long(oc("g"), g, null(43))
		dbl(nc("g"), float64(g), null(43))
		long(oc("h"), int64(i), false)
		long(nc("H"), int64(i), false)
		str(oc("gone"), "x", false)
		str(oc("ch"), pad(w, 4), null(47))
		str(nc("ch"), pad(w, 4), null(47))
		nns.Nulls.Nulls = append(nns.Nulls.Nulls, true)
		long(nns.Fields[0], 0, true)
		nns.N++
	}
	ob.NumRows, nb.NumRows = rows, rows
	opts := []writer.Option{writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(int64(rows / 3))}
	old, _ = writeOpen(t, os, []*orc.Batch{ob}, opts...)
	ref, _ = writeOpen(t, ns, []*orc.Batch{nb}, opts...)
	return old, ref
}

// evoRows scans r and returns its rows as JSON.
func evoRows(t testing.TB, r *reader.Reader, opts ...reader.ScanOption) ([]string, reader.ScanStats) {
	t.Helper()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var rows []string
	b := br.NewBatch()
	for {
		err := br.Next(b)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.NumRows {
			rows = append(rows, string(reader.AppendJSONRow(nil, b, i)))
		}
	}
	return rows, br.Stats()
}

func evoSame(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d:\n got %s\nwant %s", what, i, got[i], want[i])
		}
	}
}

func TestReadSchemaRows(t *testing.T) {
	old, ref := evoFiles(t, 9000)
	read := orc.MustParseSchema(evoNew)
	want, _ := evoRows(t, ref)
	for _, batch := range []int{1000, 333} {
		got, _ := evoRows(t, old, reader.WithReadSchema(read), reader.WithBatchSize(batch))
		evoSame(t, fmt.Sprintf("batch %d", batch), got, want)
	}
	// A double-buffering caller: two batches in turn must not share vectors.
	br, err := old.NewBatchReader(reader.WithReadSchema(read), reader.WithBatchSize(500))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b1, b2 := br.NewBatch(), br.NewBatch()
	if err := br.Next(b1); err != nil {
		t.Fatal(err)
	}
	first := string(reader.AppendJSONRow(nil, b1, 0))
	if err := br.Next(b2); err != nil {
		t.Fatal(err)
	}
	if again := string(reader.AppendJSONRow(nil, b1, 0)); again != first || first != want[0] {
		t.Fatalf("batch 1 changed by filling batch 2:\n%s\n%s\nwant %s", first, again, want[0])
	}
	// A caller swapping vectors out of its batch (as dataset scans do)
	// keeps what it took.
	spare := br.NewBatch()
	b1.Cols, spare.Cols = spare.Cols, b1.Cols
	held := string(reader.AppendJSONRow(nil, spare, 0))
	if err := br.Next(b1); err != nil {
		t.Fatal(err)
	}
	if again := string(reader.AppendJSONRow(nil, spare, 0)); again != held {
		t.Fatalf("vectors swapped out of a batch were overwritten:\n%s\n%s", held, again)
	}
	if got := string(reader.AppendJSONRow(nil, b1, 0)); got != want[1000] {
		t.Fatalf("after a swap: got %s, want %s", got, want[1000])
	}
	// Projection by read names, in read order, with the missing column.
	got, _ := evoRows(t, old, reader.WithReadSchema(read), reader.WithColumns("newcol", "st.x", "a"))
	wantP, _ := evoRows(t, ref, reader.WithColumns("newcol", "st.x", "a"))
	evoSame(t, "projection", got, wantP)
	got, _ = evoRows(t, old, reader.WithReadSchema(read), reader.WithColumns("newcol"))
	wantP, _ = evoRows(t, ref, reader.WithColumns("newcol"))
	evoSame(t, "only a missing column", got, wantP)
}

func TestReadSchemaPositional(t *testing.T) {
	s := orc.MustParseSchema("struct<_col0:int,_col1:string>")
	b := orc.NewBatch(s, 3)
	for i := range 3 {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
		b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprint("v", i))
	}
	b.NumRows = 3
	r, _ := writeOpen(t, s, []*orc.Batch{b})
	got, _ := evoRows(t, r, reader.WithReadSchema(orc.MustParseSchema("struct<id:bigint,name:string,extra:int>")))
	if want := `{"id": 0, "name": "v0", "extra": null}`; got[0] != want {
		t.Fatalf("Hive _col names: got %s, want %s", got[0], want)
	}
	s2 := orc.MustParseSchema("struct<p:int,q:string>")
	b.Schema = s2
	r2, _ := writeOpen(t, s2, []*orc.Batch{b})
	got, _ = evoRows(t, r2, reader.WithReadSchema(orc.MustParseSchema("struct<id:bigint,name:string>")), reader.WithPositionalMatch(true))
	if want := `{"id": 2, "name": "v2"}`; got[2] != want {
		t.Fatalf("positional: got %s, want %s", got[2], want)
	}
}

func TestReadSchemaMismatch(t *testing.T) {
	old, _ := evoFiles(t, 10)
	for _, c := range []struct{ read, col string }{
		{"struct<a:smallint>", "a"},     // narrowing
		{"struct<b:int>", "b"},          // float -> int
		{"struct<e:decimal(5,1)>", "e"}, // scale cut
		{"struct<e:decimal(6,4)>", "e"}, // integer digits cut
		{"struct<st:struct<y:int>>", "st.y"},
		{"struct<l:map<int,int>>", "l"},
		{"struct<g:decimal(3,1)>", "g"}, // tinyint needs 3 integer digits
		{"struct<d:string>", "d"},
	} {
		_, err := old.NewBatchReader(reader.WithReadSchema(orc.MustParseSchema(c.read)))
		if !errors.Is(err, reader.ErrSchemaMismatch) || !strings.Contains(err.Error(), "column "+c.col+" ") {
			t.Errorf("%s: got %v, want ErrSchemaMismatch naming %s", c.read, err, c.col)
		}
	}
	if _, err := old.NewBatchReader(reader.WithReadSchema(orc.MustParseSchema("struct<h:int,H:bigint>"))); !errors.Is(err, reader.ErrSchemaMismatch) {
		t.Errorf("two read columns matching one file column: got %v", err)
	}
}

// TestReadSchemaPredicates is the differential test under evolution: every
// predicate on the read schema, pruned and exactly filtered on the old file,
// must return the rows the reference file returns, and pruning must still
// skip groups where the translation keeps statistics usable.
func TestReadSchemaPredicates(t *testing.T) {
	t.Parallel()
	old, ref := evoFiles(t, 20000)
	read := orc.MustParseSchema(evoNew)
	r := rand.New(rand.NewPCG(7, 11))
	leaf := func() sarg.Expr {
		switch r.IntN(13) {
		case 0:
			return sarg.Lt("a", sarg.Int(r.Int64N(30000)-15000))
		case 1:
			return sarg.Between("a", sarg.Int(r.Int64N(30000)-15000), sarg.Int(r.Int64N(30000)-15000))
		case 2:
			return sarg.Gt("b", sarg.Float(r.Float64()*10000))
		case 3:
			return sarg.Eq("c", sarg.String(fmt.Sprintf("k%05d", r.IntN(30000))))
		case 4:
			if r.IntN(2) == 0 {
				return sarg.IsNull("newcol")
			}
			return sarg.Eq("newcol", sarg.String("x"))
		case 5:
			return sarg.Ge("d", sarg.Timestamp(int64(r.IntN(3000)-1000)*86400+int64(r.IntN(2)), 0))
		case 6:
			return sarg.Le("e", sarg.Decimal(orc.Int128FromInt64(r.Int64N(2000000)-1000000), 4))
		case 7:
			return sarg.Eq("st.x", sarg.Int(r.Int64N(3000)-1500))
		case 8:
			return sarg.Eq("st.y", sarg.String([]string{"héllo", "hél", "ab", "日本語"}[r.IntN(4)]))
		case 9:
			return sarg.In("g", sarg.Float(float64(r.IntN(256)-128)), sarg.Float(0.5))
		case 10:
			return sarg.Eq("f", sarg.String([]string{"ab    ", "ab", "héllo "}[r.IntN(3)]))
		case 11:
			return sarg.Eq("ch", sarg.String([]string{"ab  ", "ab", "héll"}[r.IntN(3)]))
		default:
			return sarg.IsNull("st.z")
		}
	}
	var expr func(depth int) sarg.Expr
	expr = func(depth int) sarg.Expr {
		if depth == 0 || r.IntN(3) == 0 {
			e := leaf()
			if r.IntN(4) == 0 {
				e = sarg.Not(e)
			}
			return e
		}
		kids := []sarg.Expr{expr(depth - 1), expr(depth - 1)}
		if r.IntN(2) == 0 {
			return sarg.And(kids...)
		}
		return sarg.Or(kids...)
	}
	pruned := 0
	for k := range 40 {
		e := expr(2)
		want, _ := evoRows(t, ref, reader.WithSearchArgument(e), reader.WithExactFilter(true))
		for _, par := range []int{1, 2} {
			got, st := evoRows(t, old, reader.WithReadSchema(read), reader.WithSearchArgument(e), reader.WithExactFilter(true),
				reader.WithParallelism(par), reader.WithBatchSize(700))
			evoSame(t, fmt.Sprintf("%s (parallelism %d)", e, par), got, want)
			pruned += st.GroupsSkipped + 1000*st.StripesSkipped
		}
		if k%4 != 0 {
			continue
		}
		// With whole row groups, the rows returned include the matches.
		all, _ := evoRows(t, old, reader.WithReadSchema(read), reader.WithSearchArgument(e), reader.WithWholeRowGroups())
		set := map[string]int{}
		for _, row := range all {
			set[row]++
		}
		for _, row := range want {
			if set[row] == 0 {
				t.Fatalf("%s: pruning lost row %s", e, row)
			}
			set[row]--
		}
	}
	if pruned == 0 {
		t.Fatal("no predicate pruned anything under evolution")
	}
	// A leaf on a column the file lacks decides the whole file.
	_, st := evoRows(t, old, reader.WithReadSchema(read), reader.WithSearchArgument(sarg.Eq("newcol", sarg.String("x"))))
	if st.FilesSkipped != 1 || st.RowsDecoded != 0 {
		t.Fatalf("newcol = 'x' on a file without newcol: %+v", st)
	}
	_, st = evoRows(t, old, reader.WithReadSchema(read), reader.WithSearchArgument(sarg.Lt("a", sarg.Int(-9000))))
	if st.GroupsSkipped+st.StripesSkipped == 0 {
		t.Fatalf("a < -14000 on a widened int column pruned nothing: %+v", st)
	}
}
