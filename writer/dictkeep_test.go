package writer_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// TestDictionaryKeptAcrossStripes alternates a text column between stripes
// of distinct values (direct, with the emptied dictionary kept for the next
// stripe) and stripes of a few values (a dictionary built in the kept
// arrays), with keys longer than before in a later direct stripe, and
// checks each stripe's encoding, the values read back, and that two
// goroutines write the same bytes.
func TestDictionaryKeptAcrossStripes(t *testing.T) {
	const stripeRows = 6000
	s := orc.MustParseSchema("struct<s:string,n:bigint>")
	kinds := []string{"DIRECT_V2", "DICTIONARY_V2", "DIRECT_V2", "DICTIONARY_V2", "DIRECT_V2", "DICTIONARY_V2"}
	value := func(stripe, i int) string {
		switch {
		case stripe%2 == 1:
			return fmt.Sprintf("key-%d", i%(2+stripe))
		case stripe == 4: // longer keys than the kept arrays were grown for
			return fmt.Sprintf("%040d-%d", i, stripe)
		}
		return fmt.Sprintf("v%d-%d", stripe, i)
	}
	var want []string
	write := func(par int) []byte {
		var buf bytes.Buffer
		w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(1000), writer.WithStripeRowLimit(stripeRows), writer.WithParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		want = want[:0]
		b := orc.NewBatch(s, 1000)
		for stripe := range kinds {
			for start := 0; start < stripeRows; start += 1000 {
				b.Reset()
				sv, nv := b.Cols[0].(*orc.BytesVector), b.Cols[1].(*orc.LongVector)
				for i := start; i < start+1000; i++ {
					v := value(stripe, i)
					sv.AppendString(v)
					nv.Values = append(nv.Values, int64(i))
					want = append(want, v)
				}
				b.NumRows = 1000
				if err := w.Write(b); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	data := write(1)
	if par := write(2); !bytes.Equal(par, data) {
		t.Fatalf("two goroutines wrote %d bytes that differ from the serial %d", len(par), len(data))
	}
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Stripes()) != len(kinds) {
		t.Fatalf("%d stripes, want %d", len(r.Stripes()), len(kinds))
	}
	for i, k := range kinds {
		d, err := r.StripeDetail(i)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Encodings[1].Kind; got != k {
			t.Errorf("stripe %d: column s is %s, want %s", i, got, k)
		}
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	got := br.NewBatch()
	row := 0
	for {
		err := br.Next(got)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sv := got.Cols[0].(*orc.BytesVector)
		for i := range got.NumRows {
			if v := string(sv.Data[sv.Offsets[i]:sv.Offsets[i+1]]); v != want[row] {
				t.Fatalf("row %d: %q, want %q", row, v, want[row])
			}
			row++
		}
	}
	if row != len(want) {
		t.Fatalf("read %d rows, want %d", row, len(want))
	}
}
