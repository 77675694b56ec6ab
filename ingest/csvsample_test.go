package ingest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// csvRecords returns the records encoding/csv reads from buf with the
// options of inference, up to its first error.
func csvRecords(buf []byte, comma rune) [][]string {
	cr := csv.NewReader(bytes.NewReader(buf))
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	var out [][]string
	for {
		rec, err := cr.Read()
		if err != nil {
			return out
		}
		out = append(out, rec)
	}
}

// sampleRecords returns the records splitSample gives.
func sampleRecords(buf []byte, comma rune, maxField int) [][]string {
	var out [][]string
	splitSample(buf, comma, maxField, func(f []string) bool {
		out = append(out, slices.Clone(f))
		return true
	})
	return out
}

// splitSample reads the records encoding/csv reads, up to the same first
// error, on random inputs made of delimiters, quotes, newlines, carriage
// returns and text; a field longer than maxField is longField.
func TestSplitSampleAgreesWithCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	parts := []string{"a", "bc", " ", ",", ";", "\t", "é", `"`, `""`, "\n", "\r\n", "\r", "12", "1.5"}
	for _, comma := range []rune{',', ';', '\t', 'é'} {
		for i := range 20000 {
			var sb strings.Builder
			for range rng.IntN(24) {
				sb.WriteString(parts[rng.IntN(len(parts))])
			}
			in := []byte(sb.String())
			want := csvRecords(in, comma)
			if got := sampleRecords(in, comma, 1<<30); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("comma %q, case %d, input %q:\nsplitSample %q\nencoding/csv %q", comma, i, in, got, want)
			}
			for _, rec := range want {
				for j, f := range rec {
					if len(f) > 3 {
						rec[j] = longField
					}
				}
			}
			if got := sampleRecords(in, comma, 3); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("comma %q, case %d, input %q, fields over 3 bytes long:\nsplitSample %q\nwant %q", comma, i, in, got, want)
			}
		}
	}
}

// Inferring the schema of a sample holding one 8 MiB field allocates
// almost nothing beyond the sample: the field is never copied. With
// encoding/csv the line, the unquoted fields and the record were each
// gathered (92 MB allocated here, and a 50 MB field took inference to 230
// MiB of live heap). A field over 4 KiB reads as text, even one of digits
// (which read as a number before), and a first line holding one is no
// header; nor is a line above one.
func TestInferLongFieldNotCopied(t *testing.T) {
	long := strings.Repeat("x", 8<<20)
	for _, quote := range []string{"", `"`} {
		buf := []byte("1," + quote + long + quote + ",2.5\n7,short,3\n")
		o := Options{}
		opt := o.config()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := inferCSV(buf, opt)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := s.String(), "struct<_col0:bigint,_col1:string,_col2:decimal(2,1)>"; got != want {
			t.Errorf("quote %q: inferred %s, want %s", quote, got, want)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
			t.Errorf("quote %q: inferring from a sample with an 8 MiB field allocated %d bytes, want at most 64 KiB", quote, n)
		}
	}
	digits := strings.Repeat("0", 5000) + "1"
	for _, tc := range []struct{ in, want string }{
		{"a\n" + digits + "\n", "struct<_col0:string>"},
		{digits + "\n1\n", "struct<_col0:string>"},
		{"x" + long[:5000] + "\n1\n", "struct<_col0:string>"},
	} {
		o := Options{}
		s, err := inferCSV([]byte(tc.in), o.config())
		if err != nil || s.String() != tc.want {
			t.Errorf("inferring %.20q...: %v, %v; want %s", tc.in, s, err, tc.want)
		}
	}
	o := Options{Header: true, HeaderSet: true}
	if _, err := inferCSV([]byte("x"+long[:5000]+"\n1\n"), o.config()); err == nil || !strings.Contains(err.Error(), "header's field 1 is longer than") {
		t.Errorf("a header field of 5,001 bytes: %v", err)
	}
}

// The reader of the sample and the rest lets go of the sample once read.
func TestReplayReaderDropsSample(t *testing.T) {
	rr := &replayReader{buf: []byte("abcdef"), r: strings.NewReader("gh")}
	got, err := io.ReadAll(io.LimitReader(rr, 6))
	if err != nil || string(got) != "abcdef" || rr.buf != nil {
		t.Fatalf("read %q, %v; sample kept: %v", got, err, rr.buf != nil)
	}
	if rest, _ := io.ReadAll(rr); string(rest) != "gh" {
		t.Fatalf("then %q", rest)
	}
}

// Once a CSV record over 1 MiB is read into the batch, the reader lets go
// of encoding/csv's copies of it (its line, fields and string, which the
// csv.Reader kept for the next record): the heap then holds the batch's
// copy and little more. It held about four copies: a CSV row with a 50 MB
// field reached 230 MiB of live heap while the batch was written.
func TestLongCSVRecordLetGo(t *testing.T) {
	const n = 16 << 20
	for _, quote := range []string{"", `"`} {
		in := "1," + quote + strings.Repeat("y", n) + quote + "\n2,z\n"
		s := orc.MustParseSchema("struct<id:int,s:string>")
		b := orc.NewBatch(s, 2)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := NewReader(strings.NewReader(in), CSV, b, Options{})
		if ok, err := r.Next(); !ok || err != nil {
			t.Fatalf("Next: %v, %v", ok, err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("quote %q: %.1f MiB held after a row with a %d MiB field", quote, float64(held)/(1<<20), n>>20)
		if held > n+n/2 {
			t.Errorf("quote %q: %d bytes held after reading a %d-byte field, want at most 1.5x", quote, held, n)
		}
		if ok, err := r.Next(); !ok || err != nil || r.Rows() != 2 {
			t.Fatalf("second Next: %v, %v, %d rows", ok, err, r.Rows())
		}
		if v := b.Cols[1].(*orc.BytesVector); len(v.Get(0)) != n || v.String(1) != "z" {
			t.Fatalf("read %d and %q", len(v.Get(0)), v.String(1))
		}
		runtime.KeepAlive(in)
	}
}

// Errors after a long record name the lines of the input, not of the
// csv.Reader that took over after it.
func TestLinesAfterLongRecord(t *testing.T) {
	long := strings.Repeat("y", 2<<20)
	s := orc.MustParseSchema("struct<id:int,s:string>")
	for _, tc := range []struct{ in, want string }{
		{"1,\"" + long + "\n" + long + "\"\n\n2,z\nx,w\n", "line 5, column 1"},
		{"1,\"" + long + "\n" + long + "\"\n2,z\n3,a\"b\n", "line 4, column 4"},
		// A long record on one line: its fields' line is kept once.
		{"1,z\n\nx," + long + "\n", "line 3, column 1"},
		{"1," + long + "\n\n2,z\nx,w\n", "line 4, column 1"},
	} {
		b := orc.NewBatch(s, 4)
		r := NewReader(strings.NewReader(tc.in), CSV, b, Options{})
		var err error
		for ok := true; ok && err == nil; ok, err = r.Next() {
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.30q...: error %v, want one at %s", tc.in, err, tc.want)
		}
	}
}

// A CSV record of many short fields, over 64 KiB but well under 1 MiB (a
// line of a wide table), is let go of too once read: encoding/csv kept
// some 60 bytes a field of it (the line twice, each field's string, index
// and position) while the batch was written: 146 bytes a field were held
// after the row here, then 89 with the record let go of, 64 now with
// builders of 64 bytes rather than 80 (the field's builder, a pointer to
// it and its value).
func TestWideCSVRecordLetGo(t *testing.T) {
	const cols = 30000
	parts := make([]string, cols)
	vals := make([]string, cols)
	for i := range parts {
		parts[i] = fmt.Sprintf("c%d:bigint", i)
		vals[i] = strconv.Itoa(100000 + i)
	}
	in := strings.Join(vals, ",") + "\n" + strings.Join(vals, ",") + "\n"
	s := orc.MustParseSchema("struct<" + strings.Join(parts, ",") + ">")
	b := orc.NewBatch(s, 0)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := NewReader(strings.NewReader(in), CSV, b, Options{})
	if ok, err := r.Next(); !ok || err != nil {
		t.Fatalf("Next: %v, %v", ok, err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / cols
	t.Logf("%d bytes held a field after a row of %d fields (%d KB)", per, cols, len(in)/2000)
	if per > 80 {
		t.Errorf("%d bytes held a field after a row of %d fields, want at most 80", per, cols)
	}
	if ok, err := r.Next(); !ok || err != nil || r.Rows() != 2 {
		t.Fatalf("second Next: %v, %v, %d rows", ok, err, r.Rows())
	}
	runtime.KeepAlive(r)
	runtime.KeepAlive(in)
}
