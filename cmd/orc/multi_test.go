package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// writeORC writes rows of struct<id:bigint,v:string> with ids from first.
func writeORC(t *testing.T, path string, first, rows int) []byte {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,v:string>")
	b := orc.NewBatch(s, rows)
	for i := range rows {
		b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(first+i))
		b.Cols[1].(*orc.BytesVector).AppendString(fmt.Sprint("v", first+i))
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if path != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	var err error
	for _, c := range commands {
		if c.name == args[0] {
			err = c.run(args[1:], &out, &errOut)
		}
	}
	return out.String(), errOut.String(), err
}

func TestDirectoryCommands(t *testing.T) {
	dir := t.TempDir()
	for m := 1; m <= 4; m++ {
		writeORC(t, filepath.Join(dir, fmt.Sprintf("dt=2024-%02d-01", m), "part-0.orc"), m*1000, 100*m)
	}
	os.WriteFile(filepath.Join(dir, "_SUCCESS"), nil, 0o644)
	out, _, err := runCmd(t, "count", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "300\t"+filepath.Join(dir, "dt=2024-03-01", "part-0.orc")) || !strings.HasSuffix(out, "1000\ttotal (4 files)\n") {
		t.Fatalf("count:\n%s", out)
	}
	out, _, err = runCmd(t, "cat", dir, "--partitions", "struct<dt:date>", "--limit", "150")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 150 || lines[0] != `{"id": 1000, "v": "v1000", "dt": "2024-01-01"}` || !strings.Contains(lines[149], `"dt": "2024-02-01"`) {
		t.Fatalf("cat of a directory: %d lines, first %s, last %s", len(lines), lines[0], lines[len(lines)-1])
	}
	out, errOut, err := runCmd(t, "scan", dir, "--partitions", "struct<dt:date>", "--where", "dt >= DATE '2024-03-01' AND id < 3005", "--stats", "--parallel", "2")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\n"); n != 5 || !strings.Contains(errOut, "files: 4 considered, 3 skipped") || !strings.Contains(errOut, "2 pruned by partition values") {
		t.Fatalf("scan of a directory: %d rows\n%s", n, errOut)
	}
	// Several files, with a read schema adding a column.
	a, b := filepath.Join(dir, "dt=2024-01-01", "part-0.orc"), filepath.Join(dir, "dt=2024-04-01", "part-0.orc")
	out, _, err = runCmd(t, "cat", a, b, "--schema", "struct<id:bigint,extra:int>", "--limit", "1")
	if err != nil || out != "{\"id\": 1000, \"extra\": null}\n" {
		t.Fatalf("cat of two files with --schema: %q, %v", out, err)
	}
	if _, _, err := runCmd(t, "cat", a, "--schema", "struct<id:bigint>"); err == nil {
		t.Fatal("--schema on one file was accepted")
	}
}

func TestURLCommands(t *testing.T) {
	data := writeORC(t, "", 0, 5000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "x.orc", time.Unix(0, 0), bytes.NewReader(data))
	}))
	defer srv.Close()
	url := srv.URL + "/x.orc"
	out, _, err := runCmd(t, "count", url)
	if err != nil || out != "5000\t"+url+"\n" {
		t.Fatalf("count URL: %q, %v", out, err)
	}
	out, _, err = runCmd(t, "scan", url, "--where", "id = 4321")
	if err != nil || out != "{\"id\": 4321, \"v\": \"v4321\"}\n" {
		t.Fatalf("scan URL: %q, %v", out, err)
	}
	if err := runMeta([]string{url}, io.Discard, io.Discard); err != nil {
		t.Fatalf("meta URL: %v", err)
	}
}

func TestSizes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.orc")
	data := writeORC(t, path, 0, 20000)
	out, _, err := runCmd(t, "sizes", path)
	if err != nil {
		t.Fatal(err)
	}
	var streams, footers, tail int64
	i := strings.Index(out, "\nstreams ")
	if i < 0 {
		t.Fatalf("no totals line:\n%s", out)
	}
	var a, b, c string
	if _, err := fmt.Sscanf(out[i+1:], "streams %d (%s stripe footers %d (%s header and file tail %d (%s", &streams, &a, &footers, &b, &tail, &c); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if streams+footers+tail+3 != int64(len(data)) || streams == 0 || footers == 0 {
		t.Fatalf("sizes do not add up to the file's %d bytes:\n%s", len(data), out)
	}
	for _, want := range []string{"1 id", "2 v", "DATA", "LENGTH", "ROW_INDEX"} {
		if !strings.Contains(out, want) {
			t.Fatalf("sizes lacks %q:\n%s", want, out)
		}
	}
}
