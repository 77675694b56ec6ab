package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunDispatch checks main's dispatch of the commands in this package:
// help lists them on stdout, usage errors exit 2 with the usage line, other
// errors exit 1 with the command's name.
func TestRunDispatch(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"help"}, &stdout, &stderr); code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, w := range []string{"orc convert [--schema", "orc demo [--rows"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("help lacks %q:\n%s", w, stdout.String())
		}
	}
	stdout.Reset()

	stderr.Reset()
	if code := run([]string{"convert", "only-one-arg.csv"}, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "usage: orc convert") {
		t.Errorf("convert with one argument: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "1\nbad\n")
	code := run([]string{"convert", "--schema", "struct<a:int>", in, filepath.Join(dir, "out.orc")}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "orc convert: ") || !strings.Contains(stderr.String(), "line 2, column 1") {
		t.Errorf("bad input: exit %d, stderr %q", code, stderr.String())
	}

	stderr.Reset()
	stdout.Reset()
	if code := run([]string{"demo", "--rows", "100", "--dir", dir}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "rows            100") {
		t.Errorf("demo: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// cat and scan print the same rows, in the same order, with --parallel.
func TestParallelFlag(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"demo", "--rows", "60000", "--dir", dir, "--keep"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo: exit %d: %s", code, stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	if len(files) == 0 {
		t.Fatal("demo wrote no file")
	}
	out := func(args ...string) string {
		t.Helper()
		var o, e bytes.Buffer
		if code := run(args, &o, &e); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, e.String())
		}
		return o.String()
	}
	for _, f := range files {
		serial := out("cat", f)
		if par := out("cat", "--parallel", "3", f); par != serial || strings.Count(serial, "\n") != 60000 {
			t.Fatalf("cat --parallel 3 of %s: %d lines, serial %d, equal %v", f, strings.Count(par, "\n"), strings.Count(serial, "\n"), par == serial)
		}
	}
	stderr.Reset()
	if code := run([]string{"cat", "--parallel", "0", files[0]}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "--parallel 0") {
		t.Fatalf("cat --parallel 0: exit %d, stderr %q", code, stderr.String())
	}
}

// orc --help, orc help CMD and orc CMD --help print to stdout and exit 0:
// every command with a description, every flag of a command with its own,
// the predicate grammar for scan; orc version prints a version.
func TestHelp(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"--help"}, &out, &errs); code != 0 || errs.Len() != 0 {
		t.Fatalf("--help: exit %d, stderr %q", code, errs.String())
	}
	for _, c := range commands {
		if c.desc == "" || !strings.Contains(out.String(), "  "+c.name+" ") {
			t.Errorf("orc --help lacks a description of %s", c.name)
		}
	}
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--help"}, {"help", c.name}, {c.name, "-h"}} {
			out.Reset()
			errs.Reset()
			if code := run(args, &out, &errs); code != 0 || !strings.HasPrefix(out.String(), "usage: orc "+c.name) {
				t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errs.String())
			}
		}
	}
	out.Reset()
	run([]string{"scan", "--help"}, &out, &errs)
	for _, w := range []string{"-where string", "-parallel int", "-limit int", "BETWEEN", "IS NULL", "DATE '"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("scan --help lacks %q:\n%s", w, out.String())
		}
	}
	out.Reset()
	if code := run([]string{"version"}, &out, &errs); code != 0 || !strings.HasPrefix(out.String(), "orc (github.com/orcgo/orc) ") {
		t.Fatalf("version: exit %d, %q", code, out.String())
	}
}
