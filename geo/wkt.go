package geo

import (
	"math"
	"strconv"
)

// AppendWKT appends the well-known text of the WKB value to dst, such as
// "POINT (1 2)", "LINESTRING Z (0 0 1, 1 1 2)" or "POLYGON EMPTY". A point
// whose coordinates are all NaN is POINT EMPTY. A malformed value returns
// dst unchanged and the error.
func AppendWKT(dst, wkb []byte) ([]byte, error) {
	box := EmptyBox()
	w := &wktWriter{out: dst}
	p := parser{b: wkb, box: box, visit: w}
	_, err := p.geometry(0, 0, 0)
	if err == nil && p.off != len(wkb) {
		err = &Error{p.off, "bytes after the geometry"}
	}
	if err != nil {
		return dst, err
	}
	return w.out, nil
}

type wktFrame struct {
	code     uint32
	children int
	empty    bool
}

type wktWriter struct {
	out   []byte
	stack []wktFrame
}

func (w *wktWriter) begin(code uint32, n int, empty bool) {
	named := true
	if len(w.stack) > 0 {
		parent := &w.stack[len(w.stack)-1]
		if parent.children > 0 {
			w.out = append(w.out, ", "...)
		}
		parent.children++
		named = parent.code%1000 == GeometryCollection
	}
	if named {
		w.out = append(w.out, TypeName(code)...)
		w.out = append(w.out, ' ')
	}
	if empty {
		w.out = append(w.out, "EMPTY"...)
	} else {
		w.out = append(w.out, '(')
	}
	w.stack = append(w.stack, wktFrame{code: code, empty: empty})
}

func (w *wktWriter) coord(all [4]float64, width int) {
	c := all[:width]
	f := &w.stack[len(w.stack)-1]
	if f.children > 0 {
		w.out = append(w.out, ", "...)
	}
	f.children++
	for i, v := range c {
		if i > 0 {
			w.out = append(w.out, ' ')
		}
		w.out = appendNumber(w.out, v)
	}
}

func (w *wktWriter) end() {
	f := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	if !f.empty {
		w.out = append(w.out, ')')
	}
}

// appendNumber writes v in the shortest form that reads back exactly, in
// plain decimal notation for ordinary magnitudes.
func appendNumber(dst []byte, v float64) []byte {
	a := math.Abs(v)
	if v == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}
