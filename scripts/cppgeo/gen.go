//go:build ignore

// Gen writes the orcgo geometry and geography files of the Apache ORC C++
// interop check (see README.md): go run scripts/cppgeo/gen.go DIR
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/writer"
)

func be(code uint32, coords ...float64) []byte {
	b := []byte{0}
	b = binary.BigEndian.AppendUint32(b, code)
	for _, c := range coords {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(c))
	}
	return b
}

func beLine(coords ...float64) []byte {
	b := []byte{0}
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(len(coords)/2))
	for _, c := range coords {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(c))
	}
	return b
}

func le(code uint32, coords ...float64) []byte {
	b := []byte{1}
	b = binary.LittleEndian.AppendUint32(b, code)
	for _, c := range coords {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(c))
	}
	return b
}

var wkts = []string{
	"POINT (1 2)", "POINT Z (1 2 3)", "POINT M (1 2 4)", "POINT ZM (1 2 3 4)", "POINT EMPTY",
	"LINESTRING (0 0, 10 -3)", "LINESTRING Z (0 0 5, 10 -3 7)", "LINESTRING EMPTY",
	"POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))", "POLYGON ZM ((0 0 1 2, 4 0 1 2, 4 4 1 2, 0 0 1 2))", "POLYGON EMPTY",
	"MULTIPOINT ((1 1), (-5 7))", "MULTIPOINT EMPTY", "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))",
	"MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
	"GEOMETRYCOLLECTION (POINT (3 4), LINESTRING (170 80, 179.5 -85))", "GEOMETRYCOLLECTION EMPTY",
	"GEOMETRYCOLLECTION M (POINT M (3 4 9), LINESTRING M EMPTY)",
}

func values() [][]byte {
	var out [][]byte
	for _, w := range wkts {
		b, err := geo.AppendWKB(nil, w)
		if err != nil {
			panic(w + ": " + err.Error())
		}
		out = append(out, b)
	}
	out = append(out, be(1, -120.5, 33.25), be(1001, 7, 8, 9), le(1, math.NaN(), 5), beLine(2, -200, 3, 150))
	out = append(out, nil) // null
	return out
}

func write(path string, comp orc.CompressionKind, rows, stripe int, opts ...writer.Option) {
	s := orc.MustParseSchema("struct<id:bigint,g:geometry,g2:geometry(EPSG:4326),h:geography,h2:geography(OGC:CRS84,karney),l:array<geometry>>")
	vals := values()
	b := orc.NewBatch(s, rows)
	l := b.Cols[5].(*orc.ListVector)
	l.Offsets = append(l.Offsets[:0], 0)
	for i := range rows {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		// walk slowly so that row groups differ
		v := vals[i%len(vals)]
		if i%len(vals) == 0 && i > 0 {
			v, _ = geo.AppendWKB(nil, fmt.Sprintf("POINT (%g %g)", float64(i%360)-180, float64(i%170)-85))
		}
		for c := 1; c <= 4; c++ {
			if v == nil {
				b.Cols[c].(*orc.BytesVector).AppendNull()
			} else {
				b.Cols[c].(*orc.BytesVector).Append(v)
			}
		}
		for j := 0; j < i%3; j++ {
			w := vals[(i+j+1)%len(vals)]
			if w == nil {
				w = vals[0]
			}
			l.Elem.(*orc.BytesVector).Append(w)
		}
		l.Offsets = append(l.Offsets, int64(l.Elem.Len()))
	}
	b.NumRows = rows
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	opts = append(opts, writer.WithCompression(comp), writer.WithRowIndexStride(1000))
	if stripe > 0 {
		opts = append(opts, writer.WithStripeSize(int64(stripe)))
	}
	w, err := writer.NewWriter(f, s, opts...)
	if err != nil {
		panic(err)
	}
	if err := w.Write(b); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	f.Close()
}

func main() {
	dir := os.Args[1]
	write(dir+"/go-geo-none.orc", orc.CompressionNone, 2500, 0)
	write(dir+"/go-geo-zstd.orc", orc.CompressionZstd, 30000, 64<<10)
	write(dir+"/go-geo-zlib.orc", orc.CompressionZlib, 5000, 0)
}
