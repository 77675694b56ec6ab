package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/stats"
)

// geoBox is a bounding box in meta's JSON; axes that are unknown or empty
// are left out.
type geoBox struct {
	XMin *boxBound `json:"xmin,omitempty"`
	XMax *boxBound `json:"xmax,omitempty"`
	YMin *boxBound `json:"ymin,omitempty"`
	YMax *boxBound `json:"ymax,omitempty"`
	ZMin *boxBound `json:"zmin,omitempty"`
	ZMax *boxBound `json:"zmax,omitempty"`
	MMin *boxBound `json:"mmin,omitempty"`
	MMax *boxBound `json:"mmax,omitempty"`
}

// boxBound is a bound of a box: a JSON number, or, when infinite (a
// geometry with an infinite coordinate), the string "+Inf" or "-Inf", as
// meta writes other non-finite doubles.
type boxBound float64

func (b boxBound) MarshalJSON() ([]byte, error) {
	if f := float64(b); math.IsInf(f, 0) || math.IsNaN(f) {
		return json.Marshal(fmt.Sprint(f))
	}
	return json.Marshal(float64(b))
}

// geoStatsJSON returns the box (nil when x or y is unknown) and the type
// names (nil when unknown) of geospatial statistics.
func geoStatsJSON(g *stats.GeoStats) (box, types any) {
	b := &g.Box
	if b.AxisKnown(0) && b.AxisKnown(1) && b.Min[1] <= b.Max[1] && !(b.Min[0] > b.Max[0] && (b.Min[0] > 1e308 || b.Max[0] < -1e308)) {
		gb := &geoBox{}
		set := func(i int, lo, hi **boxBound) {
			if b.AxisKnown(i) && (i == 0 || !b.AxisEmpty(i)) {
				l, h := boxBound(b.Min[i]), boxBound(b.Max[i])
				*lo, *hi = &l, &h
			}
		}
		set(0, &gb.XMin, &gb.XMax)
		set(1, &gb.YMin, &gb.YMax)
		set(2, &gb.ZMin, &gb.ZMax)
		set(3, &gb.MMin, &gb.MMax)
		box = gb
	}
	if codes := g.Types.Codes(); len(codes) > 0 {
		names := make([]string, len(codes))
		for i, c := range codes {
			names[i] = geo.TypeName(c)
		}
		types = names
	}
	return box, types
}

// geoBoxText renders a box for meta's text output: "[x1,x2]x[y1,y2]" and z
// and m ranges when known.
func geoBoxText(v any) any {
	gb, ok := v.(*geoBox)
	if !ok || gb == nil {
		return nil
	}
	var b strings.Builder
	axis := func(name string, lo, hi *boxBound) {
		if lo == nil {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(name + "=[" + strconv.FormatFloat(float64(*lo), 'g', -1, 64) + "," + strconv.FormatFloat(float64(*hi), 'g', -1, 64) + "]")
	}
	axis("x", gb.XMin, gb.XMax)
	axis("y", gb.YMin, gb.YMax)
	axis("z", gb.ZMin, gb.ZMax)
	axis("m", gb.MMin, gb.MMax)
	return plainText(b.String())
}

// plainText is printed as is by statsText, not quoted and cut as strings
// are.
type plainText string

func (t plainText) String() string { return string(t) }

func geoTypesText(v any) any {
	names, ok := v.([]string)
	if !ok {
		return nil
	}
	return plainText(strings.Join(names, ","))
}
