package writer

import (
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
)

// Geometry and geography columns are written as binary columns are
// (DIRECT_V2: the WKB bytes in DATA, their lengths in LENGTH), as Apache
// ORC does. Their statistics are geospatial (stats/geo.go): the column's
// accumulator bounds each value as the bytes writer hands it over.

// newGeoWriter returns the writer of a GEOMETRY or GEOGRAPHY column: a
// bytes writer that never builds a dictionary.
func (w *Writer) newGeoWriter(node *orc.Schema) *bytesWriter {
	c := w.newBytesWriter(node)
	return c
}

// WithUnvalidatedGeometry lets geometry and geography values be stored
// without checking that they are ISO WKB. By default Write parses every
// value and refuses a batch holding one that is not, naming the column,
// the row and the byte at fault; unchecked, a bad value is stored as given
// and makes its row group's, stripe's and file's geospatial statistics
// unknown (as Apache ORC does when it cannot parse a value). Default false.
func WithUnvalidatedGeometry(on bool) Option {
	return func(cfg *config) error {
		cfg.unvalidatedWKB = on
		return nil
	}
}

// geometries checks the WKB of the stored rows of a geometry column.
func (ck checker) geometries(vec *orc.BytesVector, n int, stored func([]bool, int) bool, bad func(string, ...any) error) error {
	if ck.unvalidatedWKB {
		return nil
	}
	for i := 0; i < n; i++ {
		if !stored(vec.Nulls.Nulls, i) {
			continue
		}
		if err := geo.Validate(vec.Get(i)); err != nil {
			return bad("row %d: %v (WithUnvalidatedGeometry stores it as given)", i, err)
		}
	}
	return nil
}
