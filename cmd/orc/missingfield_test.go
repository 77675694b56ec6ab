package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

// TestMissingField checks the name matching of an ORC input against the
// output's schema: exact names first, else ignoring case, the first field
// of a name where a struct repeats one, nested structs by path, and narrow
// and wide structs (which look names up in a map) alike.
func TestMissingField(t *testing.T) {
	for _, wide := range []bool{false, true} {
		pad := ""
		if wide {
			// 40 more fields make both structs wide.
			var b strings.Builder
			for i := range 40 {
				fmt.Fprintf(&b, ",p%d:int", i)
			}
			pad = b.String()
		}
		for _, tc := range []struct{ want, have, missing string }{
			{"struct<a:int,b:string>", "struct<a:int,b:string>", ""},
			{"struct<a:int,b:string>", "struct<b:string,a:int>", ""},
			{"struct<a:int,B:string>", "struct<b:string,a:int>", ""},
			{"struct<a:int,c:string>", "struct<b:string,a:int>", "c"},
			{"struct<a:int,s:struct<x:int,y:int>>", "struct<s:struct<y:int,x:int>,a:int>", ""},
			{"struct<a:int,s:struct<x:int,z:int>>", "struct<s:struct<y:int,x:int>,a:int>", "s.z"},
			// A file of another writer may repeat a name (sdup is renamed s
			// below): the first s of have is the one matched, and it lacks y.
			{"struct<a:int,s:struct<x:int,y:int>>", "struct<a:int,s:struct<x:int>,sdup:struct<x:int,y:int>>", "s.y"},
			{"struct<s:struct<x:int,y:int>,a:int>", "struct<s:struct<x:int>,sdup:struct<x:int,y:int>,a:int>", "s.y"},
			{"struct<s:struct<x:int>,a:int>", "struct<s:struct<x:int>,sdup:struct<y:int>,a:int>", ""},
		} {
			want := orc.MustParseSchema(strings.Replace(tc.want, "struct<a:int", "struct<a:int"+pad, 1))
			have := orc.MustParseSchema(strings.TrimSuffix(tc.have, ">") + pad + ">")
			for i, f := range have.FieldNames {
				if f == "sdup" {
					have.FieldNames[i] = "s"
				}
			}
			if got := missingField(want, have, ""); got != tc.missing {
				t.Errorf("wide %v: missingField(%s, %s) = %q, want %q", wide, tc.want, tc.have, got, tc.missing)
			}
		}
	}
}

// TestMissingFieldWide checks a file of 200,000 columns against an output
// schema of the same names, in order and reversed: one pass over the
// names, not a search of every name for each (which took 12 s at 100,000
// columns, and would take minutes here).
func TestMissingFieldWide(t *testing.T) {
	const n = 200_000
	in, rev := &orc.Schema{Kind: orc.Struct}, &orc.Schema{Kind: orc.Struct}
	for i := range n {
		in.FieldNames = append(in.FieldNames, fmt.Sprintf("c%d", i))
		in.Children = append(in.Children, &orc.Schema{Kind: orc.Long})
		rev.FieldNames = append(rev.FieldNames, fmt.Sprintf("c%d", n-1-i))
		rev.Children = append(rev.Children, &orc.Schema{Kind: orc.Long})
	}
	start := time.Now()
	for _, have := range []*orc.Schema{in, rev} {
		if m := missingField(in, have, ""); m != "" {
			t.Fatalf("missingField found %q missing", m)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("checking 200,000 columns twice took %v", d)
	}
}
