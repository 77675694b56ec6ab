package statsindex_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/internal/dstest"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/sarg"
)

const nestedSchema = "struct<id:bigint,s:struct<x:int,y:string>,t:struct<u:struct<v:date>>>"

// nestedFile writes a file whose struct fields hold values from a window
// starting at lo; some rows have a null struct or a null field.
func nestedFile(t *testing.T, r *rand.Rand, lo int) []byte {
	t.Helper()
	s := orc.MustParseSchema(nestedSchema)
	n := 1 + r.IntN(30)
	b := orc.NewBatch(s, n)
	nulls := r.IntN(3) // 0: none
	for range n {
		b.Cols[0].(*orc.LongVector).Append(int64(lo*10 + r.IntN(10)))
		sv := b.Cols[1].(*orc.StructVector)
		if nulls > 0 && r.IntN(6) < nulls {
			sv.AppendNull()
		} else {
			if nulls > 1 && r.IntN(4) == 0 {
				sv.Fields[0].(*orc.LongVector).AppendNull()
			} else {
				sv.Fields[0].(*orc.LongVector).Append(int64(lo + r.IntN(5)))
			}
			sv.Fields[1].(*orc.BytesVector).AppendString(ixWords[min(lo/3+r.IntN(2), len(ixWords)-1)])
			sv.AppendRow()
		}
		tv := b.Cols[2].(*orc.StructVector)
		uv := tv.Fields[0].(*orc.StructVector)
		uv.Fields[0].(*orc.LongVector).Append(int64(19000 + lo + r.IntN(5)))
		uv.AppendRow()
		tv.AppendRow()
	}
	b.NumRows = n
	return dstest.WriteORC(t, s, b)
}

// TestIndexNested: struct fields named by their paths are indexed columns:
// random predicates on them return the rows of a scan without the index,
// the index rules out files by them (never more than the footers: it
// lacks the structs' own null counts, which the footers use), a bloom
// filter on one is refused, and update and check keep the paths.
func TestIndexNested(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 41))
	st := &ixStore{fsys: fstest.MapFS{}}
	for i := range 30 {
		st.put(fmt.Sprintf("part-%03d.orc", i), nestedFile(t, r, r.IntN(20)))
	}
	files, err := dataset.FromFS(st.fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	s := orc.MustParseSchema(nestedSchema)
	plain, err := dataset.New(files, dataset.WithSchema(s))
	if err != nil {
		t.Fatal(err)
	}
	index := buildIndex(t, plain, statsindex.Columns("id", "s.x", "s.y", "t.u.v"))
	d, err := dataset.New(files, dataset.WithSchema(s), dataset.WithIndex("test index", bytesOpener(index)))
	if err != nil {
		t.Fatal(err)
	}
	info, err := statsindex.ReadInfo(bytes.NewReader(index), int64(len(index)))
	if err != nil || strings.Join(info.Columns, ", ") != "id bigint, s.x int, s.y string, t.u.v date" {
		t.Fatalf("info %+v, %v", info, err)
	}
	pruned := 0
	queries := 40
	if testing.Short() {
		queries = 12
	}
	for k := range queries {
		var e sarg.Expr
		switch k {
		case 0:
			e = sarg.MustParse("s.x = 3")
		case 1:
			e = sarg.MustParse("t.u.v BETWEEN DATE '2022-01-10' AND DATE '2022-01-12'")
		default:
			col := []string{"s.x", "s.y", "t.u.v", "id"}[r.IntN(4)]
			lit := map[string]sarg.Literal{"s.x": sarg.Int(int64(r.IntN(26))), "s.y": sarg.String(ixWords[r.IntN(len(ixWords))]),
				"t.u.v": sarg.Date(int32(19000 + r.IntN(26))), "id": sarg.Int(int64(r.IntN(250)))}[col]
			switch r.IntN(6) {
			case 0:
				e = sarg.Eq(col, lit)
			case 1:
				e = sarg.Lt(col, lit)
			case 2:
				e = sarg.Not(sarg.Le(col, lit))
			case 3:
				e = sarg.IsNull(col)
			case 4:
				e = sarg.Or(sarg.Eq(col, lit), sarg.Eq("s.x", sarg.Int(int64(r.IntN(26)))))
			default:
				e = sarg.And(sarg.Ne(col, lit), sarg.Ge("t.u.v", sarg.Date(int32(19000+r.IntN(26)))))
			}
		}
		withIx, without := compareScans(t, "nested", d, e)
		footer := without.FilesSkipped - without.FilesPrunedByPartition
		if withIx.FilesPrunedByIndex > footer {
			t.Fatalf("%s: the index ruled out %d files, the footers %d", e, withIx.FilesPrunedByIndex, footer)
		}
		if k < 2 && withIx.FilesPrunedByIndex == 0 {
			t.Fatalf("%s: the index ruled out no file", e)
		}
		pruned += withIx.FilesPrunedByIndex
	}
	t.Logf("%d files ruled out by struct fields", pruned)

	var buf bytes.Buffer
	if _, err := statsindex.Write(plain.IndexSource(), &buf, statsindex.Columns("s.x"), statsindex.BloomColumns("s.x")); err == nil || !strings.Contains(err.Error(), "struct field") {
		t.Fatalf("a bloom filter on a struct field: %v", err)
	}
	if _, err := statsindex.Write(plain.IndexSource(), &buf, statsindex.Columns("s.z")); err == nil || !strings.Contains(err.Error(), `no column "s.z"`) {
		t.Fatalf("a missing field: %v", err)
	}
	if _, err := statsindex.Write(plain.IndexSource(), &buf, statsindex.Columns("t.u")); err == nil || !strings.Contains(err.Error(), "no minimum and maximum") {
		t.Fatalf("a struct: %v", err)
	}
	// The update and the check keep the paths.
	if err := statsindex.Check(plain.IndexSource(), bytes.NewReader(index), int64(len(index))); err != nil {
		t.Fatalf("check: %v", err)
	}
	buf.Reset()
	if info, err := statsindex.Update(plain.IndexSource(), bytes.NewReader(index), int64(len(index)), &buf); err != nil || info.Read != 0 || indexJSON(t, buf.Bytes()) != indexJSON(t, index) {
		t.Fatalf("update: %+v, %v", info, err)
	}
}
