package main

import (
	"strconv"
	"strings"

	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/stats"
)

// geoBox is a bounding box in meta's JSON; axes that are unknown or empty
// are left out.
type geoBox struct {
	XMin *float64 `json:"xmin,omitempty"`
	XMax *float64 `json:"xmax,omitempty"`
	YMin *float64 `json:"ymin,omitempty"`
	YMax *float64 `json:"ymax,omitempty"`
	ZMin *float64 `json:"zmin,omitempty"`
	ZMax *float64 `json:"zmax,omitempty"`
	MMin *float64 `json:"mmin,omitempty"`
	MMax *float64 `json:"mmax,omitempty"`
}

// geoStatsJSON returns the box (nil when x or y is unknown) and the type
// names (nil when unknown) of geospatial statistics.
func geoStatsJSON(g *stats.GeoStats) (box, types any) {
	b := &g.Box
	if b.AxisKnown(0) && b.AxisKnown(1) && b.Min[1] <= b.Max[1] && !(b.Min[0] > b.Max[0] && (b.Min[0] > 1e308 || b.Max[0] < -1e308)) {
		gb := &geoBox{}
		set := func(i int, lo, hi **float64) {
			if b.AxisKnown(i) && (i == 0 || !b.AxisEmpty(i)) {
				l, h := b.Min[i], b.Max[i]
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
	axis := func(name string, lo, hi *float64) {
		if lo == nil {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(name + "=[" + strconv.FormatFloat(*lo, 'g', -1, 64) + "," + strconv.FormatFloat(*hi, 'g', -1, 64) + "]")
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
