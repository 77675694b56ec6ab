package stats

// Geospatial statistics: what Apache ORC writes for GEOMETRY and GEOGRAPHY
// columns, and how orcgo reads them back for pruning.
//
// Writing (as Apache ORC C++ 2.2 does, ColumnStatistics geospatial_statistics):
//   - GEOMETRY: the bounding box over every coordinate of every non-null
//     value, NaN coordinates ignored, each axis on its own; x and y are
//     written when both have a coordinate, z and m each when they have one.
//     The type codes of the values (top level only: a MULTIPOINT counts as
//     4, not as its points), sorted. Empty geometries add their type code
//     but no coordinate. A value that is not valid WKB (written with
//     validation off) makes the box and the types unknown: the message is
//     written empty, and stays empty up to the stripe and the file.
//   - GEOGRAPHY: an empty message (no box, no types), as both Apache
//     writers do: a box over the vertices does not bound edges that follow
//     the sphere. The value count and has_null are written as Java writes
//     them; Apache C++ leaves them 0 and false for geography.
//
// Reading: an axis is known only when both its bounds were written; a y, z
// or m range with min > max is unknown, while an x range with finite
// xmin > xmax wraps the antimeridian (the Parquet and ORC convention: x >=
// xmin or x <= xmax). In memory an empty axis is exactly (+Inf, -Inf).
// Type codes outside ISO WKB make the type set unknown.

import (
	"math"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/geo"
)

// GeoStats is the bounding box and the geometry types of geometry and
// geography values.
type GeoStats struct {
	// Box holds per axis (x, y, z, m) the least and greatest coordinate. An
	// axis is unknown when a bound is NaN and empty when Min > Max, except
	// x read from a file, where Min > Max wraps the antimeridian.
	Box geo.Box
	// Types is the set of WKB type codes present; empty means unknown
	// (or no value).
	Types TypeSet
}

// TypeSet is a set of ISO WKB type codes (base 1..7 plus 1000 x dimensions
// 0..3), one bit each.
type TypeSet uint32

func typeBit(code uint32) (TypeSet, bool) {
	base, dims := code%1000, code/1000
	if base < 1 || base > 7 || dims > 3 {
		return 0, false
	}
	return 1 << (dims*7 + base - 1), true
}

// Add returns the set with code added; a code outside ISO WKB is ignored.
func (s TypeSet) Add(code uint32) TypeSet {
	b, _ := typeBit(code)
	return s | b
}

// Has reports whether code is in the set.
func (s TypeSet) Has(code uint32) bool {
	b, ok := typeBit(code)
	return ok && s&b != 0
}

// Codes returns the codes in increasing order.
func (s TypeSet) Codes() []uint32 {
	var out []uint32
	for dims := uint32(0); dims < 4; dims++ {
		for base := uint32(1); base <= 7; base++ {
			if s.Has(base + 1000*dims) {
				out = append(out, base+1000*dims)
			}
		}
	}
	return out
}

func unknownBox() geo.Box {
	n := math.NaN()
	return geo.Box{Min: [4]float64{n, n, n, n}, Max: [4]float64{n, n, n, n}}
}

// AddGeometry records a geometry or geography value given as WKB. For
// geometry its coordinates widen the box and its type code joins the set;
// a value that is not valid WKB makes both unknown for the rest of the
// accumulator's life (and for everything it merges into). For geography
// only the count changes.
func (a *Accumulator) AddGeometry(wkb []byte) {
	if a.g == nil {
		a.g = new(geoAcc)
	}
	g := a.g
	if a.count == 0 {
		*g = geoAcc{box: geo.EmptyBox()}
	}
	a.count++
	a.isum += int64(len(wkb))
	if a.kind != orc.Geometry || g.bad {
		return
	}
	code, err := geo.Bound(wkb, &g.box)
	if err != nil {
		g.bad = true
		return
	}
	g.types = g.types.Add(code)
}

// geoAcc is an accumulator's geometry state, kept apart so that the
// accumulators of other kinds stay small.
type geoAcc struct {
	box   geo.Box
	types TypeSet
	bad   bool // a value was not WKB: box and types unknown
}

// mergeGeo merges o's geometry state into a's; both have values.
func (a *Accumulator) mergeGeo(o *Accumulator) {
	if o.g == nil || a.g == nil {
		return // not reached: values imply AddGeometry or copyGeo
	}
	if a.g.bad || o.g.bad {
		a.g.bad = true
		return
	}
	a.g.box.Merge(&o.g.box)
	a.g.types |= o.g.types
}

// copyGeo makes a's geometry state a copy of o's.
func (a *Accumulator) copyGeo(o *Accumulator) {
	if o.g == nil {
		return
	}
	if a.g == nil {
		a.g = new(geoAcc)
	}
	*a.g = *o.g
}

func (a *Accumulator) geoColumn() *GeoStats {
	if a.count == 0 || a.g == nil {
		return &GeoStats{Box: geo.EmptyBox()}
	}
	if a.kind != orc.Geometry || a.g.bad {
		return &GeoStats{Box: unknownBox()}
	}
	return &GeoStats{Box: a.g.box, Types: a.g.types}
}

func mergeGeo(a *GeoStats, ca uint64, b *GeoStats, cb uint64) GeoStats {
	r := GeoStats{Box: a.Box}
	r.Box.Merge(&b.Box)
	// An empty set with values behind it is unknown, and stays so.
	if (a.Types == 0 && ca > 0) || (b.Types == 0 && cb > 0) {
		return r
	}
	r.Types = a.Types | b.Types
	return r
}

// encodeGeo writes the message Apache writes: bbox when x and y are known
// and not empty, z and m each likewise; the type codes sorted.
func encodeGeo(a *scalars, s *GeoStats) *orcpb.GeospatialStatistics {
	p := &orcpb.GeospatialStatistics{}
	if s == nil {
		return p
	}
	b := &s.Box
	if b.HasXY() {
		bb := &orcpb.BoundingBox{Xmin: a.f64(b.Min[0]), Xmax: a.f64(b.Max[0]), Ymin: a.f64(b.Min[1]), Ymax: a.f64(b.Max[1])}
		if b.AxisKnown(2) && !b.AxisEmpty(2) {
			bb.Zmin, bb.Zmax = a.f64(b.Min[2]), a.f64(b.Max[2])
		}
		if b.AxisKnown(3) && !b.AxisEmpty(3) {
			bb.Mmin, bb.Mmax = a.f64(b.Min[3]), a.f64(b.Max[3])
		}
		p.Bbox = bb
	}
	for _, c := range s.Types.Codes() {
		p.GeospatialTypes = append(p.GeospatialTypes, int32(c))
	}
	return p
}

// decodeGeo reads geospatial_statistics; nil when absent.
func decodeGeo(p *orcpb.GeospatialStatistics) *GeoStats {
	if p == nil {
		return nil
	}
	s := &GeoStats{Box: unknownBox()}
	if bb := p.Bbox; bb != nil {
		pairs := [4][2]*float64{{bb.Xmin, bb.Xmax}, {bb.Ymin, bb.Ymax}, {bb.Zmin, bb.Zmax}, {bb.Mmin, bb.Mmax}}
		for i, pr := range pairs {
			if pr[0] == nil || pr[1] == nil || math.IsNaN(*pr[0]) || math.IsNaN(*pr[1]) {
				continue
			}
			if *pr[0] > *pr[1] && (i > 0 || math.IsInf(*pr[0], 0) || math.IsInf(*pr[1], 0)) {
				continue // only x may wrap, and only between finite bounds
			}
			s.Box.Min[i], s.Box.Max[i] = *pr[0], *pr[1]
		}
	}
	for _, c := range p.GeospatialTypes {
		b, ok := typeBit(uint32(c))
		if c < 0 || !ok {
			s.Types = 0
			break
		}
		s.Types |= b
	}
	return s
}
