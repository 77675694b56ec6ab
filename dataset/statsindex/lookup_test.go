package statsindex_test

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/sarg"
)

// TestLookupVerdicts asks an index directly: a file is vouched for only by
// an entry of its path, size and version; a vouched file is ruled out when
// its entry's statistics cannot satisfy the predicate.
func TestLookupVerdicts(t *testing.T) {
	files := latencyFiles(t, 6) // file i holds ids 10i..10i+3
	var listed []dataset.File
	for _, f := range files {
		data := f.data
		listed = append(listed, dataset.File{Name: f.name, Size: int64(len(data)), Version: "v1",
			Open: func() (io.ReaderAt, int64, io.Closer, error) {
				return bytes.NewReader(data), int64(len(data)), nil, nil
			}})
	}
	d, err := dataset.New(listed)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := statsindex.Write(d.IndexSource(), &buf); err != nil {
		t.Fatal(err)
	}
	ix, err := statsindex.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), d.Schema(), nil)
	if err != nil {
		t.Fatal(err)
	}
	where := sarg.Eq("id", sarg.Int(21))
	q := statsindex.Query{Where: where}
	for _, f := range listed {
		q.Files = append(q.Files, statsindex.QueryFile{Name: f.Name, Size: f.Size, Version: f.Version, Where: where})
	}
	q.Files[0].Version = ""   // listed without a version
	q.Files[1].Version = "v2" // rewritten since
	q.Files[3].Size++         // another size
	q.Files = append(q.Files, statsindex.QueryFile{Name: "new.orc", Size: 1, Version: "v1", Where: where})
	res, err := ix.Lookup(q)
	if err != nil {
		t.Fatal(err)
	}
	want := []statsindex.Verdict{statsindex.NotVouched, statsindex.NotVouched, statsindex.MayMatch, statsindex.NotVouched,
		statsindex.RuledOutByStatistics, statsindex.RuledOutByStatistics, statsindex.NotVouched}
	if !slices.Equal(res.Verdicts, want) || res.Warning != "" {
		t.Fatalf("verdicts %v (warning %q), want %v", res.Verdicts, res.Warning, want)
	}
	if res.LookupExpr == "" || res.MembershipExpr == "" {
		t.Fatalf("no expressions shown: %+v", res)
	}
}
