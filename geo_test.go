package orc_test

import (
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

func TestGeoSchema(t *testing.T) {
	cases := []struct{ in, out string }{
		{"geometry", "geometry(OGC:CRS84)"},
		{"GEOMETRY(EPSG:4326)", "geometry(EPSG:4326)"},
		{"geometry( srid:3857 )", "geometry(srid:3857)"},
		{"geography", "geography(OGC:CRS84,spherical)"},
		{"geography(OGC:CRS84)", "geography(OGC:CRS84,spherical)"},
		{"geography(EPSG:4326,KARNEY)", "geography(EPSG:4326,karney)"},
		{"geography(OGC:CRS84,speherial)", "geography(OGC:CRS84,spherical)"}, // as Apache C++ prints it
		{"geometry(`a,b (c)`)", "geometry(`a,b (c)`)"},
		{"struct<g:geometry,h:array<geography(x:1,vincenty)>>", "struct<g:geometry(OGC:CRS84),h:array<geography(x:1,vincenty)>>"},
	}
	for _, c := range cases {
		s, err := orc.ParseSchema(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := s.String(); got != c.out {
			t.Errorf("%s printed %q, want %q", c.in, got, c.out)
		}
		again, err := orc.ParseSchema(s.String())
		if err != nil || again.String() != c.out {
			t.Errorf("%s does not parse back: %v", c.out, err)
		}
	}
	g := orc.MustParseSchema("geography(EPSG:4326,andoyer)")
	if g.Kind != orc.Geography || g.CRS != "EPSG:4326" || g.Edges != orc.Andoyer || !g.Kind.IsGeospatial() {
		t.Errorf("parsed %+v", g)
	}
	for _, bad := range []string{"geometry()", "geometry(x,spherical)", "geography(x,round)", "geometry(x", "geography(,karney)"} {
		if _, err := orc.ParseSchema(bad); err == nil || !strings.Contains(err.Error(), "orc: bad type") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if err := (&orc.Schema{Kind: orc.Geometry, Edges: orc.Karney}).Validate(); err == nil {
		t.Error("geometry with an edge algorithm validated")
	}
	if err := (&orc.Schema{Kind: orc.Geography, Edges: 9}).Validate(); err == nil {
		t.Error("algorithm 9 validated")
	}
}
