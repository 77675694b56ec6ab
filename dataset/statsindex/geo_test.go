package statsindex_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// geoPoint is a row of the geometry test files: a point, POINT EMPTY
// (empty) or NULL (null).
type geoPoint struct {
	id          int64
	x, y        float64
	empty, null bool
}

// geoCloud is one file of the geometry tests: points drawn in a box.
type geoCloud struct {
	name           string
	x0, x1, y0, y1 float64
	extra          []geoPoint // rows after the cloud's
	allNull        bool
}

// pointWKB encodes a point as little-endian WKB, whatever its coordinates
// (infinities included, which WKT cannot spell).
func pointWKB(x, y float64) []byte {
	b := []byte{1}
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(y))
}

// geoFiles writes the clouds' files, 40 rows each, and returns them with
// every row written.
func geoFiles(t *testing.T, clouds []geoCloud) ([]dataset.File, []geoPoint) {
	t.Helper()
	r := rand.New(rand.NewPCG(52, 4))
	s := orc.MustParseSchema("struct<id:bigint,g:geometry>")
	empty, err := geo.AppendWKB(nil, "POINT EMPTY")
	if err != nil {
		t.Fatal(err)
	}
	var files []dataset.File
	var all []geoPoint
	id := int64(0)
	for _, c := range clouds {
		var rows []geoPoint
		for range 40 {
			p := geoPoint{id: id, x: c.x0 + r.Float64()*(c.x1-c.x0), y: c.y0 + r.Float64()*(c.y1-c.y0), null: c.allNull}
			rows = append(rows, p)
			id++
		}
		for _, p := range c.extra {
			p.id = id
			rows = append(rows, p)
			id++
		}
		b := orc.NewBatch(s, len(rows))
		for _, p := range rows {
			b.Cols[0].(*orc.LongVector).Append(p.id)
			g := b.Cols[1].(*orc.BytesVector)
			switch {
			case p.null:
				g.AppendNull()
			case p.empty:
				g.Append(empty)
			default:
				g.Append(pointWKB(p.x, p.y))
			}
		}
		b.NumRows = len(rows)
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(100))
		if err == nil {
			err = w.Write(b)
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		files = append(files, dataset.File{Name: c.name, Size: int64(len(data)), Version: "v1",
			Open: func() (io.ReaderAt, int64, io.Closer, error) {
				return bytes.NewReader(data), int64(len(data)), nil, nil
			}})
		all = append(all, rows...)
	}
	return files, all
}

// inBox is the oracle of ST_INTERSECTS_BOX and ST_WITHIN_BOX on a point:
// inside the box, edges included; x >= xmin or x <= xmax when xmin > xmax.
func inBox(p geoPoint, xmin, ymin, xmax, ymax float64) bool {
	if p.null || p.empty || p.y < ymin || p.y > ymax {
		return false
	}
	if xmin > xmax {
		return p.x >= xmin || p.x <= xmax
	}
	return p.x >= xmin && p.x <= xmax
}

// scanIDs scans the ids of the rows the predicate holds for, sorted, and
// returns the scan's statistics.
func scanIDs(t *testing.T, d *dataset.Dataset, e sarg.Expr, opts ...dataset.ScanOption) ([]int64, dataset.Stats) {
	t.Helper()
	rows, st := scanRows(t, d, append(opts, dataset.WithColumns("id"), dataset.WithSearchArgument(e))...)
	var ids []int64
	for _, r := range rows {
		var v struct{ ID int64 }
		if err := json.Unmarshal([]byte(r), &v); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	slices.Sort(ids)
	return ids, st
}

// TestIndexGeometry: the index keeps each file's bounding box of a
// geometry column and rules files out by the geometry predicates as the
// files' own statistics would, the antimeridian form included; the rows
// are those of the predicate applied to every row. A file whose box is not
// finite keeps NULL in the index and is opened; an entry whose box no
// footer holds is ignored with a warning; an index without box columns
// (layout 1) prunes nothing by geometry.
func TestIndexGeometry(t *testing.T) {
	clouds := []geoCloud{
		{name: "f0.orc", x0: 0, x1: 10, y0: 0, y1: 10, extra: []geoPoint{{empty: true}, {null: true}}},
		{name: "f1.orc", x0: 20, x1: 30, y0: 0, y1: 10},
		{name: "f2.orc", x0: 40, x1: 50, y0: 20, y1: 30},
		{name: "f3.orc", x0: 60, x1: 70, y0: -30, y1: -20},
		{name: "f4.orc", x0: 172, x1: 179, y0: 0, y1: 10},
		{name: "f5.orc", x0: -179, x1: -172, y0: 0, y1: 10},
		{name: "f6.orc", x0: 100, x1: 110, y0: 40, y1: 50, extra: []geoPoint{{null: true}}},
		{name: "f7.orc", allNull: true},
		// Its box reaches x = +Inf: stored as no box, so the index keeps
		// the file, and its footer rules it out where y misses.
		{name: "f8.orc", x0: 80, x1: 90, y0: 60, y1: 70, extra: []geoPoint{{x: math.Inf(1), y: 65}}},
	}
	files, points := geoFiles(t, clouds)
	plain, err := dataset.New(files)
	if err != nil {
		t.Fatal(err)
	}
	var ix bytes.Buffer
	info, err := statsindex.Write(plain.IndexSource(), &ix)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(info.Columns, "g") {
		t.Fatalf("indexed columns %q, want g among them", info.Columns)
	}
	// The boxes survive an update and match a check.
	if err := statsindex.Check(plain.IndexSource(), bytes.NewReader(ix.Bytes()), int64(ix.Len())); err != nil {
		t.Fatalf("check: %v", err)
	}
	var up bytes.Buffer
	if info, err := statsindex.Update(plain.IndexSource(), bytes.NewReader(ix.Bytes()), int64(ix.Len()), &up); err != nil || info.Read != 0 {
		t.Fatalf("update: %+v, %v", info, err)
	}
	if indexJSON(t, up.Bytes()) != indexJSON(t, ix.Bytes()) {
		t.Fatal("the updated index differs from the one it updated")
	}
	withIndex := func(index []byte) *dataset.Dataset {
		d, err := dataset.New(files, dataset.WithIndex("ix", bytesOpener(index)))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := withIndex(ix.Bytes())

	rect := func(x0, y0, x1, y1 float64) string {
		return fmt.Sprintf("POLYGON((%g %g, %g %g, %g %g, %g %g, %g %g))", x0, y0, x1, y0, x1, y1, x0, y1, x0, y0)
	}
	box := func(x0, y0, x1, y1 float64) func(p geoPoint) bool {
		return func(p geoPoint) bool { return inBox(p, x0, y0, x1, y1) }
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		e      sarg.Expr
		holds  func(p geoPoint) bool
		pruned int // files the index rules out
	}{
		// f0 and f1 meet the box; f7 (all NULL) and the rest do not, f8
		// (no box in the index) is opened.
		{sarg.IntersectsBox("g", 5, 5, 25, 8), box(5, 5, 25, 8), 6},
		// Across the antimeridian: x >= 170 or x <= -170 holds f4 and f5.
		{sarg.IntersectsBox("g", 170, 0, -170, 10), box(170, 0, -170, 10), 6},
		{sarg.MustParse("ST_INTERSECTS_BOX(g, 175, -5, -175, 5)"), box(175, -5, -175, 5), 6},
		{sarg.WithinBox("g", -1, -1, 11, 11), box(-1, -1, 11, 11), 7},
		// Infinite query bounds: x <= 15 and y >= 0 hold f0 and f5.
		{sarg.IntersectsBox("g", math.Inf(-1), 0, 15, inf), box(math.Inf(-1), 0, 15, inf), 6},
		// x >= 85: f4, and f8's rows from x 85 on, its +Inf point too.
		{sarg.IntersectsBox("g", 85, -inf, inf, inf), box(85, -inf, inf, inf), 6},
		{sarg.Intersects("g", rect(39, 19, 51, 31)), box(39, 19, 51, 31), 7},
		{sarg.Within("g", rect(-180, -1, 180, 11)), box(-180, -1, 180, 11), 4},
		// NOT ST_INTERSECTS: only the file of NULLs is ruled out.
		{sarg.Disjoint("g", rect(39, 19, 51, 31)), func(p geoPoint) bool { return !p.null && !inBox(p, 39, 19, 51, 31) }, 1},
		{sarg.And(sarg.IntersectsBox("g", -180, -90, 180, 15), sarg.Lt("id", sarg.Int(50))), func(p geoPoint) bool { return inBox(p, -180, -90, 180, 15) && p.id < 50 }, 7},
		{sarg.Or(sarg.IntersectsBox("g", 0, 0, 1, 1), sarg.IntersectsBox("g", 100, 40, 101, 41)), func(p geoPoint) bool { return inBox(p, 0, 0, 1, 1) || inBox(p, 100, 40, 101, 41) }, 6},
	} {
		what := c.e.String()
		var want []int64
		for _, p := range points {
			if c.holds(p) {
				want = append(want, p.id)
			}
		}
		got, st := scanIDs(t, d, c.e)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: ids %v, want %v", what, got, want)
		}
		if !st.IndexUsed || st.FilesPrunedByIndex != c.pruned || st.FilesNotInIndex != 0 || st.IndexWarning != "" || st.FilesConsidered != len(files) {
			t.Fatalf("%s: %d of %d files pruned by the index (want %d), %d not in it, warning %q", what, st.FilesPrunedByIndex, st.FilesConsidered, c.pruned, st.FilesNotInIndex, st.IndexWarning)
		}
		// The files' own statistics rule out at least what the index does.
		plainIDs, pst := scanIDs(t, plain, c.e)
		if !slices.Equal(plainIDs, want) || pst.FilesSkipped < st.FilesPrunedByIndex || st.FilesSkipped != pst.FilesSkipped {
			t.Fatalf("%s: without the index %d rows, %d files skipped; with it %d skipped", what, len(plainIDs), pst.FilesSkipped, st.FilesSkipped)
		}
		t.Logf("%s: %d rows, %d of %d files skipped by the index, %d in all", what, len(got), st.FilesPrunedByIndex, len(files), st.FilesSkipped)
	}

	// f8's entry holds no box (its x reaches +Inf); the others hold theirs.
	r, err := reader.Open(bytes.NewReader(ix.Bytes()), int64(ix.Len()))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		t.Fatal(err)
	}
	gcol := -1
	for i, n := range r.Schema().FieldNames {
		if n == "c1_xmin" {
			gcol = i
		}
	}
	if gcol < 0 {
		t.Fatalf("no c1_xmin in the index's schema %s", r.Schema())
	}
	for row := range b.NumRows {
		name := b.Cols[0].(*orc.BytesVector).String(row)
		null := b.Cols[gcol].(*orc.DoubleVector).IsNull(row)
		if null != (name == "f7.orc" || name == "f8.orc") {
			t.Fatalf("%s: box NULL %v", name, null)
		}
	}

	// An entry whose box no footer holds is ignored with a warning and
	// its file opened; a box whose x wraps is one a footer may hold, and
	// is judged as the antimeridian convention says.
	edit := func(file string, set func(vs []*orc.DoubleVector, row int)) []byte {
		return editIndex(t, ix.Bytes(), func(b *orc.Batch) {
			var vs []*orc.DoubleVector
			for _, n := range []string{"c1_xmin", "c1_xmax", "c1_ymin", "c1_ymax"} {
				vs = append(vs, b.Col(n).(*orc.DoubleVector))
			}
			for row := range b.NumRows {
				if b.Cols[0].(*orc.BytesVector).String(row) == file {
					set(vs, row)
				}
			}
		})
	}
	q := sarg.IntersectsBox("g", 5, 5, 25, 8)
	want, _ := scanIDs(t, plain, q)
	for _, c := range []struct {
		what string
		set  func(vs []*orc.DoubleVector, row int)
		warn string
	}{
		{"NaN xmin", func(vs []*orc.DoubleVector, row int) { vs[0].Values[row] = math.NaN() }, "not finite"},
		{"infinite ymax", func(vs []*orc.DoubleVector, row int) { vs[3].Values[row] = inf }, "not finite"},
		{"y inverted", func(vs []*orc.DoubleVector, row int) { vs[2].Values[row], vs[3].Values[row] = 9, 1 }, "ymin 9 above ymax 1"},
		{"ymin NULL", func(vs []*orc.DoubleVector, row int) { vs[2].Nulls.Nulls[row] = true }, "some bounds NULL"},
	} {
		// f3 (x 60..70, y -30..-20) would be ruled out; its bad entry
		// makes it opened, and its footer rules it out.
		d := withIndex(edit("f3.orc", c.set))
		got, st := scanIDs(t, d, q)
		if !slices.Equal(got, want) || st.FilesPrunedByIndex != 5 || st.FilesNotInIndex != 1 ||
			!strings.Contains(st.IndexWarning, "1 index entries ignored") || !strings.Contains(st.IndexWarning, "f3.orc: column g: ") ||
			!strings.Contains(st.IndexWarning, c.warn) {
			t.Fatalf("%s: %d rows (want %d), %d pruned by the index, %d not in it, warning %q", c.what, len(got), len(want), st.FilesPrunedByIndex, st.FilesNotInIndex, st.IndexWarning)
		}
	}
	// f1 (x 20..30) with its x stored as 15 .. -175, wrapping: x >= 15 or
	// x <= -175 still holds its points. A box over x -178..-176 meets
	// that and f5's, so f1 is opened (its footer rules it out) with f5
	// and f8 (no box); one over x -20..-10 meets no box, and only f8 is
	// opened.
	wrapped := withIndex(edit("f1.orc", func(vs []*orc.DoubleVector, row int) { vs[0].Values[row], vs[1].Values[row] = 15, -175 }))
	for _, c := range []struct {
		e      sarg.Expr
		pruned int
	}{
		{sarg.IntersectsBox("g", -178, 0, -176, 10), 6},
		{sarg.IntersectsBox("g", -20, 0, -10, 10), 8},
	} {
		want, _ := scanIDs(t, plain, c.e)
		got, st := scanIDs(t, wrapped, c.e)
		if !slices.Equal(got, want) || st.FilesPrunedByIndex != c.pruned || st.IndexWarning != "" {
			t.Fatalf("%s with f1's x wrapped: %d rows (want %d), %d pruned by the index (want %d), warning %q", c.e, len(got), len(want), st.FilesPrunedByIndex, c.pruned, st.IndexWarning)
		}
	}

	// An index without the geometry column (as every index before layout
	// 3) is read as before and rules no file out by a geometry leaf.
	var old bytes.Buffer
	if _, err := statsindex.Write(plain.IndexSource(), &old, statsindex.Columns("id")); err != nil {
		t.Fatal(err)
	}
	got, st := scanIDs(t, withIndex(old.Bytes()), q)
	if !slices.Equal(got, want) || !st.IndexUsed || st.FilesPrunedByIndex != 0 || st.IndexWarning != "" {
		t.Fatalf("an index without g: %d rows (want %d), %d pruned by it, warning %q", len(got), len(want), st.FilesPrunedByIndex, st.IndexWarning)
	}
	// With the box columns, a layout below 3 is a broken header.
	bad := reheader(t, ix.Bytes(), func(h []byte) []byte {
		if !bytes.Contains(h, []byte(`"layout":3`)) {
			t.Fatalf("header %s: want layout 3", h)
		}
		return bytes.Replace(h, []byte(`"layout":3`), []byte(`"layout":2`), 1)
	})
	if _, st := scanIDs(t, withIndex(bad), q); st.IndexUsed || !strings.Contains(st.IndexWarning, "is geometry in layout 2") {
		t.Fatalf("a geometry column in layout 2: used %v, warning %q", st.IndexUsed, st.IndexWarning)
	}
}

// reheader rewrites an index file with its header (the MetadataKey
// value) edited.
func reheader(t *testing.T, data []byte, edit func(h []byte) []byte) []byte {
	t.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader(reader.WithBatchSize(int(r.NumRows())))
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, r.Schema(), writer.WithRowIndexStride(1024))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.UserMetadata() {
		v := m.Value
		if m.Key == statsindex.MetadataKey {
			v = edit(v)
		}
		if err := w.AddUserMetadata(m.Key, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIndexGeometryRowGroups: a box predicate prunes the index's own row
// groups by the entries' y ranges, and only where no entry of the group
// could meet the box; the files left are decided by their entries.
func TestIndexGeometryRowGroups(t *testing.T) {
	defer statsindex.SetStride(100)()
	var clouds []geoCloud
	for k := range 300 { // file k: points at y = k + 0.25, x in [0, 1]
		y := float64(k) + 0.25
		clouds = append(clouds, geoCloud{name: fmt.Sprintf("f%03d.orc", k), x0: 0, x1: 1, y0: y, y1: y})
	}
	files, points := geoFiles(t, clouds)
	plain, err := dataset.New(files)
	if err != nil {
		t.Fatal(err)
	}
	var ix bytes.Buffer
	if _, err := statsindex.Write(plain.IndexSource(), &ix); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.New(files, dataset.WithIndex("ix", bytesOpener(ix.Bytes())))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		e                sarg.Expr
		holds            func(p geoPoint) bool
		byGroups, byStat int
	}{
		// Files 150 and 151 meet y 150..151.5: groups 0 and 2 are ruled
		// out whole, 98 files of group 1 by their entries.
		{sarg.IntersectsBox("g", 0, 150, 1, 151.5), func(p geoPoint) bool { return inBox(p, 0, 150, 1, 151.5) }, 200, 98},
		{sarg.WithinBox("g", -1, 199, 2, 200.25), func(p geoPoint) bool { return inBox(p, -1, 199, 2, 200.25) }, 100, 198},
		// On a group's edge: y 99.25 is file 99's, in group 0.
		{sarg.IntersectsBox("g", 0, 99.25, 1, 99.25), func(p geoPoint) bool { return inBox(p, 0, 99.25, 1, 99.25) }, 200, 99},
		// Across the antimeridian, x >= 0.5 or x <= -170: x is not
		// translated, so no group is ruled out by it; y still is.
		{sarg.IntersectsBox("g", 0.5, 10, -170, 20), func(p geoPoint) bool { return inBox(p, 0.5, 10, -170, 20) }, 200, 90},
		// An infinite y bound leaves the groups to the entries.
		{sarg.IntersectsBox("g", 0, math.Inf(-1), 1, 5), func(p geoPoint) bool { return inBox(p, 0, math.Inf(-1), 1, 5) }, 0, 295},
		// NOT is not translated.
		{sarg.Not(sarg.IntersectsBox("g", 0, 0, 1, 298)), func(p geoPoint) bool { return !inBox(p, 0, 0, 1, 298) }, 0, 0},
	} {
		what := c.e.String()
		rows, st, explain := scanAll(t, d, dataset.WithColumns("id"), dataset.WithSearchArgument(c.e))
		var got, want []int64
		for _, r := range rows {
			var v struct{ ID int64 }
			if err := json.Unmarshal([]byte(r), &v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v.ID)
		}
		slices.Sort(got)
		for _, p := range points {
			if c.holds(p) {
				want = append(want, p.id)
			}
		}
		line := fmt.Sprintf("index: %d files ruled out by the index's row groups, %d by their entries' statistics; 0 missing", c.byGroups, c.byStat)
		if !slices.Equal(got, want) || !strings.Contains(explain, line) || st.FilesPrunedByIndex != c.byGroups+c.byStat {
			t.Fatalf("%s: %d rows (want %d), %d pruned by the index; explain:\n%s\nwant the line %q", what, len(got), len(want), st.FilesPrunedByIndex, explain, line)
		}
	}
}

// TestIndexGeometryRandom: random point clouds and random geometry
// predicates (boxes across the antimeridian and with infinite bounds,
// polygons, under NOT, AND and OR): with the index the rows are those of
// a scan without it, and the index rules out exactly the files their
// footers rule out.
func TestIndexGeometryRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 52))
	var queries, pruned, considered int
	for round := range 4 * *indexScale {
		var clouds []geoCloud
		for k := range 24 {
			x, y := r.Float64()*340-170, r.Float64()*160-80
			w, h := r.Float64()*20, r.Float64()*10
			c := geoCloud{name: fmt.Sprintf("f%02d.orc", k), x0: x, x1: x + w, y0: y, y1: y + h, allNull: r.IntN(12) == 0}
			if r.IntN(4) == 0 {
				c.extra = append(c.extra, geoPoint{empty: true})
			}
			if r.IntN(4) == 0 {
				c.extra = append(c.extra, geoPoint{null: true})
			}
			clouds = append(clouds, c)
		}
		files, _ := geoFiles(t, clouds)
		plain, err := dataset.New(files)
		if err != nil {
			t.Fatal(err)
		}
		var ix bytes.Buffer
		if _, err := statsindex.Write(plain.IndexSource(), &ix); err != nil {
			t.Fatal(err)
		}
		d, err := dataset.New(files, dataset.WithIndex("ix", bytesOpener(ix.Bytes())))
		if err != nil {
			t.Fatal(err)
		}
		leaf := func() sarg.Expr {
			x0, y0 := r.Float64()*360-180, r.Float64()*180-90
			x1, y1 := x0+r.Float64()*60, y0+r.Float64()*30
			switch r.IntN(6) {
			case 0: // across the antimeridian
				return sarg.IntersectsBox("g", x1, y0, x0, y1)
			case 1:
				inf := []float64{math.Inf(-1), math.Inf(1)}
				return sarg.IntersectsBox("g", inf[r.IntN(2)], y0, x1, inf[1])
			case 2:
				return sarg.WithinBox("g", x0, y0, x1, y1)
			case 3:
				p := fmt.Sprintf("POLYGON((%g %g, %g %g, %g %g, %g %g))", x0, y0, x1, y0, x1, y1, x0, y0)
				return []func(string, string) sarg.Expr{sarg.Intersects, sarg.Within, sarg.Disjoint}[r.IntN(3)]("g", p)
			}
			return sarg.IntersectsBox("g", x0, y0, x1, y1)
		}
		for range 25 {
			e := leaf()
			switch r.IntN(5) {
			case 0:
				e = sarg.Not(e)
			case 1:
				e = sarg.And(e, leaf())
			case 2:
				e = sarg.Or(e, leaf())
			}
			want, pst := scanIDs(t, plain, e)
			got, st := scanIDs(t, d, e)
			if !slices.Equal(got, want) || st.FilesPrunedByIndex != pst.FilesSkipped || st.FilesSkipped != pst.FilesSkipped || st.IndexWarning != "" {
				t.Fatalf("round %d, %s: %d rows (want %d); the index ruled out %d files, the footers %d; warning %q",
					round, e, len(got), len(want), st.FilesPrunedByIndex, pst.FilesSkipped, st.IndexWarning)
			}
			queries++
			pruned += st.FilesPrunedByIndex
			considered += st.FilesConsidered
		}
	}
	t.Logf("%d queries: the index ruled out %d of %d files", queries, pruned, considered)
	if pruned < considered/2 {
		t.Errorf("the index ruled out %d of %d files: the queries prune too little to test it", pruned, considered)
	}
}
