package writer_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// A text value over 1 MiB makes the stripe direct at once, so that it is
// not copied into the dictionary besides the stream: writing one 8 MiB
// value (and a few short ones before and after it) allocates at most 1.5
// times the value; it allocated over twice. The values read back.
func TestLongTextValueNotInDictionary(t *testing.T) {
	long := strings.Repeat("q", 8<<20)
	vals := []string{"a", "b", "a", long, "b", "c"}
	s := orc.MustParseSchema("struct<s:string>")
	b := orc.NewBatch(s, len(vals))
	for _, v := range vals[:3] {
		b.Cols[0].(*orc.BytesVector).AppendString(v)
	}
	b.NumRows = 3
	var out bytes.Buffer
	out.Grow(12 << 20)
	w, err := writer.NewWriter(&out, s, writer.WithCompression(orc.CompressionNone))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	for _, v := range vals[3:] {
		b.Cols[0].(*orc.BytesVector).AppendString(v)
	}
	b.NumRows = 3
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	n := after.TotalAlloc - before.TotalAlloc
	t.Logf("writing an %d-byte value: %d bytes allocated", len(long), n)
	if n > uint64(len(long))*3/2 {
		t.Errorf("writing an %d-byte value allocated %d bytes, want at most 1.5x", len(long), n)
	}
	f := parseFile(t, out.Bytes())
	if k := f.stripes[0].footer.GetColumns()[1].GetKind(); k != orcpb.ColumnEncoding_DIRECT_V2 {
		t.Errorf("encoding %v, want DIRECT_V2", k)
	}
	r, err := reader.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	rb := br.NewBatch()
	var got []string
	for {
		if err := br.Next(rb); err != nil {
			break
		}
		v := rb.Cols[0].(*orc.BytesVector)
		for i := range rb.NumRows {
			got = append(got, v.String(i))
		}
	}
	if len(got) != len(vals) {
		t.Fatalf("read %d values, want %d", len(got), len(vals))
	}
	for i := range vals {
		if got[i] != vals[i] {
			t.Errorf("value %d: %d bytes, want %d", i, len(got[i]), len(vals[i]))
		}
	}
}
