package reader_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// seedExamples adds the small Apache examples to a fuzz corpus when they
// are present (the corpus in testdata/fuzz holds what fuzzing found).
func seedExamples(f *testing.F, maxSize int64) {
	dir := os.Getenv("ORC_EXAMPLES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "orc-examples")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	for _, p := range files {
		if st, err := os.Stat(p); err != nil || st.Size() > maxSize {
			continue
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte{})
	f.Add([]byte("ORC\x00"))
	for _, data := range shapeSeeds(f) {
		f.Add(data)
	}
}

// shapeSeeds are files of shapes the examples lack, so that mutations
// start from them: a wide schema (1,500 columns), many stripes (200), and
// deep nesting.
func shapeSeeds(tb testing.TB) [][]byte {
	var out [][]byte
	write := func(s *orc.Schema, rows int, opts ...writer.Option) {
		b := testutil.NewGenerator(rand.New(rand.NewPCG(9, 9)), s).Batch(rows)
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s, opts...)
		if err != nil {
			tb.Fatal(err)
		}
		if err := w.Write(b); err != nil {
			tb.Fatal(err)
		}
		if err := w.Close(); err != nil {
			tb.Fatal(err)
		}
		out = append(out, buf.Bytes())
	}
	wide := &orc.Schema{Kind: orc.Struct}
	for i := range 1500 {
		wide.Children = append(wide.Children, &orc.Schema{Kind: []orc.Kind{orc.Int, orc.String, orc.Double}[i%3]})
		wide.FieldNames = append(wide.FieldNames, fmt.Sprint("c", i))
	}
	wide.Assign()
	write(wide, 2)
	write(orc.MustParseSchema("struct<a:int,b:string>"), 400, writer.WithStripeRowLimit(2), writer.WithRowIndexStride(1000))
	write(orc.MustParseSchema("struct<a:struct<b:struct<c:array<map<string,struct<d:uniontype<int,string>>>>>>>"), 20)
	return out
}

// FuzzReader reads whole files: any outcome but an error wrapping
// ErrCorrupt, ErrUnsupported or ErrLimit (or a clean read) is a bug.
func FuzzReader(f *testing.F) {
	seedExamples(f, 50<<10)
	f.Fuzz(func(t *testing.T, data []byte) {
		err := readAll(data)
		if err != nil && !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrLimit) {
			t.Fatalf("error wraps none of ErrCorrupt, ErrUnsupported, ErrLimit: %v", err)
		}
	})
}

// FuzzTail parses file tails only, and decodes what the tail keeps as
// bytes (types, column statistics, stripe statistics) one entry at a time:
// each is what the footer or metadata decoded whole holds, or, when the
// whole does not parse, an error wrapping ErrCorrupt.
func FuzzTail(f *testing.F) {
	seedExamples(f, 1<<20)
	f.Fuzz(func(t *testing.T, data []byte) {
		tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{MaxTailSize: 1 << 20})
		if err != nil {
			if !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrLimit) {
				t.Fatalf("error wraps none of ErrCorrupt, ErrUnsupported, ErrLimit: %v", err)
			}
			return
		}
		corrupt := func(what string, err error) {
			if err != nil && !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("%s: error does not wrap ErrCorrupt: %v", what, err)
			}
		}
		full, ferr := tail.FullFooter()
		corrupt("FullFooter", ferr)
		for id := range min(tail.NumStatistics(), 5000) {
			st, err := tail.Statistics(id)
			corrupt("Statistics", err)
			if ferr == nil && (err != nil || !proto.Equal(st, full.GetStatistics()[id])) {
				t.Fatalf("statistics of column %d: %v (%v), the whole footer has %v", id, st, err, full.GetStatistics()[id])
			}
		}
		for i := range min(tail.NumTypes(), 5000) {
			pt, err := tail.Type(i)
			corrupt("Type", err)
			if ferr == nil && (err != nil || !proto.Equal(pt, full.GetTypes()[i])) {
				t.Fatalf("type %d: %v (%v), the whole footer has %v", i, pt, err, full.GetTypes()[i])
			}
		}
		md, merr := tail.DecodeMetadata()
		corrupt("DecodeMetadata", merr)
		for s := range min(len(tail.Footer.GetStripes()), 50) {
			n, err := tail.NumStripeStatistics(s)
			corrupt("NumStripeStatistics", err)
			for id := range min(n, 2000) {
				st, err := tail.StripeStatistics(s, id)
				corrupt("StripeStatistics", err)
				if merr == nil && md != nil && (err != nil || !proto.Equal(st, md.GetStripeStats()[s].GetColStats()[id])) {
					t.Fatalf("stripe %d column %d: %v (%v), the whole metadata has %v", s, id, st, err, md.GetStripeStats()[s].GetColStats()[id])
				}
			}
		}
	})
}
