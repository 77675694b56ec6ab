package main

import (
	"encoding/hex"

	"github.com/orcgo/orc/geo"
)

// appendGeometryText appends a WKB value as WKT for CSV, TSV and tables,
// or "INVALID WKB " and its hex when it does not parse.
func appendGeometryText(dst, wkb []byte) []byte {
	out, err := geo.AppendWKT(dst, wkb)
	if err != nil {
		return hex.AppendEncode(append(dst, "INVALID WKB "...), wkb)
	}
	return out
}
