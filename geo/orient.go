package geo

// Exact orientation.
//
// Every predicate of this package reduces to the sign of
//
//	orient(a, b, c) = (a.x - c.x)(b.y - c.y) - (a.y - c.y)(b.x - c.x)
//
// positive when a, b, c turn counterclockwise, zero when they are
// collinear. Computed in float64 it can round to the wrong sign for
// points that are nearly collinear, so the float64 value is trusted only
// when it is farther from zero than its rounding error can reach
// (Shewchuk's bound for this formula, 3e + 16e^2 of |left| + |right| with
// e = 2^-53, loosened to 4e) and when no product overflowed or came near
// the subnormal range; otherwise the sign is computed again with exact
// rationals. A product with a zero factor is exactly zero, and the sign
// of a nonzero product is the product of its factors' signs (a float64
// difference is zero only when the operands are equal), which settles
// axis-parallel cases without the fallback.

import (
	"math"
	"math/big"
)

const (
	orientErr = 4 * 0x1p-53 // relative error bound of the float64 formula
	orientMin = 0x1p-900    // below this the products may have lost bits to underflow
)

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// orient returns the sign of orient(a, b, c), exactly.
func orient(a, b, c pt) int {
	dx1, dy2 := a.x-c.x, b.y-c.y
	dy1, dx2 := a.y-c.y, b.x-c.x
	lzero := dx1 == 0 || dy2 == 0
	rzero := dy1 == 0 || dx2 == 0
	switch {
	case lzero && rzero:
		return 0
	case lzero:
		return -sign(dy1) * sign(dx2)
	case rzero:
		return sign(dx1) * sign(dy2)
	}
	l, r := dx1*dy2, dy1*dx2
	det := l - r
	sum := math.Abs(l) + math.Abs(r)
	if sum >= orientMin && sum <= math.MaxFloat64 {
		bound := orientErr * sum
		if det > bound {
			return 1
		}
		if -det > bound {
			return -1
		}
	}
	return orientExact(a, b, c)
}

// orientExact is orient in exact rational arithmetic.
func orientExact(a, b, c pt) int {
	ra, rb, rc := ratPt(a), ratPt(b), ratPt(c)
	return orientR(ra, rb, rc)
}

// between reports whether p, known to be collinear with a and b, lies on
// the closed segment ab.
func between(a, b, p pt) bool {
	return min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
}

// onSeg reports whether p lies on the closed segment ab.
func onSeg(a, b, p pt) bool {
	if p.x < min(a.x, b.x) || p.x > max(a.x, b.x) || p.y < min(a.y, b.y) || p.y > max(a.y, b.y) {
		return false
	}
	return orient(a, b, p) == 0
}

// segsMeet reports whether the closed segments ab and cd share a point.
func segsMeet(a, b, c, d pt) bool {
	if max(a.x, b.x) < min(c.x, d.x) || max(c.x, d.x) < min(a.x, b.x) ||
		max(a.y, b.y) < min(c.y, d.y) || max(c.y, d.y) < min(a.y, b.y) {
		return false
	}
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	switch {
	case o1 == 0 && between(a, b, c), o2 == 0 && between(a, b, d),
		o3 == 0 && between(c, d, a), o4 == 0 && between(c, d, b):
		return true
	}
	return o1*o2 < 0 && o3*o4 < 0
}

// rpt is a point with exact rational coordinates.
type rpt struct{ x, y *big.Rat }

func ratPt(p pt) rpt { return rpt{new(big.Rat).SetFloat64(p.x), new(big.Rat).SetFloat64(p.y)} }

func rsub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
func rmul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

// cross returns u.x v.y - u.y v.x for the vectors u = b - a and v = d - c.
func cross(a, b, c, d rpt) *big.Rat {
	return rsub(rmul(rsub(b.x, a.x), rsub(d.y, c.y)), rmul(rsub(b.y, a.y), rsub(d.x, c.x)))
}

// dot returns (b - a) . (d - c).
func dot(a, b, c, d rpt) *big.Rat {
	return new(big.Rat).Add(rmul(rsub(b.x, a.x), rsub(d.x, c.x)), rmul(rsub(b.y, a.y), rsub(d.y, c.y)))
}

// orientR is orient on rational points.
func orientR(a, b, c rpt) int { return cross(c, a, c, b).Sign() }

// betweenR is between on rational points.
func betweenR(a, b, p rpt) bool {
	inside := func(u, v, w *big.Rat) bool {
		if u.Cmp(v) > 0 {
			u, v = v, u
		}
		return u.Cmp(w) <= 0 && w.Cmp(v) <= 0
	}
	return inside(a.x, b.x, p.x) && inside(a.y, b.y, p.y)
}

// onSegR reports whether p lies on the closed segment ab.
func onSegR(a, b, p rpt) bool { return betweenR(a, b, p) && orientR(a, b, p) == 0 }
