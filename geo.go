package orc

import "strings"

// DefaultCRS is the coordinate reference system of a geometry or geography
// column that names none: longitude and latitude on the WGS84 datum, in that
// order. ParseSchema and the reader fill it in, as Apache ORC Java does.
const DefaultCRS = "OGC:CRS84"

// EdgeAlgorithm is how a geography column interpolates the edge between two
// vertices. The values equal the Type.algorithm numbers stored in ORC files.
type EdgeAlgorithm uint8

// The edge interpolation algorithms of the ORC format.
const (
	Spherical EdgeAlgorithm = 0 // geodesics on a sphere (the default)
	Vincenty  EdgeAlgorithm = 1 // Vincenty's formulae on the ellipsoid
	Thomas    EdgeAlgorithm = 2 // Thomas (1970)
	Andoyer   EdgeAlgorithm = 3 // Andoyer-Lambert (Thomas 1965)
	Karney    EdgeAlgorithm = 4 // Karney (2013), as GeographicLib
)

var edgeNames = [...]string{"spherical", "vincenty", "thomas", "andoyer", "karney"}

// String returns the algorithm's name as the ORC specification writes it,
// such as "spherical".
func (a EdgeAlgorithm) String() string {
	if int(a) < len(edgeNames) {
		return edgeNames[a]
	}
	return "algorithm(" + itoa(int(a)) + ")"
}

// Valid reports whether a is an algorithm of the format.
func (a EdgeAlgorithm) Valid() bool { return int(a) < len(edgeNames) }

// ParseEdgeAlgorithm returns the algorithm with the given name, in any case.
// It also accepts "speherial", which Apache ORC C++ writes for spherical.
func ParseEdgeAlgorithm(name string) (EdgeAlgorithm, bool) {
	n := strings.ToLower(name)
	if n == "speherial" {
		return Spherical, true
	}
	for i, e := range edgeNames {
		if n == e {
			return EdgeAlgorithm(i), true
		}
	}
	return 0, false
}

// crsNeedsQuotes reports whether a CRS must be written in backticks to parse
// back: when it is empty, holds a character the type syntax uses, or has
// spaces at either end.
func crsNeedsQuotes(crs string) bool {
	if crs == "" || strings.TrimSpace(crs) != crs {
		return true
	}
	return strings.ContainsAny(crs, "(),<>`")
}
