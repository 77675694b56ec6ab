package geo

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
)

var wktCases = []string{
	"POINT (1 2)",
	"POINT Z (1 2 3)",
	"POINT M (1 2 4)",
	"POINT ZM (1 2 3 4)",
	"POINT EMPTY",
	"LINESTRING (0 0, 1.5 -2, 1e+30 1e-09)",
	"LINESTRING EMPTY",
	"POLYGON ((0 0, 1 0, 1 1, 0 0), (0.2 0.2, 0.3 0.2, 0.2 0.3, 0.2 0.2))",
	"POLYGON EMPTY",
	"MULTIPOINT ((1 2), (3 4))",
	"MULTIPOINT Z ((1 2 3), EMPTY)",
	"MULTILINESTRING ((0 0, 1 1), EMPTY)",
	"MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
	"GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 3 3), GEOMETRYCOLLECTION EMPTY)",
	"GEOMETRYCOLLECTION ZM (POINT ZM (1 2 3 4))",
	"GEOMETRYCOLLECTION EMPTY",
}

func TestWKTRoundTrip(t *testing.T) {
	for _, s := range wktCases {
		wkb, err := AppendWKB(nil, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		got, err := AppendWKT(nil, wkb)
		if err != nil {
			t.Fatalf("%s: %v (%x)", s, err, wkb)
		}
		if string(got) != s {
			t.Errorf("WKT(WKB(%q)) = %q", s, got)
		}
		// The same value big-endian reads the same.
		be := toBigEndian(t, wkb)
		got2, err := AppendWKT(nil, be)
		if err != nil || string(got2) != s {
			t.Errorf("big-endian %s: %q, %v", s, got2, err)
		}
	}
}

// toBigEndian rewrites a little-endian value big-endian by walking it with
// the parser's own layout knowledge: simplest by re-encoding each number.
func toBigEndian(t *testing.T, le []byte) []byte {
	t.Helper()
	out := make([]byte, 0, len(le))
	var walk func(off int) int
	walk = func(off int) int {
		out = append(out, 0)
		code := binary.LittleEndian.Uint32(le[off+1:])
		out = binary.BigEndian.AppendUint32(out, code)
		off += 5
		base, dims := code%1000, code/1000
		width := 2 + int(dims&1) + int(dims>>1)
		nums := func(n int) {
			for range n * width {
				out = binary.BigEndian.AppendUint64(out, binary.LittleEndian.Uint64(le[off:]))
				off += 8
			}
		}
		cnt := func() int {
			n := binary.LittleEndian.Uint32(le[off:])
			out = binary.BigEndian.AppendUint32(out, n)
			off += 4
			return int(n)
		}
		switch base {
		case Point:
			nums(1)
		case LineString:
			nums(cnt())
		case Polygon:
			for range cnt() {
				nums(cnt())
			}
		default:
			for range cnt() {
				off = walk(off)
			}
		}
		return off
	}
	walk(0)
	return out
}

func TestBound(t *testing.T) {
	cases := []struct {
		wkt      string
		code     uint32
		min, max [4]float64
	}{
		{"POINT (1 2)", 1, [4]float64{1, 2, inf, inf}, [4]float64{1, 2, -inf, -inf}},
		{"LINESTRING Z (0 5 1, 3 -1 7)", 1002, [4]float64{0, -1, 1, inf}, [4]float64{3, 5, 7, -inf}},
		{"POINT M (1 2 9)", 2001, [4]float64{1, 2, inf, 9}, [4]float64{1, 2, -inf, 9}},
		{"MULTIPOINT ((1 2), (nan 7), (-4 nan))", 4, [4]float64{-4, 2, inf, inf}, [4]float64{1, 7, -inf, -inf}},
		{"POINT EMPTY", 1, [4]float64{inf, inf, inf, inf}, [4]float64{-inf, -inf, -inf, -inf}},
	}
	for _, c := range cases {
		wkb, err := AppendWKB(nil, c.wkt)
		if err != nil {
			t.Fatal(err)
		}
		box, code, err := Envelope(wkb)
		if err != nil || code != c.code || box.Min != c.min || box.Max != c.max {
			t.Errorf("%s: box %v %v code %d err %v; want %v %v %d", c.wkt, box.Min, box.Max, code, err, c.min, c.max, c.code)
		}
	}
}

var inf = math.Inf(1)

func TestBadWKB(t *testing.T) {
	pt, _ := AppendWKB(nil, "POINT (1 2)")
	ls, _ := AppendWKB(nil, "LINESTRING (1 2, 3 4)")
	mp, _ := AppendWKB(nil, "MULTIPOINT ((1 2))")
	huge := append([]byte(nil), ls...)
	binary.LittleEndian.PutUint32(huge[5:], 0xFFFFFFFF)
	mixed := append([]byte(nil), mp...)
	binary.LittleEndian.PutUint32(mixed[10:], 2) // a linestring inside a multipoint
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "ends where a geometry should start"},
		{"byte order", append([]byte{2}, pt[1:]...), "byte order is 2"},
		{"truncated point", pt[:20], "point needs 16 bytes"},
		{"trailing", append(append([]byte(nil), pt...), 0), "1 bytes after the geometry"},
		{"type", []byte{1, 8, 0, 0, 0}, "type code 8 is not"},
		{"ewkb", []byte{1, 1, 0, 0, 0x20}, "extended-WKB"},
		{"huge count", huge, "4294967295 points need"},
		{"part type", mixed, "LINESTRING inside a MULTIPOINT"},
		{"short count", ls[:7], "inside a 4-byte count"},
	}
	for _, c := range cases {
		err := Validate(c.b)
		var we *Error
		if err == nil || !errors.As(err, &we) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Nesting beyond MaxDepth.
	deep := []byte{}
	for range MaxDepth + 2 {
		deep = append(deep, 1, 7, 0, 0, 0, 1, 0, 0, 0)
	}
	if err := Validate(deep); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep: %v", err)
	}
}

func TestBadWKT(t *testing.T) {
	for _, s := range []string{"", "POINT", "POINT (1)", "CIRCLE (1 2)", "POINT (1 2", "LINESTRING (1 2, 3 4 5)", "MULTIPOINT (LINESTRING (1 2))", "POINT (1 2) x",
		// parts of other dimensions than their collection (found by FuzzWKT)
		"GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0 0, 1 1 1))", "GEOMETRYCOLLECTION Z (POINT M (1 2 3))",
		"MULTILINESTRING ((0 0, 1 1), (0 0 0, 1 1 1))", "MULTIPOLYGON (EMPTY, ((0 0 0, 1 0 0, 0 1 0, 0 0 0)))"} {
		if b, err := AppendWKB(nil, s); err == nil {
			t.Errorf("%q parsed as %s", s, hex.EncodeToString(b))
		}
	}
	// Without a keyword, a collection takes its first part's dimensions.
	for s, want := range map[string]string{
		"GEOMETRYCOLLECTION (LINESTRING (0 0 0, 1 1 1))":    "GEOMETRYCOLLECTION Z (LINESTRING Z (0 0 0, 1 1 1))",
		"GEOMETRYCOLLECTION (POINT M (1 2 3), POINT EMPTY)": "GEOMETRYCOLLECTION M (POINT M (1 2 3), POINT M EMPTY)",
		"MULTILINESTRING ((0 0 0 0, 1 1 1 1))":              "MULTILINESTRING ZM ((0 0 0 0, 1 1 1 1))",
	} {
		b, err := AppendWKB(nil, s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if err := Validate(b); err != nil {
			t.Errorf("%q gives invalid WKB: %v", s, err)
		}
		if txt, _ := AppendWKT(nil, b); string(txt) != want {
			t.Errorf("%q prints as %q, want %q", s, txt, want)
		}
	}
}

// TestBadWKTPosition checks that an error in well-known text says where.
func TestBadWKTPosition(t *testing.T) {
	for _, c := range []struct {
		in  string
		pos int
		msg string
	}{
		{"POINT (1 2", 10, `expected ')', found the end`},
		{"POINT (1e 2)", 7, `bad number "1e"`},
		{"POLYGON ((0 0, 1 0, 1 1, 0 0)", 29, "expected ')'"},
		{"CIRCLE (1 2)", 6, `unknown geometry "CIRCLE"`},
		{"POINT (1 2) x", 12, `unexpected "x"`},
		{"LINESTRING (1 2, 3)", 18, "a coordinate has 1 numbers"},
	} {
		_, err := AppendWKB(nil, c.in)
		var we *WKTError
		if !errors.As(err, &we) || we.Pos != c.pos || !strings.Contains(we.Msg, c.msg) {
			t.Errorf("%q: %v, want position %d and %q", c.in, err, c.pos, c.msg)
		}
	}
}

func TestBoxMerge(t *testing.T) {
	a, b := EmptyBox(), EmptyBox()
	a.add(0, 1)
	a.add(1, 2)
	b.add(0, -3)
	b.add(1, 5)
	a.Merge(&b)
	if a.Min[0] != -3 || a.Max[0] != 1 || a.Min[1] != 2 || a.Max[1] != 5 || !a.AxisEmpty(2) || !a.HasXY() {
		t.Fatalf("merged %v %v", a.Min, a.Max)
	}
	c := Box{Min: [4]float64{math.NaN(), 0, 0, 0}, Max: [4]float64{math.NaN(), 1, 1, 1}}
	a.Merge(&c)
	if a.AxisKnown(0) || !a.AxisKnown(1) || a.HasXY() {
		t.Fatalf("NaN merge %v %v", a.Min, a.Max)
	}
}

func FuzzWKB(f *testing.F) {
	for _, s := range wktCases {
		b, _ := AppendWKB(nil, s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		box := EmptyBox()
		_, err := Bound(b, &box)
		txt, err2 := AppendWKT(nil, b)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Bound %v, AppendWKT %v", err, err2)
		}
		if err != nil {
			return
		}
		// The text grows with the value, not with a count read from it:
		// 8 bytes of coordinate print as at most 25 characters.
		if len(txt) > 4*len(b)+64 {
			t.Fatalf("%d bytes of WKB print as %d characters", len(b), len(txt))
		}
		// What parses prints as WKT that parses back to a value with the
		// same box (NaN payloads aside).
		back, err := AppendWKB(nil, string(txt))
		if err != nil {
			t.Fatalf("WKT %q does not parse: %v", txt, err)
		}
		box2 := EmptyBox()
		if _, err := Bound(back, &box2); err != nil || box2 != box {
			t.Fatalf("%q: box %v, back %v (%v)", txt, box, box2, err)
		}
	})
}

// FuzzWKT parses arbitrary text as WKT (orc convert reads it from CSV and
// JSON): no panic, a refusal or a valid value no larger than a bound on the
// text, which prints as WKT that parses back to the same bytes.
func FuzzWKT(f *testing.F) {
	for _, s := range wktCases {
		f.Add(s)
	}
	f.Add("MULTIPOINT ZM (EMPTY, EMPTY, (1 2 3 4))")
	f.Add("GEOMETRYCOLLECTION (GEOMETRYCOLLECTION (GEOMETRYCOLLECTION EMPTY))")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := AppendWKB(nil, s)
		if err != nil {
			return
		}
		// At least 5 characters ("EMPTY" or "0 0 0") for up to 37 bytes
		// (a 5-byte header and four 8-byte coordinates).
		if len(b) > 8*len(s)+64 {
			t.Fatalf("%d characters of WKT give %d bytes of WKB", len(s), len(b))
		}
		if err := Validate(b); err != nil {
			t.Fatalf("%q parses to invalid WKB: %v", s, err)
		}
		txt, err := AppendWKT(nil, b)
		if err != nil {
			t.Fatal(err)
		}
		back, err := AppendWKB(nil, string(txt))
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("%q -> %q -> %x (%v), want %x", s, txt, back, err, b)
		}
	})
}
