package orc_test

import (
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// Resolve matches column names as predicates do: exactly, else the one
// field equal ignoring case (issue 48, item 10).
func TestSchemaResolve(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,Loc:struct<Lat:double,lat:double,lon:double>,`a.b`:int,x:int,X:int>")
	for _, tc := range []struct{ in, want, err string }{
		{"id", "id", ""},
		{"ID", "id", ""},
		{"loc.LON", "Loc.lon", ""},
		{"Loc.Lat", "Loc.Lat", ""},
		{"loc.LAT", "", "several"},
		{"x", "x", ""},
		{"`A.B`", "`a.b`", ""},
		{"nope", "", `no column "nope"`},
		{"id.x", "", "not a struct"},
	} {
		got, node, err := s.Resolve(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q %v, want an error with %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want || node == nil || s.Find(got) != node {
			t.Errorf("%s: %q %v, want %q", tc.in, got, err, tc.want)
		}
	}
}
