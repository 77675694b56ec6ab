package sarg_test

import (
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// An unknown column's error suggests the nearest names, or lists the
// columns and says that strings take single quotes; a double-quoted string
// says the same (issue 48, error messages).
func TestBindErrorSuggests(t *testing.T) {
	s := orc.MustParseSchema("struct<age:int,name:string,loc:struct<lat:double,lon:double>>")
	for _, tc := range []struct{ where, want string }{
		{"agee > 3", `did you mean "age"`},
		{"name = Alice", `'Alice'`},
		{"name = Alice", "columns: age, name, loc"},
		{"loc.lst > 1", `did you mean "loc.lat"`},
	} {
		e, err := sarg.Parse(tc.where)
		if err != nil {
			t.Fatalf("%s: %v", tc.where, err)
		}
		_, err = sarg.Bind(e, s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.where, err, tc.want)
		}
	}
	_, err := sarg.Parse(`name = "Alice"`)
	if err == nil || !strings.Contains(err.Error(), "single quotes") {
		t.Errorf(`name = "Alice": %v; want it to say strings take single quotes`, err)
	}
}
