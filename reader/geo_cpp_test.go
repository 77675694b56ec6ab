package reader_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// cppGeoValues are the WKB values, in hex ("" for null), that
// testdata/cpp-geo-zstd.orc holds. Apache ORC C++ (3.0.0-SNAPSHOT, commit
// 3738b82, ORC-1903's geospatial types) wrote it with the driver in
// scripts/cppgeo: struct<id:bigint,g:geometry(OGC:CRS84),g2:geometry(EPSG:4326),
// h:geography(OGC:CRS84,spherical),h2:geography(OGC:CRS84,karney),
// l:array<geometry(OGC:CRS84)>>, 4,000 rows, ZSTD, row index stride 1,000,
// two stripes (3,108 and 892 rows). Every type code in XY, XYZ, XYM and XYZM,
// empty geometries, big-endian values, a NaN coordinate and a null.
var cppGeoValues = []string{
	"0101000000000000000000f03f0000000000000040",
	"01e9030000000000000000f03f00000000000000400000000000000840",
	"01d1070000000000000000f03f00000000000000400000000000001040",
	"01b90b0000000000000000f03f000000000000004000000000000008400000000000001040",
	"0101000000010000000000f87f010000000000f87f",
	"01020000000200000000000000000000000000000000000000000000000000244000000000000008c0",
	"01ea03000002000000000000000000000000000000000000000000000000001440000000000000244000000000000008c00000000000001c40",
	"010200000000000000",
	"01030000000200000005000000000000000000000000000000000000000000000000001040000000000000000000000000000010400000000000001040000000000000000000000000000010400000000000000000000000000000000004000000000000000000f03f000000000000f03f0000000000000040000000000000f03f00000000000000400000000000000040000000000000f03f000000000000f03f",
	"01bb0b0000010000000400000000000000000000000000000000000000000000000000f03f000000000000004000000000000010400000000000000000000000000000f03f000000000000004000000000000010400000000000001040000000000000f03f000000000000004000000000000000000000000000000000000000000000f03f0000000000000040",
	"010300000000000000",
	"0104000000020000000101000000000000000000f03f000000000000f03f010100000000000000000014c00000000000001c40",
	"010400000000000000",
	"01050000000200000001020000000200000000000000000000000000000000000000000000000000f03f000000000000f03f0102000000020000000000000000000040000000000000004000000000000008400000000000000840",
	"0106000000020000000103000000010000000400000000000000000000000000000000000000000000000000f03f0000000000000000000000000000f03f000000000000f03f000000000000000000000000000000000103000000010000000400000000000000000014400000000000001440000000000000184000000000000014400000000000001840000000000000184000000000000014400000000000001440",
	"01070000000200000001010000000000000000000840000000000000104001020000000200000000000000004065400000000000005440000000000070664000000000004055c0",
	"010700000000000000",
	"01d70700000200000001d107000000000000000008400000000000001040000000000000224001d207000000000000",
	"0000000001c05e2000000000004040a00000000000",
	"00000003e9401c00000000000040200000000000004022000000000000",
	"0101000000010000000000f87f0000000000001440",
	"0000000002000000024000000000000000c06900000000000040080000000000004062c00000000000",
	"",
}

// cppGeoRow returns row i's value of g, g2, h and h2 (nil for null) and its
// list l, as the driver generates them.
func cppGeoRow(t *testing.T, vals [][]byte, i int) (v []byte, l [][]byte) {
	t.Helper()
	v = vals[i%len(vals)]
	if i%len(vals) == 0 && i > 0 { // a point walking over the world
		var err error
		v, err = geo.AppendWKB(nil, fmt.Sprintf("POINT (%d %d)", i%360-180, i%170-85))
		if err != nil {
			t.Fatal(err)
		}
	}
	for j := range i % 3 {
		w := vals[(i+j+1)%len(vals)]
		if w == nil {
			w = vals[0]
		}
		l = append(l, w)
	}
	return v, l
}

// TestGeoReadsApacheCPP reads geometry and geography that Apache ORC C++
// wrote: the types with their CRS and algorithm, every value byte for byte,
// the statistics of file and stripes (boxes and type codes equal to those
// of the values), and box queries pruned by C++'s row-group statistics
// returning what a filtered full scan returns.
func TestGeoReadsApacheCPP(t *testing.T) {
	data, err := os.ReadFile("testdata/cpp-geo-zstd.orc")
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	const schema = "struct<id:bigint,g:geometry(OGC:CRS84),g2:geometry(EPSG:4326),h:geography(OGC:CRS84,spherical)," +
		"h2:geography(OGC:CRS84,karney),l:array<geometry(OGC:CRS84)>>"
	if got := r.Schema().String(); got != schema {
		t.Fatalf("schema %s, want %s", got, schema)
	}
	vals := make([][]byte, len(cppGeoValues))
	for i, h := range cppGeoValues {
		if h != "" {
			vals[i], _ = hex.DecodeString(h)
		}
	}

	// Values, and the statistics they call for, per stripe and for the file.
	type acc struct {
		box   geo.Box
		types stats.TypeSet
		n     uint64
		null  bool
	}
	newAcc := func() *acc { return &acc{box: geo.EmptyBox()} }
	add := func(a *acc, v []byte) {
		if v == nil {
			a.null = true
			return
		}
		code, err := geo.Bound(v, &a.box)
		if err != nil {
			t.Fatal(err)
		}
		a.types = a.types.Add(code)
		a.n++
	}
	fileG, fileL := newAcc(), newAcc()
	var stripeG, stripeL []*acc
	br, err := r.NewBatchReader(reader.WithBatchSize(500))
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	row, stripeEnd, stripe := 0, int64(0), -1
	for br.Next(b) == nil {
		for k := range b.NumRows {
			for int64(row) >= stripeEnd {
				stripe++
				stripeEnd += r.Stripes()[stripe].NumRows
				stripeG, stripeL = append(stripeG, newAcc()), append(stripeL, newAcc())
			}
			v, l := cppGeoRow(t, vals, row)
			if id := b.Cols[0].(*orc.LongVector).Values[k]; id != int64(row) {
				t.Fatalf("row %d: id %d", row, id)
			}
			for c := 1; c <= 4; c++ {
				col := b.Cols[c].(*orc.BytesVector)
				if col.IsNull(k) != (v == nil) || !bytes.Equal(col.Get(k), v) {
					t.Fatalf("row %d column %d: %x, want %x", row, c, col.Get(k), v)
				}
			}
			lv := b.Cols[5].(*orc.ListVector)
			el := lv.Elem.(*orc.BytesVector)
			if n := int(lv.Offsets[k+1] - lv.Offsets[k]); n != len(l) {
				t.Fatalf("row %d: %d list elements, want %d", row, n, len(l))
			}
			for j, w := range l {
				if got := el.Get(int(lv.Offsets[k]) + j); !bytes.Equal(got, w) {
					t.Fatalf("row %d element %d: %x, want %x", row, j, got, w)
				}
				add(fileL, w)
				add(stripeL[stripe], w)
			}
			add(fileG, v)
			add(stripeG[stripe], v)
			row++
		}
	}
	if row != 4000 || len(stripeG) != 2 {
		t.Fatalf("%d rows in %d stripes, want 4000 in 2", row, len(stripeG))
	}
	check := func(what string, got stats.Column, ok bool, want *acc) {
		t.Helper()
		if !ok || got.Geo == nil {
			t.Fatalf("%s: no geospatial statistics", what)
		}
		if got.Geo.Box != want.box || got.Geo.Types != want.types || got.NumValues != want.n || got.HasNull != want.null {
			t.Errorf("%s: box %v..%v types %v count %d null %v, want %v..%v %v %d %v", what,
				got.Geo.Box.Min, got.Geo.Box.Max, got.Geo.Types.Codes(), got.NumValues, got.HasNull,
				want.box.Min, want.box.Max, want.types.Codes(), want.n, want.null)
		}
	}
	for _, col := range []int{2, 3} {
		st, ok := r.Statistics(col)
		check(fmt.Sprint("file column ", col), st, ok, fileG)
		for s := range stripeG {
			st, ok := r.StripeStatistics(s, col)
			check(fmt.Sprintf("stripe %d column %d", s, col), st, ok, stripeG[s])
		}
	}
	st, ok := r.Statistics(7)
	check("file column 7", st, ok, fileL)
	// Geography: C++ writes an empty geospatial_statistics and, unlike Java
	// and orcgo, counts no values (number_of_values 0, has_null false).
	for _, col := range []int{4, 5} {
		st, ok := r.Statistics(col)
		if !ok || st.Geo == nil || st.Geo.Box.HasXY() || st.Geo.Types != 0 || st.NumValues != 0 {
			t.Errorf("geography column %d: %+v %+v", col, st, st.Geo)
		}
	}

	// Box queries pruned by C++'s statistics against a filtered full scan.
	// Every row group holds the repeating values (x from -120.5 to 179.5)
	// and some walking points; only group 1 of stripe 0 reaches x = -179.
	all, _ := scanLines(t, r)
	gv := &orc.BytesVector{}
	for i := range all {
		if v, _ := cppGeoRow(t, vals, i); v == nil {
			gv.AppendNull()
		} else {
			gv.Append(v)
		}
	}
	for _, q := range []struct {
		box         [4]float64
		fileSkipped bool // the file's box misses the query
		minSkipped  int  // row groups skipped at least
		nonEmpty    bool
	}{
		{[4]float64{0, 200, 10, 300}, true, 0, false},         // above every y
		{[4]float64{-179.2, -90, -178.8, 90}, false, 2, true}, // one row group's point
		{[4]float64{0, 0, 4, 4}, false, 0, true},              // the polygons, POINT (1 2)
		{[4]float64{179, -90, -179, 90}, false, 0, true},      // across the antimeridian
		{[4]float64{-121, 33, -120, 34}, false, 0, true},      // the big-endian point
	} {
		for _, e := range []sarg.Expr{
			sarg.IntersectsBox("g", q.box[0], q.box[1], q.box[2], q.box[3]),
			sarg.WithinBox("g", q.box[0], q.box[1], q.box[2], q.box[3]),
		} {
			keep, err := sarg.MustBind(e, r.Schema()).Match(sarg.ColumnVectors{2: gv}, len(all), nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i, line := range all {
				if keep[i] {
					want = append(want, line)
				}
			}
			got, st := scanLines(t, r, reader.WithSearchArgument(e), reader.WithExactFilter(true))
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %d rows, full scan %d", e, len(got), len(want))
			}
			if q.nonEmpty && len(want) == 0 {
				t.Errorf("%s: the full scan finds nothing", e)
			}
			if (st.FilesSkipped == 1) != q.fileSkipped || st.GroupsSkipped < q.minSkipped {
				t.Errorf("%s: file skipped %v, %d row groups skipped; want %v, at least %d", e,
					st.FilesSkipped == 1, st.GroupsSkipped, q.fileSkipped, q.minSkipped)
			}
		}
	}
}
