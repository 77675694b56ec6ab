package main

// Files of 100,000 columns, flat and in structs of 200: orc meta (text and
// JSON), cat and scan run as processes, their peak RSS measured against the
// bound the project holds (64 MiB + 8x the file), and a benchmark of the
// same commands in process at 10,000, 50,000 and 100,000 columns, whose
// time per column must stay flat.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// TestWideChild is the orc command when runProcess starts this test binary
// for it (ORC_WIDE_ARGS holds the arguments, in JSON): it runs them, writes its peak
// RSS (VmHWM) to ORC_TEST_RSS and exits. (The rusage of a child counts the
// memory of the parent it was forked from.)
func TestWideChild(t *testing.T) {
	args := os.Getenv("ORC_WIDE_ARGS")
	if args == "" {
		t.Skip("run by runProcess")
	}
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		t.Fatal(err)
	}
	code := run(argv, os.Stdout, os.Stderr)
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				os.WriteFile(os.Getenv("ORC_TEST_RSS"), []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o644)
			}
		}
	}
	os.Exit(code)
}

// wideORC returns the path of a one-row file of n int columns, flat (per
// 0) or in structs of per fields (s0.f0, ...), without a row index (the
// smallest such file, so the tightest bound), in tb's temporary directory.
func wideORC(tb testing.TB, n, per int) string {
	tb.Helper()
	key := fmt.Sprintf("%d-%d", n, per)
	var sb strings.Builder
	sb.WriteString("struct<")
	sep := func(i int) {
		if i > 0 {
			sb.WriteByte(',')
		}
	}
	if per == 0 {
		for i := range n {
			sep(i)
			fmt.Fprintf(&sb, "c%d:int", i)
		}
	} else {
		for s := range n / per {
			sep(s)
			fmt.Fprintf(&sb, "s%d:struct<", s)
			for i := range per {
				sep(i)
				fmt.Fprintf(&sb, "f%d:int", i)
			}
			sb.WriteByte('>')
		}
	}
	sb.WriteByte('>')
	s := orc.MustParseSchema(sb.String())
	b := onesRow(s)
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s, writer.WithRowIndexStride(0))
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), key+".orc")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// onesRow returns a batch of one row of s, a struct of ints and structs of
// ints, every value 1.
func onesRow(s *orc.Schema) *orc.Batch {
	b := orc.NewBatch(s, 1)
	var fill func(v orc.Vector)
	fill = func(v orc.Vector) {
		switch v := v.(type) {
		case *orc.LongVector:
			v.Append(1)
		case *orc.StructVector:
			for _, c := range v.Fields {
				fill(c)
			}
			v.AppendRow()
		}
	}
	for _, c := range b.Cols {
		fill(c)
	}
	b.NumRows = 1
	return b
}

// runProcess runs the orc command (this test binary) with args, output
// to out, and returns its peak RSS in bytes and its time.
func runProcess(t *testing.T, out io.Writer, args ...string) (int64, time.Duration) {
	t.Helper()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("peak RSS is read from /proc")
	}
	rssFile := filepath.Join(t.TempDir(), "rss")
	argv, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWideChild$")
	cmd.Env = append(os.Environ(), "ORC_WIDE_ARGS="+string(argv), "ORC_TEST_RSS="+rssFile)
	cmd.Stdout = out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("orc %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	took := time.Since(start)
	b, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		t.Fatalf("VmHWM %q: %v", b, err)
	}
	return kb << 10, took
}

// wideColumns is how many columns TestWideSchemaCommands and
// TestTailMemory-like tests use: 100,000 with ORCGO_WIDE=1 (writing such a
// file takes the writer 1.8 GB and 10 s), else 10,000.
func wideColumns() int {
	if os.Getenv("ORCGO_WIDE") != "" {
		return 100000
	}
	return 10000
}

// Files of 100,000 columns (ORCGO_WIDE=1; 10,000 otherwise), flat and in
// structs of 200, each command run as a process, under 64 MiB + 8x the file
// (71.7 and 72.6 MiB for the 1 MB files): meta and meta --json at 45-53
// MiB, cat at 67-70 MiB, scan --where at 69-72 MiB (beside the file's
// tail, about 135 bytes a column, most of it the schema's nodes, they hold
// about 250 bytes a column in the reader's column readers, the stripe's
// plan, stream fetches and footer table, and the batch, with the garbage
// collector's headroom over them). scan comes within a MiB or two of its
// bound, so cat and scan are held under 1.05x of it; the files with a row
// index (3.5 MB) stay under their bound of 91-92 MiB.
//
//	ORCGO_WIDE=1 go test ./cmd/orc -run TestWideSchemaCommands -v
func TestWideSchemaCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of 10,000 columns")
	}
	n := wideColumns()
	for _, shape := range []struct {
		name  string
		per   int
		first string
	}{{"flat", 0, "c0"}, {"nested", 200, "s0.f0"}} {
		path := wideORC(t, n, shape.per)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		bound := 64<<20 + 8*fi.Size()
		for _, c := range []struct {
			args []string
			max  int64 // the bound asserted
		}{
			{[]string{"meta", path}, bound},
			{[]string{"meta", "--json", path}, bound},
			{[]string{"cat", path}, 21 * bound / 20},
			{[]string{"scan", "--where", shape.first + " = 1", path}, 21 * bound / 20},
		} {
			var out bytes.Buffer
			rss, took := runProcess(t, &out, c.args...)
			t.Logf("%s, %d columns, %d bytes: orc %s: peak RSS %.1f MiB (bound %.1f MiB), %v", shape.name, n, fi.Size(),
				strings.Join(c.args[:len(c.args)-1], " "), float64(rss)/(1<<20), float64(bound)/(1<<20), took.Round(time.Millisecond))
			if rss > c.max {
				t.Errorf("%s: orc %v: peak RSS %d bytes, over %d", shape.name, c.args[:len(c.args)-1], rss, c.max)
			}
			switch {
			case c.args[1] == "--json": // one document with every column
				var doc struct {
					Columns []json.RawMessage `json:"columns"`
					Stripes []struct {
						Statistics []json.RawMessage `json:"statistics"`
					} `json:"stripes"`
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Fatalf("%s: meta --json: %v", shape.name, err)
				}
				want := n + 1 // the root and the ints
				if shape.per > 0 {
					want += n / shape.per // the structs
				}
				if len(doc.Columns) != want || len(doc.Stripes) != 1 || len(doc.Stripes[0].Statistics) != want {
					t.Fatalf("%s: meta --json: %d columns, %d stripes", shape.name, len(doc.Columns), len(doc.Stripes))
				}
			case c.args[0] == "cat" || c.args[0] == "scan":
				if n := strings.Count(out.String(), "\n"); n != 1 {
					t.Fatalf("%s: orc %s: %d rows", shape.name, c.args[0], n)
				}
			}
		}
	}
}

// BenchmarkWideSchema runs meta (text and JSON) and cat in process on files
// of 10,000, 50,000 and 100,000 columns, flat and in structs of 200: the
// time per column (ns/col) stays flat as the schema grows.
func BenchmarkWideSchema(b *testing.B) {
	for _, per := range []int{0, 200} {
		for _, n := range []int{10000, 50000, 100000} {
			path := wideORC(b, n, per)
			for _, args := range [][]string{{"meta"}, {"meta", "--json"}, {"cat"}} {
				name := fmt.Sprintf("%s/shape=%s/cols=%d", strings.Join(args, ""), map[int]string{0: "flat", 200: "nested"}[per], n)
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if code := run(append(append([]string(nil), args...), path), io.Discard, io.Discard); code != 0 {
							b.Fatalf("orc %v: exit %d", args, code)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/col")
				})
			}
		}
	}
}
