package orc_test

import (
	"fmt"
	"runtime"
	"strings"
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

// TestRepeatedFieldName checks that Validate names the first field whose
// name an earlier field has, in small structs and in large ones (sorted,
// not put in a map), and that a struct of many fields is checked in a few
// bytes a field.
func TestRepeatedFieldName(t *testing.T) {
	for _, n := range []int{3, 16, 17, 500} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("f%d", n-i)
		}
		s := &orc.Schema{Kind: orc.Struct, FieldNames: names}
		for range names {
			s.Children = append(s.Children, &orc.Schema{Kind: orc.Int})
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("%d distinct fields: %v", n, err)
		}
		// Two repeats: the later field's name repeated earlier first.
		names[n-1] = names[1]
		names[2] = names[0]
		want := fmt.Sprintf("%q appears twice", names[0])
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d fields: %v, want %s", n, err, want)
		}
	}
	const n = 20000
	s := &orc.Schema{Kind: orc.Struct}
	for i := range n {
		s.FieldNames = append(s.FieldNames, fmt.Sprintf("c%d", i))
		s.Children = append(s.Children, &orc.Schema{Kind: orc.Long})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if per := float64(after.TotalAlloc-before.TotalAlloc) / n; per > 8 {
		t.Errorf("Validate of %d fields allocated %.1f bytes a field, want at most 8", n, per)
	}
}
