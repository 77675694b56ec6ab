package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// runCLI runs orc iceberg ARGS in this process.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	return out.String(), errOut.String(), code
}

// mustRun runs orc iceberg ARGS and fails the test unless it succeeds.
func mustRun(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("orc iceberg %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out, errOut
}

// writeORCInput writes an ORC file of the days 2024-01-03 (ids 21..30),
// its columns in another order than the table's and without v.
func writeORCInput(t *testing.T, path string) {
	t.Helper()
	s := orc.MustParseSchema("struct<name:string,id:bigint,ts:timestamp>")
	b := orc.NewBatch(s, 10)
	const day3 = 1704240000 // 2024-01-03T00:00:00Z
	for id := 21; id <= 30; id++ {
		b.Cols[0].(*orc.BytesVector).AppendString(fmt.Sprintf("n%d", id))
		b.Cols[1].(*orc.LongVector).Append(int64(id))
		b.Cols[2].(*orc.TimestampVector).Append(day3+int64(id)*60, 0)
	}
	b.NumRows = 10
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
}

// eventsCSV holds ids 1..10 on 2024-01-01 and 11..20 on 2024-01-02.
func eventsCSV() string {
	var sb strings.Builder
	sb.WriteString("id,ts,name,v\n")
	for id := 1; id <= 20; id++ {
		day := 1 + (id-1)/10
		fmt.Fprintf(&sb, "%d,2024-01-%02d %02d:00:00,n%d,%d.5\n", id, day, id%24, id, id)
	}
	return sb.String()
}

// newEventsTable creates db.events in a new SQLite catalog, partitioned by
// day, name's metrics counts only, and appends the CSV days (one
// snapshot), then the ORC day (another). It returns the catalog URI and
// the directory.
func newEventsTable(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	cat := "sqlite:" + filepath.Join(dir, "cat.db")
	out, _ := mustRun(t, "create", "--catalog", cat, "db.events", "--schema", "struct<id:bigint,ts:timestamp,name:string,v:double>",
		"--partition-by", "day(ts)", "--metrics", "default=full,name=counts")
	for _, want := range []string{"created db.events at file://" + filepath.Join(dir, "cat.db.warehouse"), "ts_day=day(ts)",
		"write.metadata.metrics.column.name=counts", "write.metadata.metrics.default=full", "write.format.default=orc"} {
		if !strings.Contains(out, want) {
			t.Errorf("create: no %q in\n%s", want, out)
		}
	}
	csv := filepath.Join(dir, "days12.csv")
	if err := os.WriteFile(csv, []byte(eventsCSV()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := mustRun(t, "append", "--catalog", cat, "db.events", "--header", csv); !strings.Contains(out, "db.events: appended 20 rows in 2 data files, snapshot ") {
		t.Errorf("append CSV: %s", out)
	}
	in := filepath.Join(dir, "day3.orc")
	writeORCInput(t, in)
	if out, _ := mustRun(t, "append", "--catalog", cat, "db.events", in); !strings.Contains(out, "appended 10 rows in 1 data files") {
		t.Errorf("append ORC: %s", out)
	}
	return cat, dir
}

func TestCreateAppendScan(t *testing.T) {
	cat, _ := newEventsTable(t)
	// Day 1 goes by its partition, day 3 (ids 21..30) by id's bounds.
	out, errOut := mustRun(t, "scan", "--catalog", cat, "db.events", "--where", "ts >= TIMESTAMP '2024-01-02 00:00:00' AND id < 13", "--stats")
	want := `{"id": 11, "ts": "2024-01-02 11:00:00.0", "name": "n11", "v": 11.5}` + "\n" +
		`{"id": 12, "ts": "2024-01-02 12:00:00.0", "name": "n12", "v": 12.5}` + "\n"
	if out != want {
		t.Errorf("scan:\n%s\nwant\n%s", out, want)
	}
	if !strings.HasPrefix(errOut, "files: 3 considered, 1 skipped by partition, 1 skipped by metrics, 1 opened\nstripes: 1 considered, 0 skipped") ||
		!strings.Contains(errOut, "\nrows: 10 decoded, 2 returned\n") || !strings.HasSuffix(errOut, "\nprinted: 2 rows\n") {
		t.Errorf("scan --stats:\n%s", errOut)
	}
	// name keeps counts only: its bounds cannot rule a file out.
	out, errOut = mustRun(t, "scan", "--catalog", cat, "db.events", "--where", "name = 'zzz'", "--stats")
	if out != "" || !strings.Contains(errOut, "files: 3 considered, 0 skipped by partition, 0 skipped by metrics, 3 opened") {
		t.Errorf("scan on a column without bounds: %q\n%s", out, errOut)
	}
	// The ORC input's columns were matched by name; v, which it lacks, is null.
	out, _ = mustRun(t, "scan", "--catalog", cat, "db.events", "--where", "id = 25", "--columns", "v,name,id", "--format", "csv")
	if out != "v,name,id\n,n25,25\n" {
		t.Errorf("scan --columns --format csv: %q", out)
	}
	// Files are read in the order planning gives them: any 3 rows.
	out, _ = mustRun(t, "scan", "--catalog", cat, "db.events", "--limit", "3", "--format", "tsv", "--columns", "id")
	if lines := strings.Split(out, "\n"); len(lines) != 5 || lines[0] != "id" || lines[4] != "" || lines[1] == lines[2] || lines[2] == lines[3] {
		t.Errorf("scan --limit 3: %q", out)
	}
}

var reSnapshotLine = regexp.MustCompile(`(?m)^(\*?)\s+(\d+)\s+(-|\d+)\s+\S+\s+append\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$`)

func TestFilesSnapshotsTimeTravel(t *testing.T) {
	cat, dir := newEventsTable(t)
	out, _ := mustRun(t, "snapshots", "--catalog", cat, "db.events")
	m := reSnapshotLine.FindAllStringSubmatch(out, -1)
	if len(m) != 2 || m[0][1] != "" || m[1][1] != "*" || m[1][3] != m[0][2] ||
		m[0][4] != "2" || m[0][5] != "20" || m[1][4] != "1" || m[1][5] != "10" || m[1][6] != "3" || m[1][7] != "30" {
		t.Fatalf("snapshots:\n%s", out)
	}
	first := m[0][2]
	out, _ = mustRun(t, "files", "--catalog", cat, "db.events")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "content  path") {
		t.Fatalf("files:\n%s", out)
	}
	days := map[string]bool{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 6 || f[0] != "data" || !strings.HasPrefix(f[1], "file://"+filepath.Join(dir, "cat.db.warehouse", "db.db", "events", "data")) ||
			f[2] != "ORC" || f[3] != "10" {
			t.Errorf("files line %q", l)
		}
		days[f[5]] = true
	}
	if !days["ts_day=2024-01-01"] || !days["ts_day=2024-01-02"] || !days["ts_day=2024-01-03"] {
		t.Errorf("files' partitions: %v", days)
	}
	out, _ = mustRun(t, "files", "--catalog", cat, "db.events", "--snapshot", first)
	if n := strings.Count(out, "\ndata "); n != 2 {
		t.Errorf("files of the first snapshot: %d\n%s", n, out)
	}
	// --as-of the time the second snapshot was committed reads it, the
	// first's files and the second's.
	if out, _ := mustRun(t, "scan", "--catalog", cat, "db.events", "--as-of", time.Now().UTC().Format(time.RFC3339Nano), "--where", "id > 28", "--columns", "id"); out != "{\"id\": 29}\n{\"id\": 30}\n" {
		t.Errorf("scan --as-of now: %q", out)
	}
	out, errOut := mustRun(t, "scan", "--catalog", cat, "db.events", "--snapshot", first, "--where", "id > 18", "--stats", "--columns", "id")
	if out != "{\"id\": 19}\n{\"id\": 20}\n" || !strings.Contains(errOut, "files: 2 considered, 0 skipped by partition, 1 skipped by metrics, 1 opened") {
		t.Errorf("scan --snapshot %s: %q\n%s", first, out, errOut)
	}
}

// Each bad input is an error naming what is wrong, exit status 1 (2 for
// a usage error), and changes nothing.
func TestBadInput(t *testing.T) {
	cat, dir := newEventsTable(t)
	csvPath := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(csvPath, []byte("id,ts,name,v\n1,2024-01-05 00:00:00,a,1\nseven,2024-01-05 00:00:00,b,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missingDir := filepath.Join(dir, "no", "such")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"scan", "--catalog", cat, "db.nope"}, 1, "orc iceberg scan: catalog " + cat + " has no table db.nope (orc iceberg create makes one)"},
		{[]string{"files", "--catalog", cat, "nope.events"}, 1, "has no table nope.events"},
		{[]string{"scan", "--catalog", cat, "events"}, 2, `table "events": name it NAMESPACE.TABLE`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint,ts:timestamp>", "--partition-by", "dya(ts)"}, 2,
			`--partition-by: partition term "dya(ts)": unknown transform "dya"`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint,ts:timestamp>", "--partition-by", "bucket(16,idd)"}, 2,
			`--partition-by: partition term "bucket(16,idd)": the schema has no column "idd"`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint,ts:timestamp>", "--partition-by", "day(id)"}, 2,
			`--partition-by: partition term "day(id)": day cannot partition column id of type long`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint,ts:timestamp>", "--partition-by", "bucket(x,id)"}, 2,
			`bucket needs a positive whole number, bucket(N, col)`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint>", "--metrics", "default=truncate(0)"}, 2,
			`--metrics: metrics "default=truncate(0)": truncate(0): the length must be positive`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint>", "--metrics", "idd=none"}, 2,
			`--metrics: metrics "idd=none": the schema has no column "idd"`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint>", "--metrics", "id=some"}, 2,
			`metrics mode "some" is not none, counts, truncate(n) or full`},
		{[]string{"create", "--catalog", cat, "db.t2", "--schema", "struct<id:bigint"}, 2, `--schema: schema "struct<id:bigint"`},
		{[]string{"create", "--catalog", cat, "db.events", "--schema", "struct<id:bigint>"}, 1, "catalog " + cat + " already has a table db.events"},
		{[]string{"scan", "--catalog", "sqlite:" + filepath.Join(dir, "nope.db"), "db.events"}, 1,
			"catalog sqlite:" + filepath.Join(dir, "nope.db") + ": " + filepath.Join(dir, "nope.db") + " does not exist"},
		{[]string{"create", "--catalog", "sqlite:" + filepath.Join(missingDir, "c.db"), "db.t", "--schema", "struct<id:bigint>"}, 1,
			"its directory " + missingDir + " does not exist"},
		{[]string{"scan", "--catalog", "mysql:x", "db.events"}, 2, `--catalog "mysql:x": want sqlite:PATH or rest:URL`},
		{[]string{"scan", "--catalog", cat, "db.events", "--where", "idd = 1"}, 2, `--where "idd = 1": the table has no column "idd" (its columns: id, ts, name, v)`},
		{[]string{"scan", "--catalog", cat, "db.events", "--columns", "id,nope"}, 2, `--columns: the table has no column "nope"`},
		{[]string{"scan", "--catalog", cat, "db.events", "--snapshot", "12"}, 1, "table db.events has no snapshot 12 (orc iceberg snapshots lists them)"},
		{[]string{"scan", "--catalog", cat, "db.events", "--as-of", "2020-01-01T00:00:00Z"}, 1,
			"table db.events has no snapshot committed at or before 2020-01-01T00:00:00Z"},
		{[]string{"scan", "--catalog", cat, "db.events", "--as-of", "yesterday"}, 2, `--as-of "yesterday": want a time such as 2024-03-10T12:00:00Z`},
		{[]string{"append", "--catalog", cat, "db.events", "--header", csvPath}, 1,
			csvPath + `: line 3, column 1 (id bigint): bad bigint "seven": not an integer (nothing was committed)`},
		{[]string{"append", "--catalog", cat, "db.events", filepath.Join(dir, "in.parquet")}, 2, "in.parquet: not .csv, .json, .jsonl, .ndjson or .orc: give --format"},
	}
	for _, c := range cases {
		_, errOut, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("orc iceberg %s: exit %d (want %d)\n%s\nwant %q", strings.Join(c.args, " "), code, c.code, errOut, c.want)
		}
	}
	// The failed append committed nothing and left no data file behind.
	out, _ := mustRun(t, "snapshots", "--catalog", cat, "db.events")
	if n := len(reSnapshotLine.FindAllString(out, -1)); n != 2 {
		t.Errorf("%d snapshots after the failed append:\n%s", n, out)
	}
	data, err := os.ReadDir(filepath.Join(dir, "cat.db.warehouse", "db.db", "events", "data"))
	if err != nil || len(data) != 3 {
		t.Errorf("data files after the failed append: %v, %d", err, len(data))
	}
}

// Two appends at once to one SQLite catalog, each its own process's
// catalog connection: both land, in two snapshots.
func TestConcurrentAppends(t *testing.T) {
	cat, dir := newEventsTable(t)
	var wg sync.WaitGroup
	codes := make([]int, 2)
	msgs := make([]string, 2)
	for w := range 2 {
		in := filepath.Join(dir, fmt.Sprintf("w%d.csv", w))
		if err := os.WriteFile(in, []byte(fmt.Sprintf("id,ts\n%d,2024-02-01 00:00:00\n%d,2024-02-02 00:00:00\n", 100+w, 200+w)), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, msgs[w], codes[w] = runCLI(t, "append", "--catalog", cat, "db.events", "--header", in)
		}()
	}
	wg.Wait()
	for w := range 2 {
		if codes[w] != 0 {
			t.Fatalf("writer %d: exit %d: %s", w, codes[w], msgs[w])
		}
	}
	out, _ := mustRun(t, "scan", "--catalog", cat, "db.events", "--where", "id >= 100", "--columns", "id", "--format", "csv")
	if lines := strings.Fields(out); len(lines) != 5 || !strings.Contains(out, "\n100\n") || !strings.Contains(out, "\n201\n") {
		t.Errorf("after two appends at once: %q", out)
	}
	out, _ = mustRun(t, "snapshots", "--catalog", cat, "db.events")
	if m := reSnapshotLine.FindAllStringSubmatch(out, -1); len(m) != 4 || m[3][7] != "34" {
		t.Errorf("snapshots after two appends at once:\n%s", out)
	}
}
