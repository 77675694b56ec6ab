package orccloud_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	orccloud "github.com/orcgo/orc/cloud"
)

// The orc command reads and writes stores through orc-cloud, which it
// starts: these tests build both (orc from the core module, orc-cloud from
// this one), put orc-cloud beside orc, and run commands on the stores.

var bins struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// buildCLI builds orc and orc-cloud into one directory and returns it.
func buildCLI(t *testing.T) string {
	t.Helper()
	bins.once.Do(func() {
		bins.dir, bins.err = os.MkdirTemp("", "orcgo-cli-")
		if bins.err != nil {
			return
		}
		for _, pkg := range []string{"github.com/orcgo/orc/cmd/orc", "./cmd/orc-cloud"} {
			cmd := exec.Command("go", "build", "-o", bins.dir, pkg)
			if bins.out, bins.err = cmd.CombinedOutput(); bins.err != nil {
				return
			}
		}
	})
	if bins.err != nil {
		t.Fatalf("building orc and orc-cloud: %v\n%s", bins.err, bins.out)
	}
	return bins.dir
}

// exits are what TestMain runs after the tests: servers shared by them.
var exits []func()

func atExit(f func()) { exits = append(exits, f) }

func TestMain(m *testing.M) {
	if url := os.Getenv("ORCGO_CLOUD_WRITE_CHILD"); url != "" {
		// The writing process of TestUploadMemory.
		if err := writeChild(url); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	for _, f := range exits {
		f()
	}
	if bins.dir != "" {
		os.RemoveAll(bins.dir)
	}
	os.Exit(code)
}

// orcRun runs the orc command and returns its stdout, stderr and exit code.
func orcRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(buildCLI(t), "orc"), args...)
	cmd.Env = append(os.Environ(), "ORC_CLOUD=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// orcOK runs orc and fails the test unless it exits 0.
func orcOK(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := orcRun(t, args...)
	if code != 0 {
		t.Fatalf("orc %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// TestCLI runs the commands that read and write ORC on each store: a
// partitioned table listed from its prefix, pruned by partition and by
// its index, single objects, convert and merge writing to the store.
func TestCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the orc and orc-cloud commands")
	}
	allStores(t, func(t *testing.T, s store) {
		table := s.base + "table/"
		upload(t, s.url("table/dt=2024-01-01/part-0.orc"), 0, 100000)
		upload(t, s.url("table/dt=2024-01-02/part-0.orc"), 100000, 100000)
		tq := table + s.query

		if out := orcOK(t, "count", tq); !strings.Contains(out, "200000") && !strings.Contains(out, "200,000") {
			t.Errorf("count: %s", out)
		}
		before := s.proxy.count()
		out, errs, code := orcRun(t, "scan", tq, "--where", "dt = DATE '2024-01-02' AND id BETWEEN 150000 AND 150009", "--stats")
		if code != 0 || strings.Count(out, "\n") != 10 || !strings.Contains(errs, "1 pruned by partition values") {
			t.Fatalf("scan: exit %d\n%s%s", code, out, errs)
		}
		t.Logf("%s: scan of a partition, 10 rows: %d requests to the store", s.name, s.proxy.count()-before)

		one := s.url("table/dt=2024-01-01/part-0.orc")
		if out := orcOK(t, "cat", one, "--limit", "2", "--columns", "id"); out != "{\"id\": 0}\n{\"id\": 1}\n" {
			t.Errorf("cat: %q", out)
		}
		if out := orcOK(t, "schema", one); !strings.Contains(out, "struct<id:bigint,name:string,v:double>") {
			t.Errorf("schema: %s", out)
		}
		orcOK(t, "meta", one)
		orcOK(t, "sizes", one)
		orcOK(t, "check", one)

		// convert and merge write to the store; an existing OUT needs --overwrite.
		local := filepath.Join(t.TempDir(), "in.orc")
		if err := os.WriteFile(local, writeBytes(t, 0, 5000), 0o644); err != nil {
			t.Fatal(err)
		}
		conv := s.url("out/converted.orc")
		orcOK(t, "convert", local, conv)
		if _, errs, code := orcRun(t, "convert", local, conv); code != 2 || !strings.Contains(errs, "exists") {
			t.Errorf("convert over an existing OUT: exit %d %s", code, errs)
		}
		// A convert that fails (a bad row) aborts its upload: no object.
		bad := filepath.Join(t.TempDir(), "bad.csv")
		if err := os.WriteFile(bad, []byte("id,name\n1,a\nx,b\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		failed := s.url("out/failed.orc")
		if _, errs, code := orcRun(t, "convert", "--schema", "struct<id:bigint,name:string>", "--header", bad, failed); code != 1 {
			t.Errorf("convert of a bad row: exit %d %s", code, errs)
		}
		if _, err := orccloud.Open(ctxT(t), failed); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("after a failed convert: %v, want no object", err)
		}
		merged := s.url("out/merged.orc")
		orcOK(t, "merge", conv, conv, merged)
		if out := orcOK(t, "count", merged); !regexp.MustCompile(`10,?000`).MatchString(out) {
			t.Errorf("count of the merged file: %s", out)
		}

		// The index: built on the store, then used by scans; shown,
		// checked, and updated after a file is added.
		orcOK(t, "index", "build", tq)
		if out := orcOK(t, "index", "show", tq); !strings.Contains(out, "files: 2") || !strings.Contains(out, "partitions: struct<dt:date>") {
			t.Errorf("index show: %s", out)
		}
		if out := orcOK(t, "index", "check", tq); !strings.Contains(out, "current (2 files)") {
			t.Errorf("index check: %s", out)
		}
		upload(t, s.url("table/dt=2024-01-03/part-0.orc"), 200000, 1000)
		if _, errs, code := orcRun(t, "index", "check", tq); code != 1 || !strings.Contains(errs, "index update") {
			t.Errorf("index check of a stale index: exit %d %s", code, errs)
		}
		if out := orcOK(t, "index", "update", tq); !strings.Contains(out, "3 files (1 footers read)") {
			t.Errorf("index update: %s", out)
		}
		before = s.proxy.count()
		out, errs, code = orcRun(t, "scan", tq, "--where", "id = 42", "--stats")
		if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(errs, "by the index") {
			t.Fatalf("scan through the index: exit %d\n%s%s", code, out, errs)
		}
		t.Logf("%s: point query through the index: %d requests to the store (listing, pointer, index, one file)", s.name, s.proxy.count()-before)
	})
}

// writeBytes returns n rows of ORC from first.
func writeBytes(t *testing.T, first, n int64) []byte {
	var b bytes.Buffer
	writeRows(t, &b, first, n)
	return b.Bytes()
}

// TestCLIErrors: store URLs without the helper, and a missing object.
func TestCLIErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the orc and orc-cloud commands")
	}
	dir := buildCLI(t)
	alone := filepath.Join(t.TempDir(), "orc")
	data, err := os.ReadFile(filepath.Join(dir, "orc"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(alone, "cat", "s3://bucket/key.orc")
	cmd.Env = append(os.Environ(), "ORC_CLOUD=", "PATH=/nonexistent")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "go install github.com/orcgo/orc/cloud/cmd/orc-cloud@latest") {
		t.Errorf("without the helper: %s", out)
	}
	s := startS3(t, "orcgo-test")
	_, errs, code := orcRun(t, "cat", s.url("missing.orc"))
	if code != 1 || !strings.Contains(errs, s.base+"missing.orc") || !strings.Contains(errs, "no such object") {
		t.Errorf("a missing object: exit %d %s", code, errs)
	}
	_, errs, code = orcRun(t, "cat", "s3://Bad_Bucket/x.orc")
	if code != 1 || !strings.Contains(errs, "malformed bucket") {
		t.Errorf("a malformed bucket: exit %d %s", code, errs)
	}
}

// TestCLITimeout: with --timeout, a store that stops answering ends the
// command with an error naming the URL soon after the timeout, whether it
// stalls the open, the reads after it or a table's listing; the helper's
// request to the store ends too (the proxy sees its client go away).
func TestCLITimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the orc and orc-cloud commands")
	}
	buildCLI(t)
	s := startS3(t, "orcgo-test")
	url, table := s.url("t.orc"), s.base+"tab/"+s.query
	upload(t, url, 0, 100000)
	upload(t, s.url("tab/part-0.orc"), 0, 1000)
	var stalled, ended atomic.Int64
	stall := func(match func(r *http.Request) bool) {
		f := func(w http.ResponseWriter, r *http.Request) bool {
			if !match(r) {
				return false
			}
			stalled.Add(1)
			<-r.Context().Done()
			ended.Add(1)
			return true
		}
		s.proxy.fail.Store(&f)
	}
	defer s.proxy.fail.Store(nil)
	all := func(*http.Request) bool { return true }
	// reads after the open: ranged GETs other than the tail's suffix range
	reads := func(r *http.Request) bool {
		rng := r.Header.Get("Range")
		return r.Method == http.MethodGet && rng != "" && !strings.HasPrefix(rng, "bytes=-")
	}
	for _, c := range []struct {
		name  string
		match func(*http.Request) bool
		args  []string
		says  string
	}{
		{"open", all, []string{"count", "--timeout", "2s", url}, "opening " + s.base + "t.orc"},
		{"read", reads, []string{"cat", "--timeout", "2", url}, s.base + "t.orc"},
		{"list", all, []string{"count", "--timeout", "1.5s", table}, "listing " + s.base + "tab/"},
	} {
		stall(c.match)
		before := stalled.Load()
		start := time.Now()
		out, errs, code := orcRun(t, c.args...)
		took := time.Since(start)
		s.proxy.fail.Store(nil)
		if stalled.Load() == before {
			t.Errorf("%s: no request was stalled (exit %d: %s)", c.name, code, errs)
			continue
		}
		if code != 1 || !strings.Contains(errs, c.says) || !strings.Contains(errs, "did not answer within") {
			t.Errorf("%s: exit %d, %q; want an error naming %q and the timeout (out: %.200s)", c.name, code, errs, c.says, out)
		}
		d, _ := time.ParseDuration(strings.TrimSuffix(c.args[2], "s") + "s")
		if took < d || took > d+5*time.Second {
			t.Errorf("%s: the command ended after %v with --timeout %s", c.name, took, c.args[2])
		}
		t.Logf("%s: %v: %s", c.name, took.Round(10*time.Millisecond), strings.TrimSpace(errs))
	}
	deadline := time.Now().Add(5 * time.Second)
	for ended.Load() != stalled.Load() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if ended.Load() != stalled.Load() {
		t.Errorf("%d stalled requests to the store, %d ended", stalled.Load(), ended.Load())
	}
}
