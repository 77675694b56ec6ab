package reader

import (
	"encoding/hex"

	"github.com/orcgo/orc/geo"
)

// appendJSONGeometry appends a WKB value as a JSON string of its WKT, or
// of "INVALID WKB " and its bytes in hex when it does not parse; with hex,
// as its bytes in hex.
func appendJSONGeometry(dst, wkb []byte, asHex bool) []byte {
	if asHex {
		dst = append(dst, '"')
		dst = hex.AppendEncode(dst, wkb)
		return append(dst, '"')
	}
	start := len(dst)
	dst = append(dst, '"')
	out, err := geo.AppendWKT(dst, wkb)
	if err != nil {
		dst = append(dst[:start], `"INVALID WKB `...)
		dst = hex.AppendEncode(dst, wkb)
		return append(dst, '"')
	}
	// WKT holds no quote, backslash or control character.
	return append(out, '"')
}
