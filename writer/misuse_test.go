package writer_test

// Misuse of Writer.Write that the writer used to accept and write to disk:
// batches without a schema and timestamps Java cannot read. Each is
// refused with an error naming the column, and the writer stays usable
// (the file equals one written without the refused batch).

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// refused writes good, then bad (which must be refused with an error
// holding every string of want), then good again, and checks the file
// equals one holding only the two good batches.
func refused(t *testing.T, s *orc.Schema, good func() *orc.Batch, bad *orc.Batch, opts []writer.Option, want ...string) {
	t.Helper()
	write := func(batches ...*orc.Batch) ([]byte, []error) {
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var errs []error
		for _, b := range batches {
			errs = append(errs, func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				return w.Write(b)
			}())
		}
		if err := w.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		return buf.Bytes(), errs
	}
	clean, errs := write(good(), good())
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("good batches refused: %v", errs)
	}
	got, errs := write(good(), bad, good())
	if errs[0] != nil || errs[2] != nil {
		t.Fatalf("good batch refused: %v, %v", errs[0], errs[2])
	}
	err := errs[1]
	if err == nil {
		t.Fatalf("bad batch accepted")
	}
	if strings.HasPrefix(err.Error(), "panic") {
		t.Fatalf("Write %v", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if !bytes.Equal(got, clean) {
		t.Errorf("the refused batch changed the file")
	}
}

// TestMisuseBadSchema adds cases to badBatches' schema: each breaks one
// thing in goodBatch and names what the error must say.
func TestMisuseBadSchema(t *testing.T) {
	s := orc.MustParseSchema(badSchema)
	opts := []writer.Option{writer.WithRowIndexStride(100), writer.WithBloomFilterColumns("i", "s")}
	cases := []struct {
		name   string
		break_ func(b *orc.Batch)
		want   []string
	}{
		{"one vector shorter", func(b *orc.Batch) {
			v := b.Cols[5].(*orc.DoubleVector)
			v.Values = v.Values[:2]
		}, []string{"column d", "2 rows"}},
		{"nil schema", func(b *orc.Batch) { b.Schema = nil }, []string{"Batch.Schema is nil"}},
		{"other schema with the same vectors", func(b *orc.Batch) {
			b.Schema = orc.MustParseSchema(strings.Replace(badSchema, "ti:tinyint", "tj:tinyint", 1))
		}, []string{"batch schema", "tj:tinyint"}},
		{"timestamp seconds 2^63-1", func(b *orc.Batch) {
			b.Cols[8].(*orc.TimestampVector).Seconds[2] = math.MaxInt64
		}, []string{"column ts", "row 2", "seconds"}},
		{"timestamp seconds -2^63", func(b *orc.Batch) {
			b.Cols[8].(*orc.TimestampVector).Seconds[0] = math.MinInt64
		}, []string{"column ts", "row 0", "seconds"}},
		{"timestamp seconds one past the bound", func(b *orc.Batch) {
			b.Cols[8].(*orc.TimestampVector).Seconds[2] = writer.MaxTimestampSeconds + 1
		}, []string{"column ts", "row 2"}},
		{"timestamp seconds one below the bound", func(b *orc.Batch) {
			b.Cols[8].(*orc.TimestampVector).Seconds[0] = writer.MinTimestampSeconds - 1
		}, []string{"column ts", "row 0"}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			bad := goodBatch()
			c.break_(bad)
			refused(t, s, goodBatch, bad, opts, c.want...)
		})
	}
}

// TestTimestampBounds writes the extreme seconds the writer accepts and
// reads them back.
func TestTimestampBounds(t *testing.T) {
	s := orc.MustParseSchema("struct<ts:timestamp>")
	b := orc.NewBatch(s, 2)
	tv := b.Cols[0].(*orc.TimestampVector)
	tv.Seconds = []int64{writer.MinTimestampSeconds, writer.MaxTimestampSeconds}
	tv.Nanos = []int32{0, 999_999_999}
	b.NumRows = 2
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithBloomFilterColumns("ts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatalf("extreme timestamps refused: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	got := br.NewBatch()
	if err := br.Next(got); err != nil {
		t.Fatal(err)
	}
	gv := got.Cols[0].(*orc.TimestampVector)
	if got.NumRows != 2 || gv.Seconds[0] != tv.Seconds[0] || gv.Seconds[1] != tv.Seconds[1] || gv.Nanos[1] != 999_999_999 {
		t.Errorf("read back %d rows %v %v", got.NumRows, gv.Seconds, gv.Nanos)
	}
	// Java reads the value as milliseconds in an int64: both ends fit.
	for i, sec := range tv.Seconds {
		ms := sec*1000 + int64(tv.Nanos[i])/1_000_000
		if (ms-int64(tv.Nanos[i])/1_000_000)/1000 != sec {
			t.Errorf("row %d: %d s overflows as milliseconds", i, sec)
		}
	}
}

// readStrings writes b with opts and returns column col's values.
func readStrings(t *testing.T, b *orc.Batch, col int, opts ...writer.Option) []string {
	t.Helper()
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, b.Schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	got := br.NewBatch()
	if err := br.Next(got); err != nil {
		t.Fatal(err)
	}
	v := got.Cols[col].(*orc.BytesVector)
	var out []string
	for i := 0; i < got.NumRows; i++ {
		out = append(out, string(v.Get(i)))
	}
	return out
}

// TestVarcharCharCountCharacters checks that varchar(n) truncation and
// char(n) padding count characters, not bytes.
func TestVarcharCharCountCharacters(t *testing.T) {
	s := orc.MustParseSchema("struct<v:varchar(3),c:char(3)>")
	b := orc.NewBatch(s, 3)
	b.NumRows = 3
	for _, v := range []string{"ééé€x", "é", "😀a"} {
		b.Cols[0].(*orc.BytesVector).AppendString(v)
		b.Cols[1].(*orc.BytesVector).AppendString(v)
	}
	if got, want := readStrings(t, b, 0), []string{"ééé", "é", "😀a"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("varchar(3): %q, want %q", got, want)
	}
	if got, want := readStrings(t, b, 1), []string{"ééé", "é  ", "😀a "}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("char(3): %q, want %q", got, want)
	}
}
