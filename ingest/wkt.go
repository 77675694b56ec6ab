package ingest

import (
	"encoding/hex"
	"fmt"
	"github.com/orcgo/orc/geo"
	"strings"
)

// parseGeometryText reads a geometry or geography value from CSV or JSON
// text: well-known text ("POINT (1 2)") or the value's WKB in hex
// ("0101000000..." or "\x0101..."), checked as WKB.
func parseGeometryText(s string) ([]byte, error) {
	t := strings.TrimSpace(s)
	h := strings.TrimPrefix(strings.TrimPrefix(t, `\x`), "0x")
	if len(h) >= 10 && len(h)%2 == 0 && strings.Trim(strings.ToLower(h), "0123456789abcdef") == "" {
		wkb, err := hex.DecodeString(h)
		if err != nil {
			return nil, err
		}
		if err := geo.Validate(wkb); err != nil {
			return nil, fmt.Errorf("hex WKB: %v", err)
		}
		return wkb, nil
	}
	return geo.AppendWKB(make([]byte, 0, wkbSizeBound(t)), t)
}

// wkbSizeBound is at least the size of the WKB of a WKT text: 8 bytes per
// run of characters other than spaces, commas and parentheses (each
// number is one; the words count too), and 13 per opening parenthesis (a
// count and, for a part of a collection, its header), plus a header. The
// WKB is built in one buffer of that size, instead of growing by copies
// that took five times its size for a long line.
func wkbSizeBound(t string) int {
	n, runs, parens := 9+16, 0, 0
	in := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case ' ', '\t', '\n', '\r', ',', '(', ')':
			in = false
			if c == '(' {
				parens++
			}
		default:
			if !in {
				runs++
			}
			in = true
		}
	}
	return n + 8*runs + 13*parens
}
