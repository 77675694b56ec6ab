package orc_test

import (
	"strconv"
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

// FieldIndex prefers the exact name wherever it stands, and calls two
// matches ignoring case ambiguous.
func TestSchemaFieldIndex(t *testing.T) {
	s := orc.MustParseSchema("struct<Ab:int,aB:int,ab:int,x:int>")
	for _, tc := range []struct {
		name      string
		want      int
		ambiguous bool
	}{
		{"ab", 2, false}, {"aB", 1, false}, {"AB", -1, true}, {"X", 3, false}, {"y", -1, false},
	} {
		i, amb := s.FieldIndex(tc.name)
		if i != tc.want || amb != tc.ambiguous {
			t.Errorf("FieldIndex(%q) = %d, %v; want %d, %v", tc.name, i, amb, tc.want, tc.ambiguous)
		}
	}
	if i, amb := orc.MustParseSchema("array<int>").FieldIndex("x"); i != -1 || amb {
		t.Errorf("a list's FieldIndex = %d, %v; want -1, false", i, amb)
	}
}

// Lineage lists the columns from the root down to the one asked for.
func TestSchemaLineage(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,b:struct<c:int,d:array<int>>>")
	for id, want := range map[int]string{0: "0", 1: "0 1", 3: "0 2 3", 5: "0 2 4 5", 6: ""} {
		var got []string
		for _, n := range s.Lineage(id) {
			got = append(got, strconv.Itoa(n.ID()))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("Lineage(%d) = %v, want %s", id, got, want)
		}
	}
	if got := s.Children[1].Lineage(5); len(got) != 3 || got[0] != s.Children[1] {
		t.Errorf("Lineage from a subtree = %v, want b, d and its element", got)
	}
}
