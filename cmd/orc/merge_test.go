package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// orc merge: the rows of the merged file are the inputs' in order; its
// footer statistics, stripe statistics, row indexes and bloom filters
// still prune; orc meta, orc check and the reader read it.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	bloom := writer.WithBloomFilterColumns("v")
	a, b, c := filepath.Join(dir, "a.orc"), filepath.Join(dir, "b.orc"), filepath.Join(dir, "c.orc")
	writeStrided(t, a, 0, 1000, 100, 500, bloom)
	writeStrided(t, b, 1000, 600, 100, 500, bloom)
	writeStrided(t, c, 5000, 1000, 100, 500, bloom)
	out := filepath.Join(dir, "m.orc")
	stdout, _, err := runCmd(t, "merge", a, b, c, out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "merged 3 files (2,600 rows, 6 stripes)") {
		t.Errorf("merge said %q", stdout)
	}
	var want strings.Builder
	for _, f := range []string{a, b, c} {
		o, _, err := runCmd(t, "cat", f)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString(o)
	}
	if got, _, err := runCmd(t, "cat", out); err != nil || got != want.String() {
		t.Fatalf("cat of the merged file: %v, %d bytes, want %d", err, len(got), want.Len())
	}
	r, closeFn, err := openORC(out)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for batch, err := range br.All() {
		if err != nil {
			t.Fatal(err)
		}
		read += batch.NumRows
	}
	br.Close()
	if r.NumRows() != 2600 || read != 2600 || len(r.Stripes()) != 6 || !r.HasStripeStatistics() {
		t.Fatalf("reader: %d rows (%d read), %d stripes, stripe statistics %v", r.NumRows(), read, len(r.Stripes()), r.HasStripeStatistics())
	}
	if st, ok := r.Statistics(1); !ok || st.NumValues != 2600 || st.Int == nil || st.Int.Min != 0 || st.Int.Max != 5999 {
		t.Errorf("merged id statistics: %+v %+v", st, st.Int)
	}
	if s, ok := r.StripeStatistics(3, 1); !ok || s.Int == nil || s.Int.Min != 1500 || s.Int.Max != 1599 {
		t.Errorf("stripe 3 statistics: %+v", s.Int)
	}
	if o, e, err := runCmd(t, "check", out); err != nil || !strings.Contains(o, "OK") {
		t.Fatalf("check: %v %s%s", err, o, e)
	}
	js, _, err := runCmd(t, "meta", "--json", out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows    int64 `json:"rows"`
		Stripes []struct {
			Offset int64 `json:"offset"`
			Rows   int64 `json:"rows"`
		} `json:"stripes"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.Rows != 2600 || len(doc.Stripes) != 6 || doc.Stripes[0].Offset != 3 || doc.Stripes[3].Rows != 100 {
		t.Fatalf("meta: %v %+v", err, doc)
	}

	// Pruning: stripe statistics skip all stripes but one, the row index
	// all groups but one, the bloom filters a group min/max kept.
	o, e, err := runCmd(t, "scan", out, "--where", "id BETWEEN 1510 AND 1520", "--stats")
	if err != nil || strings.Count(o, "\n") != 11 {
		t.Fatalf("scan: %v, %d rows", err, strings.Count(o, "\n"))
	}
	if !strings.Contains(e, "stripes: 6 considered, 5 skipped (5 by statistics)") || !strings.Contains(e, "row groups: 1 considered, 0 skipped") {
		t.Errorf("scan statistics:\n%s", e)
	}
	o, e, err = runCmd(t, "scan", out, "--where", "v = 'v5050'", "--stats")
	if err != nil || o != "{\"id\": 5050, \"v\": \"v5050\"}\n" || !strings.Contains(e, "by bloom filters") || strings.Contains(e, "(0 by bloom filters)") {
		t.Errorf("bloom scan: %v %q\n%s", err, o, e)
	}

	// OUT exists: refused without --overwrite.
	if _, _, err := runCmd(t, "merge", a, b, out); err == nil || !strings.Contains(err.Error(), "--overwrite") {
		t.Errorf("existing OUT: %v", err)
	}
	if _, _, err := runCmd(t, "merge", "--overwrite", a, out, out); err == nil || !strings.Contains(err.Error(), "both OUT and an input") {
		t.Errorf("OUT as input: %v", err)
	}
}

// orc merge refuses inputs its stripes cannot share a tail with, naming
// the file and what differs, and leaves no output behind.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.orc")
	writeStrided(t, base, 0, 300, 100, 500)
	other := func(name string, opts ...writer.Option) string {
		p := filepath.Join(dir, name)
		writeStrided(t, p, 0, 300, 100, 500, opts...)
		return p
	}
	schema := filepath.Join(dir, "schema.orc")
	s := orc.MustParseSchema("struct<id:bigint,w:string>")
	f, _ := os.Create(schema)
	w, err := writer.NewWriter(f, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct{ in, want string }{
		{other("none.orc", writer.WithCompression(orc.CompressionNone)), "none.orc: the compression NONE differs from ZSTD in " + base},
		{other("block.orc", writer.WithCompressionBlockSize(64<<10)), "block.orc: the compression block size 65536 differs from 262144"},
		{other("stride.orc", writer.WithRowIndexStride(200)), "stride.orc: the row index stride 200 differs from 100"},
		{schema, "schema.orc: the schema struct<id:bigint,w:string> differs from struct<id:bigint,v:string>"},
	} {
		out := filepath.Join(dir, "out.orc")
		_, _, err := runCmd(t, "merge", base, tc.in, out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("merge with %s: %v, want %q", filepath.Base(tc.in), err, tc.want)
		}
		if names := dirNames(t, dir); strings.Contains(strings.Join(names, " "), "out.orc") {
			t.Errorf("left behind: %v", names)
		}
	}
}

// Files of Apache's Java writer (ZLIB, a bloom filter, the old string
// statistics) merge into a file that orc check finds consistent.
func TestMergeExamples(t *testing.T) {
	dir := examplesDir(t)
	for _, name := range []string{"TestOrcFile.testSeek.orc", "over1k_bloom.orc", "orc_split_elim.orc"} {
		in := filepath.Join(dir, name)
		out := filepath.Join(t.TempDir(), "m.orc")
		if _, _, err := runCmd(t, "merge", in, in, out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r1, c1, err := openORC(in)
		if err != nil {
			t.Fatal(err)
		}
		r2, c2, err := openORC(out)
		if err != nil {
			t.Fatal(err)
		}
		if r2.NumRows() != 2*r1.NumRows() || len(r2.Stripes()) != 2*len(r1.Stripes()) {
			t.Errorf("%s: %d rows in %d stripes from %d in %d", name, r2.NumRows(), len(r2.Stripes()), r1.NumRows(), len(r1.Stripes()))
		}
		c1()
		c2()
		if o, e, err := runCmd(t, "check", out); err != nil {
			t.Errorf("%s: check: %v %s%s", name, err, o, e)
		}
	}
}

// User metadata: the union of the inputs', the first value of a key kept
// and a different later one reported; a zero-byte input is passed over.
func TestMergeUserMetadata(t *testing.T) {
	dir := t.TempDir()
	s := orc.MustParseSchema("struct<a:int>")
	write := func(name string, kv ...string) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w, err := writer.NewWriter(f, s)
		if err != nil {
			t.Fatal(err)
		}
		b := orc.NewBatch(s, 1)
		b.Cols[0].(*orc.LongVector).Append(int64(len(kv)))
		b.NumRows = 1
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(kv); i += 2 {
			if err := w.AddUserMetadata(kv[i], []byte(kv[i+1])); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.orc", "k", "1", "only-a", "x")
	b := write("b.orc", "k", "2", "only-b", "y")
	empty := filepath.Join(dir, "empty.orc")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.orc")
	_, errOut, err := runCmd(t, "merge", a, empty, b, out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, `b.orc: user metadata "k" differs from an earlier input's: the first value is kept`) ||
		!strings.Contains(errOut, "empty.orc: empty file (0 bytes), nothing to merge") {
		t.Errorf("stderr: %s", errOut)
	}
	r, closeFn, err := openORC(out)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	got := map[string]string{}
	for _, it := range r.UserMetadata() {
		got[it.Key] = string(it.Value)
	}
	if want := map[string]string{"k": "1", "only-a": "x", "only-b": "y"}; !reflect.DeepEqual(got, want) || r.NumRows() != 2 {
		t.Errorf("user metadata %v, rows %d", got, r.NumRows())
	}
}
