package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every class of error speaks the user's words: a predicate's errors quote
// the text as typed with a caret line under the part at fault (a syntax
// error, a literal of the wrong type, an unknown column, an instant on a
// wall-clock column: never the normalized form, "ts <= ..." for
// "ts > ..."); a file's errors name the path the user typed, for one file
// (meta, check, sizes, cat, scan, count) and for one of several (never the
// dataset's own "0001/trunc.orc"); grammar is right ("an integer literal",
// "an int column").
func TestErrorsQuoteTheUser(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.orc")
	data := writeORC(t, good, 0, 10)
	trunc := filepath.Join(dir, "trunc.orc")
	os.WriteFile(trunc, data[:len(data)/2], 0o644)
	ts := filepath.Join(examplesDir(t), "TestOrcFile.testDate1900.orc") // struct<time:timestamp,date:date>
	missing := filepath.Join(dir, "missing.orc")
	part := filepath.Join(dir, "tbl", "dt=1")
	writeORC(t, filepath.Join(part, "a.orc"), 0, 10)
	os.WriteFile(filepath.Join(part, "b.orc"), data[:len(data)/2], 0o644)

	for _, c := range []struct {
		args []string
		want []string // lines of stderr, in order
	}{
		{[]string{"scan", good, "--where", "id = = 5"}, []string{
			`orc scan: --where: expected a literal, found "="`,
			`    id = = 5`,
			`         ^`}},
		{[]string{"scan", good, "--where", "id > 1 AND v > 5"}, []string{
			`orc scan: --where: ` + good + `: v > 5: an integer literal cannot be compared with a string column`,
			`    id > 1 AND v > 5`,
			`               ^^^^^`}},
		{[]string{"scan", good, "--where", "id IN (1, 'a') OR v = 'x'"}, []string{
			`: id IN (1, 'a'): a string literal cannot be compared with a bigint column`,
			`    id IN (1, 'a') OR v = 'x'`,
			`    ^^^^^^^^^^^^^^`}},
		{[]string{"scan", good, "--where", "(idd = 5)"}, []string{
			`orc scan: --where: ` + good + `: unknown column "idd"`,
			`    (idd = 5)`,
			`     ^^^^^^^`}},
		{[]string{"scan", ts, "--where", "time > TIMESTAMP '2020-01-01 00:00:00Z'"}, []string{
			`: time > TIMESTAMP '2020-01-01 00:00:00Z': an instant cannot be compared with a timestamp column`,
			`    time > TIMESTAMP '2020-01-01 00:00:00Z'`,
			`    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^`}},
		{[]string{"scan", filepath.Join(dir, "tbl"), "--where", "id >= 'x'"}, []string{
			`orc scan: --where: id >= 'x': a string literal cannot be compared with a bigint column`}},
		{[]string{"scan", good, "--where", "id IN ()"}, []string{
			`orc scan: --where: an IN list needs at least one value`}},
		{[]string{"meta", trunc}, []string{"orc meta: " + trunc + ": corrupt file: "}},
		{[]string{"check", trunc}, []string{"orc check: " + trunc + ": corrupt file: "}},
		{[]string{"sizes", trunc}, []string{"orc sizes: " + trunc + ": corrupt file: "}},
		{[]string{"cat", trunc}, []string{"orc cat: " + trunc + ": corrupt file: "}},
		{[]string{"count", trunc}, []string{"orc count: " + trunc + ": corrupt file: "}},
		{[]string{"meta", missing}, []string{"orc meta: " + missing + ": no such file or directory"}},
		{[]string{"cat", "ftp://b/k.orc"}, []string{"orc cat: ftp://b/k.orc: no such file, and ftp:// is not a scheme orc reads (http://, https://, s3://"}},
		{[]string{"count", "hdfs://nn/t/", "--where", "id > 1"}, []string{"orc count: hdfs://nn/t/: no such file, and hdfs:// is not a scheme orc reads"}},
		{[]string{"cat", good, trunc}, []string{"orc cat: " + trunc + ": corrupt file: "}},
		{[]string{"cat", filepath.Join(dir, "tbl")}, []string{"orc cat: " + filepath.Join(part, "b.orc") + ": corrupt file: "}},
		{[]string{"cat", filepath.Join(dir, "tbl"), "--schema", "struct<id:bigint,v:strin>"}, []string{
			`orc cat: --schema: `,
			`    struct<id:bigint,v:strin>`,
			`                       ^`}},
		{[]string{"cat", filepath.Join(dir, "tbl"), "--partitions", "struct<dt:date>"}, []string{
			"orc cat: " + filepath.Join(part, "a.orc") + `: partition dt="1": parsing time`}},
	} {
		var out, errs bytes.Buffer
		code := run(c.args, &out, &errs)
		got := errs.String()
		if code != 1 {
			t.Errorf("%v: exit %d, want 1; stderr:\n%s", c.args, code, got)
			continue
		}
		at := 0
		for _, w := range c.want {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Errorf("%v: stderr lacks %q after byte %d:\n%s", c.args, w, at, got)
				break
			}
			at += i + len(w)
		}
		for _, bad := range []string{"0001/", "dataset: ", "sarg: ", "at byte", "orc: orc:", ": orc: ", "open " + dir, " a integer", " a int "} {
			if strings.Contains(got, bad) {
				t.Errorf("%v: stderr says %q:\n%s", c.args, bad, got)
			}
		}
	}
}
