package stats_test

import (
	"math"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/stats"
	"google.golang.org/protobuf/proto"
)

func wkb(t *testing.T, s string) []byte {
	t.Helper()
	b, err := geo.AppendWKB(nil, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGeoAccumulator(t *testing.T) {
	g := orc.MustParseSchema("geometry")
	a, b := stats.NewAccumulator(g), stats.NewAccumulator(g)
	a.AddGeometry(wkb(t, "POINT (1 2)"))
	a.AddNull()
	a.AddBytes(wkb(t, "POINT EMPTY"))
	b.AddGeometry(wkb(t, "LINESTRING Z (-5 0 3, 0 9 4)"))
	a.Merge(b)
	c := a.Column()
	if c.NumValues != 3 || !c.HasNull || c.Geo == nil {
		t.Fatalf("%+v", c)
	}
	if c.Geo.Box.Min != [4]float64{-5, 0, 3, math.Inf(1)} || c.Geo.Box.Max != [4]float64{1, 9, 4, math.Inf(-1)} {
		t.Errorf("box %v %v", c.Geo.Box.Min, c.Geo.Box.Max)
	}
	pb := c.Proto()
	want := &orcpb.ColumnStatistics{NumberOfValues: proto.Uint64(3), HasNull: proto.Bool(true),
		GeospatialStatistics: &orcpb.GeospatialStatistics{
			Bbox: &orcpb.BoundingBox{Xmin: proto.Float64(-5), Xmax: proto.Float64(1), Ymin: proto.Float64(0), Ymax: proto.Float64(9),
				Zmin: proto.Float64(3), Zmax: proto.Float64(4)},
			GeospatialTypes: []int32{1, 1002}}}
	if !proto.Equal(pb, want) {
		t.Errorf("proto %v, want %v", pb, want)
	}
	back := stats.FromProto(pb, g, stats.WriterInfo{})
	if back.Geo == nil || back.Geo.Types != c.Geo.Types || back.Geo.Box.Min[0] != -5 || back.Geo.Box.AxisKnown(3) {
		t.Errorf("decoded %+v", back.Geo)
	}
	// Merged column statistics agree with the merged accumulator.
	a1, a2 := stats.NewAccumulator(g), stats.NewAccumulator(g)
	a1.AddGeometry(wkb(t, "POINT (1 2)"))
	a1.AddNull()
	a1.AddGeometry(wkb(t, "POINT EMPTY"))
	a2.AddGeometry(wkb(t, "LINESTRING Z (-5 0 3, 0 9 4)"))
	m := a1.Column()
	c2 := a2.Column()
	m.Merge(&c2)
	if m.Geo.Box != c.Geo.Box || m.Geo.Types != c.Geo.Types {
		t.Errorf("Column.Merge %v, Accumulator.Merge %v", m.Geo, c.Geo)
	}
	// A bad value makes the box and types unknown, and merging keeps it so.
	bad := stats.NewAccumulator(g)
	bad.AddGeometry([]byte{1, 1, 0})
	a.Merge(bad)
	if c := a.Column(); c.Geo.Box.HasXY() || c.Geo.Types != 0 || c.Proto().GeospatialStatistics.Bbox != nil {
		t.Errorf("after a bad value: %+v", c.Geo)
	}
}

func TestGeoDecodeHostile(t *testing.T) {
	g := orc.MustParseSchema("geometry")
	f := proto.Float64
	cases := []struct {
		name  string
		bb    *orcpb.BoundingBox
		types []int32
		xy    bool
		wrap  bool
		typ   bool
	}{
		{"plain", &orcpb.BoundingBox{Xmin: f(0), Xmax: f(1), Ymin: f(0), Ymax: f(1)}, []int32{1}, true, false, true},
		{"wrap", &orcpb.BoundingBox{Xmin: f(170), Xmax: f(-170), Ymin: f(0), Ymax: f(1)}, nil, true, true, false},
		{"y reversed", &orcpb.BoundingBox{Xmin: f(0), Xmax: f(1), Ymin: f(2), Ymax: f(1)}, nil, false, false, false},
		{"x missing", &orcpb.BoundingBox{Xmin: f(0), Ymin: f(0), Ymax: f(1)}, nil, false, false, false},
		{"nan", &orcpb.BoundingBox{Xmin: f(math.NaN()), Xmax: f(1), Ymin: f(0), Ymax: f(1)}, nil, false, false, false},
		{"inf reversed", &orcpb.BoundingBox{Xmin: f(math.Inf(1)), Xmax: f(math.Inf(-1)), Ymin: f(0), Ymax: f(1)}, nil, false, false, false},
		{"bad type", nil, []int32{1, 9, -1}, false, false, false},
	}
	for _, c := range cases {
		pb := &orcpb.ColumnStatistics{NumberOfValues: proto.Uint64(1), HasNull: proto.Bool(false),
			GeospatialStatistics: &orcpb.GeospatialStatistics{Bbox: c.bb, GeospatialTypes: c.types}}
		s := stats.FromProto(pb, g, stats.WriterInfo{})
		b := s.Geo.Box
		xy := b.AxisKnown(0) && b.AxisKnown(1) && b.Min[1] <= b.Max[1]
		if xy != c.xy || (xy && (b.Min[0] > b.Max[0]) != c.wrap) || (s.Geo.Types != 0) != c.typ {
			t.Errorf("%s: %+v", c.name, s.Geo)
		}
	}
	if s := stats.FromProto(&orcpb.ColumnStatistics{NumberOfValues: proto.Uint64(1)}, g, stats.WriterInfo{}); s.Geo != nil {
		t.Errorf("no message decoded as %+v", s.Geo)
	}
}

// FuzzGeoFromProto decodes arbitrary statistics as a geometry column: no
// panic, and what is decoded encodes to a message that decodes the same x
// and y bounds and types (a wrapped x range is left out: it never gains).
func FuzzGeoFromProto(f *testing.F) {
	g := orc.MustParseSchema("geometry")
	for _, pb := range []*orcpb.ColumnStatistics{
		{NumberOfValues: proto.Uint64(2), GeospatialStatistics: &orcpb.GeospatialStatistics{
			Bbox:            &orcpb.BoundingBox{Xmin: proto.Float64(1), Xmax: proto.Float64(-1), Ymin: proto.Float64(0), Ymax: proto.Float64(3), Zmin: proto.Float64(2)},
			GeospatialTypes: []int32{1, 3002, 7}}},
		{NumberOfValues: proto.Uint64(1), GeospatialStatistics: &orcpb.GeospatialStatistics{}},
	} {
		b, _ := proto.Marshal(pb)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var pb orcpb.ColumnStatistics
		if proto.Unmarshal(data, &pb) != nil {
			return
		}
		c := stats.FromProto(&pb, g, stats.WriterInfo{})
		if c.Geo == nil {
			return
		}
		again := stats.FromProto(c.Proto(), g, stats.WriterInfo{})
		a, b := &c.Geo.Box, &again.Geo.Box
		if a.HasXY() && (a.Min[0] != b.Min[0] || a.Max[0] != b.Max[0] || a.Min[1] != b.Min[1] || a.Max[1] != b.Max[1]) {
			t.Fatalf("box %v %v became %v %v", a.Min, a.Max, b.Min, b.Max)
		}
		if !a.HasXY() && b.HasXY() {
			t.Fatalf("unknown box %v %v became %v %v", a.Min, a.Max, b.Min, b.Max)
		}
		if again.Geo.Types != c.Geo.Types {
			t.Fatalf("types %v became %v", c.Geo.Types.Codes(), again.Geo.Types.Codes())
		}
		c.Merge(&again)
	})
}
