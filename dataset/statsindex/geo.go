package statsindex

// Geometry columns in the index (layout 3, spec.md 7.16).
//
// A geometry column's entry holds, instead of ci_min and ci_max, the x and
// y bounds of the file's bounding box as its footer statistics carry them
// (stats.GeoStats, spec.md 5.8): ci_xmin, ci_xmax, ci_ymin, ci_ymax,
// doubles, all four NULL when the file gives no usable box. The lookup
// rebuilds a stats.Column of kind geometry from them and lets sarg
// evaluate the geometry leaves (ST_INTERSECTS_BOX, ST_WITHIN_BOX and the
// shape predicates with a WKT literal) on it exactly as it evaluates a
// stripe's or a row group's statistics, so a file is skipped by the same
// rule as a stripe.
//
// What is stored, and why it is sound:
//   - x and y only: the geometry predicates test x and y; z and m decide
//     nothing and are not kept.
//   - The type codes are not kept. sarg consults them only for a unit
//     without a box, to add NULL (a value that is not WKB); a leaf that may
//     be NULL or not is TRUE for such a unit either way, and adding NULL to
//     a leaf never makes a predicate TRUE where it was not, so whether a
//     file may match does not depend on them.
//   - A box the footer reader keeps is stored as it is, including an x
//     range with finite xmin > xmax, which crosses the antimeridian (x >=
//     xmin or x <= xmax): sarg reads it as the footer's. A box with a NaN
//     or infinite bound, or ymin > ymax, is not stored: the file's entry is
//     NULL there ("no box"), and the file may match any box, as a stripe
//     without a box may.
//   - The lookup trusts an entry only when it is one the writer could have
//     stored: all four bounds NULL, or all four finite with ymin <= ymax. A
//     box with a NaN or infinite bound, an inverted y range or some bounds
//     NULL and others not is an impossible entry: ignored with a warning,
//     its file opened (entryProblem).

import (
	"fmt"
	"math"
	"strconv"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// geoBoxCols are the suffixes of a geometry column's box columns, in the
// order of the layout.
var geoBoxCols = [4]string{"xmin", "xmax", "ymin", "ymax"}

// entryBox returns the box of a file's geometry statistics as the index
// stores it (xmin, xmax, ymin, ymax), and false when it stores none: no
// box, an axis unknown or empty, a bound that is not finite, or y
// inverted.
func entryBox(st *stats.Column) ([4]float64, bool) {
	if st == nil || st.Geo == nil {
		return [4]float64{}, false
	}
	b := &st.Geo.Box
	v := [4]float64{b.Min[0], b.Max[0], b.Min[1], b.Max[1]}
	return v, finiteBox(v)
}

// finiteBox reports whether a box may be stored: every bound finite and y
// not inverted (x may wrap).
func finiteBox(v [4]float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return v[2] <= v[3]
}

// boxVectors returns index column i's box vectors of a batch, nil where
// the batch lacks one.
func boxVectors(b *orc.Batch, i int) (out [4]*orc.DoubleVector) {
	for k, s := range geoBoxCols {
		out[k], _ = b.Col(fmt.Sprintf("c%d_%s", i, s)).(*orc.DoubleVector)
	}
	return out
}

// boxProblem says why the box of index column i in an index row cannot be
// one the index writer stored, or returns "".
func boxProblem(b *orc.Batch, row, i int) string {
	vs := boxVectors(b, i)
	nulls := 0
	var v [4]float64
	for k, x := range vs {
		if x == nil {
			return ""
		}
		if x.IsNull(row) {
			nulls++
			continue
		}
		v[k] = x.Values[row]
	}
	switch {
	case nulls == 4:
		return ""
	case nulls > 0:
		return "a box with some bounds NULL"
	case !finiteBox(v):
		if v[2] > v[3] {
			return fmt.Sprintf("a box with ymin %v above ymax %v", v[2], v[3])
		}
		return fmt.Sprintf("a box bound that is not finite (x [%v, %v], y [%v, %v])", v[0], v[1], v[2], v[3])
	}
	return ""
}

// geoEntryStats adds to st (values and nulls already set) the box of
// geometry column i from an index row: x and y known when the row has a
// box, z and m unknown, no type codes.
func geoEntryStats(b *orc.Batch, row, i int, st *stats.Column) *stats.Column {
	n := math.NaN()
	box := geo.Box{Min: [4]float64{n, n, n, n}, Max: [4]float64{n, n, n, n}}
	vs := boxVectors(b, i)
	for _, x := range vs {
		if x == nil {
			return nil
		}
	}
	if !vs[0].IsNull(row) && !vs[1].IsNull(row) && !vs[2].IsNull(row) && !vs[3].IsNull(row) {
		v := [4]float64{vs[0].Values[row], vs[1].Values[row], vs[2].Values[row], vs[3].Values[row]}
		if finiteBox(v) {
			box.Min[0], box.Max[0], box.Min[1], box.Max[1] = v[0], v[1], v[2], v[3]
		}
	}
	st.Geo = &stats.GeoStats{Box: box}
	return st
}

// appendBox appends a file's box (or NULLs) to the four box vectors.
func appendBox(vs [4]orc.Vector, st *stats.Column) {
	v, ok := entryBox(st)
	for k, x := range vs {
		d := x.(*orc.DoubleVector)
		if ok {
			d.Append(v[k])
		} else {
			d.AppendNull()
		}
	}
}

// geoLookup translates a geometry leaf on index column i into a condition
// on the index row (see the top of lookup.go): a box predicate is TRUE
// for some value only where the file's box meets the query's, which needs
// the y ranges to meet. x is not translated: a stored x range may wrap,
// and whether it meets the query's cannot be put as a condition on xmin
// and xmax alone that prunes much. Negated leaves and the shape
// predicates give TRUE; the entries' statistics decide them (rule 2).
func geoLookup(l *sarg.Leaf, neg bool, i int) sarg.Expr {
	if neg || (l.Op != sarg.LeafIntersectsBox && l.Op != sarg.LeafWithinBox) || len(l.Literals) != 4 {
		return sarg.True()
	}
	qymin, ok1 := literalFloat(l.Literals[1])
	qymax, ok2 := literalFloat(l.Literals[3])
	if !ok1 || !ok2 {
		return sarg.True()
	}
	ymin, ymax := fmt.Sprintf("c%d_ymin", i), fmt.Sprintf("c%d_ymax", i)
	// One step out on each side: the bounds stay below and above what
	// sarg makes of the literals, however it rounds them.
	return sarg.And(
		sarg.Or(sarg.IsNull(ymin), sarg.Le(ymin, sarg.Float(math.Nextafter(qymax, math.Inf(1))))),
		sarg.Or(sarg.IsNull(ymax), sarg.Ge(ymax, sarg.Float(math.Nextafter(qymin, math.Inf(-1))))))
}

// literalFloat returns a finite numeric literal as the float64 nearest
// to it; false for another literal, or a bound that is not finite (the
// condition on that side is then left out).
func literalFloat(lit sarg.Literal) (float64, bool) {
	var f float64
	switch lit.Kind() {
	case sarg.IntLit:
		f = float64(lit.Int64())
	case sarg.FloatLit:
		f = lit.Float64()
	case sarg.DecimalLit:
		d, scale := lit.DecimalValue()
		var err error
		if f, err = strconv.ParseFloat(orc.FormatDecimal(d, scale), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}
