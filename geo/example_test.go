package geo_test

import (
	"fmt"

	"github.com/orcgo/orc/geo"
)

func Example() {
	wkb, err := geo.AppendWKB(nil, "LINESTRING (30 10, 10 30, 40 40)")
	if err != nil {
		panic(err)
	}
	box, code, err := geo.Envelope(wkb)
	if err != nil {
		panic(err)
	}
	text, _ := geo.AppendWKT(nil, wkb)
	fmt.Println(string(text))
	fmt.Println(geo.TypeName(code), box.Min[:2], box.Max[:2])
	fmt.Println(geo.Validate(wkb[:20]))
	// Output:
	// LINESTRING (30 10, 10 30, 40 40)
	// LINESTRING [10 10] [40 40]
	// bad WKB at byte 5: 3 points need at least 48 bytes, 11 remain
}

func ExampleContains() {
	var square, point, edge geo.Shape
	_ = square.SetWKT("POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))")
	_ = point.SetWKT("POINT (2 2)")
	_ = edge.SetWKT("LINESTRING (0 0, 4 0)")
	fmt.Println(geo.Contains(&square, &point), geo.Contains(&square, &edge), geo.Intersects(&square, &edge))
	// Output:
	// true false true
}
