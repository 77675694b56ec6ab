package reader_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

func TestOpenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.orc")
	s := orc.MustParseSchema("struct<id:bigint>")
	b := orc.NewBatch(s, 3)
	for i := range 3 {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
	}
	b.NumRows = 3
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.NewWriter(f, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	r, err := reader.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.NumRows() != 3 {
		t.Fatalf("%d rows", r.NumRows())
	}
	if got := r.Writer().String(); got != "orcgo" {
		t.Errorf("Writer() = %q", got)
	}
	if got := r.Calendar(); got != reader.CalendarProlepticGregorian || got.String() != "proleptic-gregorian" {
		t.Errorf("Calendar() = %d %q", got, got)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	// The file is closed: a scan fails instead of reading.
	br, err := r.NewBatchReader()
	if err == nil {
		if err = br.Next(br.NewBatch()); err == nil {
			t.Fatal("a scan of a closed reader read rows")
		}
	}

	bad := filepath.Join(dir, "not.orc")
	os.WriteFile(bad, []byte("this is not an ORC file at all"), 0o644)
	if _, err := reader.OpenFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("OpenFile of a text file: %v", err)
	}
	if _, err := reader.OpenFile(filepath.Join(dir, "absent.orc")); err == nil || !strings.Contains(err.Error(), "absent.orc") {
		t.Fatalf("OpenFile of a missing file: %v", err)
	}
	if got := reader.WriterID(99).String(); got != "writer 99" {
		t.Errorf("WriterID(99) = %q", got)
	}
	if got := reader.Calendar(7).String(); got != "calendar 7" {
		t.Errorf("Calendar(7) = %q", got)
	}
}

func TestScanStatsStringCounts(t *testing.T) {
	s := reader.ScanStats{ReadCalls: 1, TailReads: 1}.String()
	if !strings.Contains(s, "reads: 1 call,") || !strings.Contains(s, "tail: 1 call,") {
		t.Fatalf("one call: %s", s)
	}
	s = reader.ScanStats{ReadCalls: 2}.String()
	if !strings.Contains(s, "reads: 2 calls,") || !strings.Contains(s, "tail: 0 calls,") {
		t.Fatalf("several calls: %s", s)
	}
}

func TestJSONInstantZone(t *testing.T) {
	s := orc.MustParseSchema("struct<at:timestamp with local time zone,wall:timestamp>")
	b := orc.NewBatch(s, 1)
	// 2024-03-10 06:30:00.5 UTC, 01:30:00.5 in New York (EST, before the change that day).
	b.Cols[0].(*orc.TimestampVector).Append(1710052200, 500_000_000)
	b.Cols[1].(*orc.TimestampVector).Append(1710052200, 500_000_000)
	b.NumRows = 1
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	got := string(reader.AppendJSONRowWith(nil, b, 0, reader.JSONOptions{Zone: ny}))
	want := `{"at": "2024-03-10 01:30:00.5-05:00", "wall": "2024-03-10 06:30:00.5"}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := string(reader.AppendJSONRow(nil, b, 0)); got != `{"at": "2024-03-10 06:30:00.5", "wall": "2024-03-10 06:30:00.5"}` {
		t.Fatalf("no zone: %s", got)
	}
}
