package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// A geometry column from CSV (WKT and hex WKB) through convert, cat (WKT and
// --wkb-hex), meta (box and types), check and scan with a box predicate.
func TestGeometryCLI(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "id,g\n1,POINT (1 2)\n2,\n3,\"LINESTRING (0 0, 5 5)\"\n4,0101000000000000000000f03f0000000000000040\n")
	out := filepath.Join(dir, "g.orc")
	mustConvert(t, "--header", "--null", "", "--schema", "struct<id:int,g:geometry>", in, out)
	cli := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		return stdout.String()
	}
	want := `{"id": 1, "g": "POINT (1 2)"}
{"id": 2, "g": null}
{"id": 3, "g": "LINESTRING (0 0, 5 5)"}
{"id": 4, "g": "POINT (1 2)"}
`
	if got := cli("cat", out); got != want {
		t.Errorf("cat:\n%s", got)
	}
	if got := cli("cat", "--wkb-hex", "--limit", "1", out); got != `{"id": 1, "g": "0101000000000000000000f03f0000000000000040"}`+"\n" {
		t.Errorf("cat --wkb-hex: %s", got)
	}
	meta := cli("meta", out)
	for _, w := range []string{"geometry(OGC:CRS84)", "boundingBox=x=[0,5] y=[0,5]", "geometryTypes=POINT,LINESTRING"} {
		if !strings.Contains(meta, w) {
			t.Errorf("meta lacks %q:\n%s", w, meta)
		}
	}
	if got := strings.Join(strings.Fields(cli("meta", "--json", out)), ""); !strings.Contains(got, `"boundingBox":{"xmin":0,"xmax":5,"ymin":0,"ymax":5},"geometryTypes":["POINT","LINESTRING"]`) {
		t.Errorf("meta --json lacks the box:\n%s", got)
	}
	cli("check", out)
	if got := cli("scan", out, "--where", "ST_INTERSECTS_BOX(g, 3, 0.1, 4, 0.5)"); got != `{"id": 3, "g": "LINESTRING (0 0, 5 5)"}`+"\n" {
		t.Errorf("scan: %s", got)
	}
	if got := cli("scan", out, "--where", "ST_WITHIN_BOX(g, 0.5, 1.5, 1.5, 2.5)", "--explain"); !strings.Contains(got, `{"id": 4, "g": "POINT (1 2)"}`) {
		t.Errorf("scan within: %s", got)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"scan", out, "--where", "ST_INTERSECTS(g, 'LINESTRING (5 0, 0 5)')", "--explain=full"}, &stdout, &stderr)
	if got := stdout.String() + stderr.String(); code != 0 || !strings.Contains(got, `{"id": 3, "g": "LINESTRING (0 0, 5 5)"}`) || strings.Contains(got, `"id": 1`) ||
		!strings.Contains(got, "box of g: x [0, 5] y [0, 5]; the literal's box: x [0, 5] y [0, 5]") {
		t.Errorf("scan ST_INTERSECTS --explain=full: exit %d\n%s", code, got)
	}
	stdout.Reset()
	stderr.Reset()
	if got := cli("scan", out, "--where", "ST_CONTAINS('POLYGON ((0 0, 9 0, 9 9, 0 9, 0 0))', g) AND NOT ST_CONTAINS(g, 'POINT (1 2)')"); got != `{"id": 3, "g": "LINESTRING (0 0, 5 5)"}`+"\n" {
		t.Errorf("scan ST_CONTAINS: %s", got)
	}
	if code := run([]string{"scan", out, "--where", "ST_INTERSECTS(g, 'POINT (1 2')"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "bad WKT literal: expected ')', found the end") {
		t.Errorf("bad WKT literal: exit %d, %s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	bad := writeFile(t, dir, "bad.csv", "1,POINT (1)\n")
	if code := run([]string{"convert", "--schema", "struct<id:int,g:geometry>", bad, filepath.Join(dir, "bad.orc")}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "line 1, column 2") {
		t.Errorf("bad WKT: exit %d, %s", code, stderr.String())
	}
}
