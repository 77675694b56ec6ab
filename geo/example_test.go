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
