package statsindex_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/writer"
)

// TestListing: the files an index lists are the dataset's, with the
// sizes and versions of the listing it was built from; the header records
// the read schema and partitions; paths that would lead outside the root
// are refused.
func TestListing(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 31))
	st := randomStore(t, r, 15)
	d := st.dataset(t, nil)
	index := buildIndex(t, d)
	files, err := statsindex.Listing(bytes.NewReader(index), int64(len(index)))
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, f := range files {
		got = append(got, fmt.Sprint(f.Name, " ", f.Version, " ", f.Size))
	}
	for _, f := range d.Files() {
		want = append(want, fmt.Sprint(f.Name, " ", f.Version, " ", f.Size))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("listed %q, want %q", got, want)
	}
	info, err := statsindex.ReadInfo(bytes.NewReader(index), int64(len(index)))
	if err != nil || info.Schema != ixSchema || info.Partitions != "struct<p:int>" {
		t.Fatalf("info %+v, %v", info, err)
	}

	// A hand-made index of layout 1 with no column, listing one path.
	forge := func(path string, size int64) []byte {
		s := orc.MustParseSchema("struct<path:string,size:bigint,version:string,rows:bigint>")
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s)
		if err != nil {
			t.Fatal(err)
		}
		w.AddUserMetadata(statsindex.MetadataKey, []byte(`{"layout":1,"columns":[]}`))
		b := orc.NewBatch(s, 1)
		b.Cols[0].(*orc.BytesVector).AppendString(path)
		b.Cols[1].(*orc.LongVector).Append(size)
		b.Cols[2].(*orc.BytesVector).AppendString("v")
		b.Cols[3].(*orc.LongVector).Append(1)
		b.NumRows = 1
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if files, err := statsindex.Listing(bytes.NewReader(nil), 0); err == nil {
		t.Fatalf("an empty index: %v", files)
	}
	ok := forge("x=1/a b.orc", 5)
	if files, err := statsindex.Listing(bytes.NewReader(ok), int64(len(ok))); err != nil || len(files) != 1 || files[0].Name != "x=1/a b.orc" || files[0].Size != 5 {
		t.Fatalf("a forged index: %v, %v", files, err)
	}
	for _, p := range []string{"../etc/passwd", "/abs.orc", "a//b.orc", "a/./b.orc", "a/..", "", "a\\b.orc", "a\x00b", "a/"} {
		bad := forge(p, 5)
		if _, err := statsindex.Listing(bytes.NewReader(bad), int64(len(bad))); err == nil || !strings.Contains(err.Error(), "not a path below") {
			t.Fatalf("path %q: %v", p, err)
		}
	}
	bad := forge("a.orc", -1)
	if _, err := statsindex.Listing(bytes.NewReader(bad), int64(len(bad))); err == nil || !strings.Contains(err.Error(), "size of -1") {
		t.Fatalf("a negative size: %v", err)
	}
}
