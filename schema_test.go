package orc_test

import (
	"testing"

	"github.com/orcgo/orc"
)

// StringDepth writes compound types below the levels asked as kind<...>,
// and the whole type with enough levels.
func TestStringDepth(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,`b c`:struct<x:array<int>,y:map<string,struct<z:int>>>,u:uniontype<int,struct<q:int>>,l:array<struct<r:int>>>")
	for _, c := range []struct {
		levels int
		want   string
	}{
		{0, "struct<...>"},
		{1, "struct<a:int,`b c`:struct<...>,u:uniontype<...>,l:array<...>>"},
		{2, "struct<a:int,`b c`:struct<x:array<...>,y:map<...>>,u:uniontype<int,struct<...>>,l:array<struct<...>>>"},
		{9, s.String()},
	} {
		if got := s.StringDepth(c.levels); got != c.want {
			t.Errorf("StringDepth(%d) = %s, want %s", c.levels, got, c.want)
		}
	}
	if got := s.Children[0].StringDepth(0); got != "int" {
		t.Errorf("a leaf at depth 0: %s", got)
	}
}
