package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// rowSizeHint is a wide row's JSON line when every value has one digit,
// and no more than its CSV line: flat and nested.
func TestRowSizeHint(t *testing.T) {
	for _, per := range []int{0, 50} {
		var sb strings.Builder
		sb.WriteString("struct<")
		for i := range 1000 {
			if i > 0 {
				sb.WriteByte(',')
			}
			if per == 0 {
				fmt.Fprintf(&sb, "c%d:int", i)
			} else if i%per == 0 {
				fmt.Fprintf(&sb, "s%d:struct<f0:int", i/per)
			} else if fmt.Fprintf(&sb, "f%d:int", i%per); i%per == per-1 {
				sb.WriteByte('>')
			}
		}
		sb.WriteByte('>')
		s := orc.MustParseSchema(sb.String())
		b := onesRow(s)
		line, _ := newFormatter(outputOptions{format: "json"}, s).Add(nil, b, 0)
		if hint := rowSizeHint(s, true); hint != len(line) {
			t.Errorf("structs of %d: hint %d bytes for a JSON line of %d", per, hint, len(line))
		}
		csv, _ := newFormatter(outputOptions{format: "csv"}, s).Add(nil, b, 0)
		if hint := rowSizeHint(s, false); hint > len(csv) {
			t.Errorf("structs of %d: hint %d bytes for a CSV line of %d", per, hint, len(csv))
		}
	}
}
