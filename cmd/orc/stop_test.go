package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the command itself when a test starts this binary as orc
// (runMain), so that signals and pipes are tested on a real process.
func TestMain(m *testing.M) {
	if os.Getenv("ORCGO_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// runMain starts this test binary as "orc args...", its stdout a pipe.
func runMain(t *testing.T, args ...string) (*exec.Cmd, *os.File, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ORCGO_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out.(*os.File), &stderr
}

// statFigure returns the number before label in scan --stats output
// ("files: 2 opened" -> statFigure(s, "opened") = 2), or -1.
func statFigure(stats, label string) int {
	m := regexp.MustCompile(`(\d+) ` + label).FindStringSubmatch(stats)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// stopDataset writes files of ids 0.. in dir (a/, b/, c/ ...), rows each,
// in row groups of 1,000.
func stopDataset(t *testing.T, dir string, files, rows int) {
	for i := range files {
		sub := filepath.Join(dir, string(rune('a'+i)))
		os.MkdirAll(sub, 0o755)
		writeStrided(t, filepath.Join(sub, "part.orc"), i*rows, rows, 1000, 1<<30)
	}
}

// epipeWriter takes n bytes, then fails as a closed pipe does.
type epipeWriter struct {
	buf bytes.Buffer
	n   int
}

func (w *epipeWriter) Write(p []byte) (int, error) {
	k := min(len(p), w.n-w.buf.Len())
	w.buf.Write(p[:k])
	if k < len(p) {
		return k, syscall.EPIPE
	}
	return k, nil
}

// scan --stats tells the truth however the scan stops: at --limit, at an
// error in a later file, at a closed output and at Ctrl-C, the figures
// count the work of every file the scan opened, and "printed" the rows
// that got out.
func TestScanStatsWhateverStops(t *testing.T) {
	dir := t.TempDir()
	stopDataset(t, dir, 3, 3000)

	// --limit in the first file: that file counts, with what it decoded
	// (and the second, if its scan started meanwhile).
	out, errs, err := runCmd(t, "scan", dir, "--where", "id >= 0", "--stats", "--limit", "1500")
	if err != nil {
		t.Fatal(err)
	}
	if opened := statFigure(errs, "opened"); strings.Count(out, "\n") != 1500 || opened < 1 || opened > 2 || statFigure(errs, "decoded") < 1500 ||
		!strings.Contains(errs, "printed: 1500 rows (--limit 1500)") {
		t.Errorf("--limit 1500:\n%s", errs)
	}

	// An error in a later file: the figures still come, counting the
	// files before it.
	bad := t.TempDir()
	stopDataset(t, bad, 2, 3000)
	data, _ := os.ReadFile(filepath.Join(bad, "b", "part.orc"))
	os.WriteFile(filepath.Join(bad, "b", "part.orc"), data[:len(data)/2], 0o644)
	out, errs, err = runCmd(t, "scan", bad, "--where", "id >= 0", "--stats")
	if err == nil || statFigure(errs, "opened") != 1 || statFigure(errs, "decoded") != 3000 ||
		!strings.Contains(errs, "printed: 3000 rows") || strings.Count(out, "\n") != 3000 {
		t.Errorf("error in the second file: %v\n%s", err, errs)
	}

	// A closed output: not an error; "printed" counts the rows that got
	// out whole.
	w := &epipeWriter{n: 1000}
	var stderr bytes.Buffer
	if err := runScan([]string{dir, "--where", "id >= 0", "--stats"}, w, &stderr); err != nil {
		t.Fatalf("closed output: %v", err)
	}
	if got := strings.Count(w.buf.String(), "\n"); statFigure(stderr.String(), "opened") < 1 ||
		!strings.Contains(stderr.String(), "printed: "+strconv.Itoa(got)+" rows") {
		t.Errorf("closed output after %d lines:\n%s", got, stderr.String())
	}
}

// A real process: a reader that goes away ends the scan quietly with its
// figures (exit 0); Ctrl-C ends it after the batch, with its figures and
// exit 130, and every row it says it printed was printed.
func TestScanStopsOnSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	stopDataset(t, dir, 3, 20000)

	cmd, out, stderr := runMain(t, "scan", dir, "--where", "id >= 0", "--stats")
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, `{"id": 0`) {
		t.Fatalf("first line %q, %v", line, err)
	}
	out.Close()
	if err := cmd.Wait(); err != nil || statFigure(stderr.String(), "opened") < 1 || !strings.Contains(stderr.String(), "printed: ") {
		t.Errorf("closed pipe: %v\n%s", err, stderr.String())
	}

	cmd, out, stderr = runMain(t, "scan", dir, "--where", "id >= 0", "--stats")
	r := bufio.NewReader(out)
	if _, err := r.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(300 * time.Millisecond) // let the signal land (on a loaded machine too) before the output flows again
	rest, _ := r.ReadString(0)
	err = cmd.Wait()
	var ee *exec.ExitError
	lines := 1 + strings.Count(rest, "\n")
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted after "+strconv.Itoa(lines)+" rows") ||
		!strings.Contains(stderr.String(), "printed: "+strconv.Itoa(lines)+" rows") || lines >= 60000 || statFigure(stderr.String(), "opened") < 1 {
		t.Errorf("Ctrl-C: %v after %d lines\n%s", err, lines, stderr.String())
	}
}
