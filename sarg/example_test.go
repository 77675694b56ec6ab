package sarg_test

import (
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

func Example() {
	schema := orc.MustParseSchema("struct<c1:string,c2:int,c3:int>")
	e, err := sarg.Parse("c1 = '619sdc' OR c2 = 100 AND c3 = 200")
	if err != nil {
		panic(err)
	}
	b, err := sarg.Bind(e, schema)
	if err != nil {
		panic(err)
	}
	// A row group whose statistics cover c1 and c3 only.
	unit := sarg.MapSource{Columns: map[int]*stats.Column{
		1: {Kind: orc.String, NumValues: 100, HasNullKnown: true,
			String: &stats.StringStats{Min: "a", Max: "b", HasMin: true, HasMax: true}},
		3: {Kind: orc.Int, NumValues: 100, HasNullKnown: true,
			Int: &stats.IntStats{Min: 0, Max: 10, HasMinMax: true}},
	}}
	v := b.Evaluate(unit)
	fmt.Println(v, v.IsNeeded())
	fmt.Println(b.Effective(func(col int) bool { return col == 1 || col == 3 }))
	// Output:
	// NO false
	// c1 = '619sdc' OR c3 = 200
}

func ExampleMatcher_Match() {
	schema := orc.MustParseSchema("struct<x:int,s:string>")
	b := sarg.MustBind(sarg.MustParse("x > 2 AND s IN ('a', NULL) OR x IS NULL"), schema)
	x := &orc.LongVector{Values: []int64{1, 3, 5, 0}, Nulls: orc.Nulls{Nulls: []bool{false, false, false, true}}}
	s := &orc.BytesVector{}
	for _, v := range []string{"a", "a", "b", "c"} {
		s.AppendString(v)
	}
	m := b.NewMatcher()
	rows, err := m.Match(sarg.ColumnVectors{1: x, 2: s}, 4, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(rows)
	// Output: [false true false true]
}

func ExampleNormalize() {
	e := sarg.Not(sarg.And(sarg.Gt("x", sarg.Int(5)), sarg.IsNotNull("y")))
	fmt.Println(sarg.Normalize(e))
	// Output: x <= 5 OR y IS NULL
}

func ExampleParse_error() {
	_, err := sarg.Parse("x BETWEEN 1 OR 2")
	fmt.Println(err)
	// Output: sarg: syntax error at byte 12: expected AND in BETWEEN, found "OR"
}

// A predicate over terms: arithmetic over two columns prunes from the
// interval statistics give the difference, and filters rows exactly.
func ExampleTermLeaf() {
	schema := orc.MustParseSchema("struct<x:bigint,y:bigint>")
	b := sarg.MustBind(sarg.MustParse("x - y > 0 AND (x + 1) * 2 > 10"), schema)
	ints := func(lo, hi int64) *stats.Column {
		return &stats.Column{Kind: orc.Long, NumValues: 100, HasNullKnown: true, Int: &stats.IntStats{Min: lo, Max: hi, HasMinMax: true}}
	}
	// x in [0, 10] and y in [20, 30]: x - y lies in [-30, -10].
	fmt.Println(b.Evaluate(sarg.MapSource{Columns: map[int]*stats.Column{1: ints(0, 10), 2: ints(20, 30)}}))
	x := &orc.LongVector{Values: []int64{7, 3, 9}}
	y := &orc.LongVector{Values: []int64{1, 1, 12}}
	rows, err := b.Match(sarg.ColumnVectors{1: x, 2: y}, 3, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(rows)
	// Output:
	// NO
	// [true false false]
}

// Geometry tests against a shape written as WKT: exact on rows (a polygon
// does not contain a point of its boundary), pruned by the units' boxes.
func ExampleContains() {
	schema := orc.MustParseSchema("struct<id:int,g:geometry>")
	b := sarg.MustBind(sarg.MustParse("ST_CONTAINS('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))', g)"), schema)
	fmt.Println(b)
	g := &orc.BytesVector{}
	for _, wkt := range []string{"POINT (2 2)", "POINT (4 2)", "LINESTRING (1 1, 3 3)", "LINESTRING (1 1, 5 5)"} {
		wkb, _ := geo.AppendWKB(nil, wkt)
		g.Append(wkb)
	}
	rows, err := b.Match(sarg.ColumnVectors{2: g}, 4, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(rows)
	// A row group whose values all lie in x [10, 20], y [0, 5].
	unit := sarg.MapSource{Columns: map[int]*stats.Column{2: {Kind: orc.Geometry, NumValues: 100, HasNullKnown: true,
		Geo: &stats.GeoStats{Box: geo.Box{Min: [4]float64{10, 0}, Max: [4]float64{20, 5}}, Types: stats.TypeSet(0).Add(geo.Point)}}}}
	fmt.Println(b.Evaluate(unit))
	// Output:
	// ST_WITHIN(g, 'POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))')
	// [true false true false]
	// NO
}
