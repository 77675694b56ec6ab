package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A geometry with an infinite coordinate gives an infinite bound, which
// meta --json writes as the strings "+Inf" and "-Inf", as it writes other
// non-finite doubles, instead of failing.
func TestMetaJSONInfiniteBox(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "1,POINT (Inf 5)\n2,POINT (1 -Inf)\n")
	out := filepath.Join(dir, "g.orc")
	mustConvert(t, "--schema", "struct<id:int,g:geometry>", in, out)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"meta", "--json", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("meta --json: exit %d: %s", code, stderr.String())
	}
	if !json.Valid(stdout.Bytes()) {
		t.Fatalf("meta --json is not JSON:\n%s", stdout.String())
	}
	got := strings.Join(strings.Fields(stdout.String()), "")
	if !strings.Contains(got, `"boundingBox":{"xmin":1,"xmax":"+Inf","ymin":"-Inf","ymax":5}`) {
		t.Fatalf("meta --json box:\n%s", stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"meta", out}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "x=[1,+Inf] y=[-Inf,5]") {
		t.Fatalf("meta: exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
}
