package orc_test

import (
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// A column id's path, and a corruption error that names it (issue 48,
// error messages: "column 3" alone does not say which column).
func TestColumnPathInErrors(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,loc:struct<lat:double,lon:double>,tags:array<string>,m:map<string,int>>")
	s.Assign()
	for id, want := range []string{"", "id", "loc", "loc.lat", "loc.lon", "tags", "tags._elem", "m", "m._key", "m._value"} {
		if got := s.Path(id); got != want {
			t.Errorf("Path(%d) = %q, want %q", id, got, want)
		}
	}
	if got := s.Path(99); got != "" {
		t.Errorf("Path(99) = %q", got)
	}
	e := &orc.CorruptError{Offset: -1, Stripe: 0, Column: 3, ColumnPath: s.Path(3), Stream: "DATA", Msg: "bad run"}
	if msg := e.Error(); !strings.Contains(msg, `column 3 "loc.lat"`) {
		t.Errorf("%s: want the column's path beside its id", msg)
	}
}
