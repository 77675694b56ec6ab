package ingest

import (
	"testing"

	"github.com/orcgo/orc/geo"
)

// The WKB of a WKT text is built in one buffer of wkbSizeBound bytes: it
// never grows (which copied five times its size on a long line).
func TestWKBSizeBound(t *testing.T) {
	for _, wkt := range []string{
		"POINT (1 2)", "POINT EMPTY", "POINT Z (1 2 3)", "POINT (NaN NaN)",
		"LINESTRING (0 0, 1 1, 2 2)", "POLYGON ((0 0, 1 0, 1 1, 0 0), (0.1 0.1, 0.2 0.1, 0.2 0.2, 0.1 0.1))",
		"MULTIPOINT ((1 2), (3 4))", "MULTIPOINT (1 2, 3 4)", "MULTIPOLYGON Z (((0 0 1, 1 0 1, 1 1 1, 0 0 1)))",
		"GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1), GEOMETRYCOLLECTION EMPTY)",
		"MULTILINESTRING ZM ((0 0 0 0, 1 1 1 1))", "LINESTRING(-1.5e3 +2,3 4)",
	} {
		got, err := parseGeometryText(wkt)
		if err != nil {
			t.Fatalf("%s: %v", wkt, err)
		}
		want, err := geo.AppendWKB(nil, wkt)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%s: the WKB differs (%v)", wkt, err)
		}
		if bound := wkbSizeBound(wkt); len(got) > bound || cap(got) != bound {
			t.Errorf("%s: %d bytes of WKB, bound %d, capacity %d", wkt, len(got), bound, cap(got))
		}
	}
}
