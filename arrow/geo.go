package orcarrow

import (
	"encoding/json"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/orcgo/orc"
)

// Geometry and geography columns map to Arrow binary fields marked as the
// GeoArrow extension type geoarrow.wkb, in the field metadata Arrow IPC and
// Parquet carry ("ARROW:extension:name" and "ARROW:extension:metadata"):
// the metadata is JSON with the CRS ({"crs": "OGC:CRS84"}) and, for
// geography, the edges ({"crs": ..., "edges": "spherical"}). Read back, such
// a field is geography when it names edges, geometry otherwise.

// Extension metadata keys and the GeoArrow WKB extension name.
const (
	metaExtensionName = "ARROW:extension:name"
	metaExtensionMeta = "ARROW:extension:metadata"
	geoArrowWKB       = "geoarrow.wkb"
)

type geoArrowMeta struct {
	CRS   any    `json:"crs,omitempty"`
	Edges string `json:"edges,omitempty"`
}

// geoFieldMetadata returns the extension keys and values of a geometry or
// geography node.
func geoFieldMetadata(s *orc.Schema) (keys, vals []string) {
	m := geoArrowMeta{CRS: s.CRS}
	if s.CRS == "" {
		m.CRS = orc.DefaultCRS
	}
	if s.Kind == orc.Geography {
		m.Edges = s.Edges.String()
	}
	b, _ := json.Marshal(m)
	return []string{metaExtensionName, metaExtensionMeta}, []string{geoArrowWKB, string(b)}
}

// geoFromField returns the geometry or geography type a binary field marked
// geoarrow.wkb stands for, or nil when it is not so marked.
func geoFromField(f arrow.Field) *orc.Schema {
	i := f.Metadata.FindKey(metaExtensionName)
	if i < 0 || f.Metadata.Values()[i] != geoArrowWKB {
		return nil
	}
	s := &orc.Schema{Kind: orc.Geometry, CRS: orc.DefaultCRS}
	if j := f.Metadata.FindKey(metaExtensionMeta); j >= 0 {
		var m geoArrowMeta
		if json.Unmarshal([]byte(f.Metadata.Values()[j]), &m) == nil {
			if crs, ok := m.CRS.(string); ok && strings.TrimSpace(crs) != "" {
				s.CRS = crs
			}
			if m.Edges != "" && m.Edges != "planar" {
				s.Kind = orc.Geography
				if a, ok := orc.ParseEdgeAlgorithm(m.Edges); ok {
					s.Edges = a
				}
			}
		}
	}
	return s
}
