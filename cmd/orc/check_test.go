package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/writer"
	"google.golang.org/protobuf/proto"
)

// rewriteTail returns a copy of an uncompressed ORC file with its
// metadata and footer changed by edit.
func rewriteTail(t *testing.T, data []byte, edit func(m *orcpb.Metadata, f *orcpb.Footer)) []byte {
	t.Helper()
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tail.Compression != orc.CompressionNone {
		t.Fatal("rewriteTail needs an uncompressed file")
	}
	m, err := tail.DecodeMetadata()
	if err != nil {
		t.Fatal(err)
	}
	f, err := tail.FullFooter()
	if err != nil {
		t.Fatal(err)
	}
	edit(m, f)
	mb, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := proto.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	ps := proto.Clone(tail.PostScript).(*orcpb.PostScript)
	ps.MetadataLength = proto.Uint64(uint64(len(mb)))
	ps.FooterLength = proto.Uint64(uint64(len(fb)))
	pb, err := proto.Marshal(ps)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:tail.MetadataStart]...)
	out = append(append(append(out, mb...), fb...), pb...)
	return append(out, byte(len(pb)))
}

// orc check passes on files of our writer (flat and nested, with nulls,
// several stripes and row groups) and names the first statistic that does
// not match: a wrong file minimum, a wrong stripe maximum, a wrong count.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	flat := filepath.Join(dir, "flat.orc")
	writeStrided(t, flat, 0, 1000, 100, 500, writer.WithCompression(orc.CompressionNone))
	in := writeFile(t, dir, "rows.jsonl", strings.Repeat(strings.Join(nestedRows, "\n")+"\n", 60))
	nested := filepath.Join(dir, "nested.orc")
	mustConvert(t, "--schema", nestedSchema, "--stride", "100", in, nested)
	// Strings over 1024 bytes: the statistics hold bounds, not values.
	long := filepath.Join(dir, "long.orc")
	ls := orc.MustParseSchema("struct<s:string>")
	lf, err := os.Create(long)
	if err != nil {
		t.Fatal(err)
	}
	lw, err := writer.NewWriter(lf, ls, writer.WithRowIndexStride(100), writer.WithCompression(orc.CompressionNone))
	if err != nil {
		t.Fatal(err)
	}
	lb := orc.NewBatch(ls, 300)
	for i := range 300 {
		lb.Cols[0].(*orc.BytesVector).AppendString(strings.Repeat(string(rune('a'+i%26)), 1000+i*3) + "é")
	}
	lb.NumRows = 300
	if err := lw.Write(lb); err != nil {
		t.Fatal(err)
	}
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	lf.Close()
	for _, f := range []string{flat, nested, long} {
		out, errOut, err := runCmd(t, "check", f)
		if err != nil || !strings.Contains(out, ": OK: ") || errOut != "" {
			t.Fatalf("check %s: %v\n%s%s", f, err, out, errOut)
		}
		if !strings.Contains(out, "row group)") || strings.Contains(out, "(0 file") || strings.Contains(out, " 0 row group") {
			t.Errorf("check %s compared too little: %s", f, out)
		}
	}

	data, err := os.ReadFile(flat)
	if err != nil {
		t.Fatal(err)
	}
	longData, err := os.ReadFile(long)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file []byte
		edit func(m *orcpb.Metadata, f *orcpb.Footer)
		want string
	}{
		{"file lower bound", longData, func(_ *orcpb.Metadata, f *orcpb.Footer) {
			f.Statistics[1].StringStatistics.LowerBound = proto.String("b")
		}, `file statistics, column 1 (s): the lower bound is "b" in the statistics, "aaaa`},
		{"file minimum", data, func(_ *orcpb.Metadata, f *orcpb.Footer) { f.Statistics[1].IntStatistics.Minimum = proto.Int64(5) },
			"file statistics, column 1 (id): the minimum is 5 in the statistics, 0 in the data"},
		{"stripe maximum", data, func(m *orcpb.Metadata, _ *orcpb.Footer) {
			m.StripeStats[1].ColStats[2].StringStatistics.Maximum = proto.String("v9")
		}, `stripe 1, column 2 (v): the maximum is "v9" in the statistics, "v999" in the data`},
		{"file count", data, func(_ *orcpb.Metadata, f *orcpb.Footer) { f.Statistics[2].NumberOfValues = proto.Uint64(999) },
			"file statistics, column 2 (v): the value count is 999 in the statistics, 1000 in the data"},
		{"stripe sum", data, func(m *orcpb.Metadata, _ *orcpb.Footer) {
			m.StripeStats[0].ColStats[1].IntStatistics.Sum = proto.Int64(1)
		},
			"stripe 0, column 1 (id): the sum is 1 in the statistics, 124750 in the data"},
	} {
		bad := filepath.Join(dir, "bad.orc")
		if err := os.WriteFile(bad, rewriteTail(t, tc.file, tc.edit), 0o644); err != nil {
			t.Fatal(err)
		}
		var o, e bytes.Buffer
		code := run([]string{"check", bad}, &o, &e)
		if code != 1 || !strings.Contains(e.String(), tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, e.String(), tc.want)
		}
	}
}

// orc check passes on Apache's example files, noting the statistics old
// writers recorded wrongly instead of failing on them.
func TestCheckExamples(t *testing.T) {
	dir := examplesDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	enc, _ := filepath.Glob(filepath.Join(dir, "encrypted", "*.orc"))
	files = append(files, enc...)
	if len(files) == 0 {
		t.Skip("no example files")
	}
	notes := map[string]string{
		"demo-11-zlib.orc":                 "string min/max not compared",
		"complextypes_iceberg.orc":         "children statistics not compared",
		"orc-file-11-format.orc":           "decimal statistics not compared",
		"TestOrcFile.testWithoutIndex.orc": "statistics are empty",
		"decimal64_v2.orc":                 "decimal min/max not compared",
		"bad_bloom_filter_1.6.0.orc":       "bloom filters not checked",
		"bad_bloom_filter_1.6.11.orc":      "bloom filters not checked",
	}
	for _, f := range files {
		base := filepath.Base(f)
		if base == "version1999.orc" { // a future version: not read at all
			continue
		}
		if testing.Short() && strings.HasPrefix(base, "demo-1") {
			continue
		}
		var o, e bytes.Buffer
		err := runCheck([]string{f}, &o, &e)
		if err != nil {
			if errors.Is(err, errInconsistent) {
				t.Errorf("%s: %v", base, err)
			} else {
				t.Errorf("%s: does not check: %v", base, err)
			}
			continue
		}
		if w, ok := notes[base]; ok && !strings.Contains(e.String(), w) {
			t.Errorf("%s: no note %q: %s", base, w, e.String())
		}
	}
}

// orc check tests every value against its row group's bloom filter: a
// filter with its bits cleared (it answers "absent" for everything) is
// named by stripe, column and group.
func TestCheckBloomFilters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.orc")
	writeStrided(t, path, 0, 1000, 100, 500, writer.WithCompression(orc.CompressionNone), writer.WithBloomFilterColumns("id", "v"))
	out, _, err := runCmd(t, "check", path)
	if err != nil || !strings.Contains(out, "; 20 bloom filters hold their values") {
		t.Fatalf("check: %v %s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, closeFn, err := openORC(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.StripeDetail(1)
	closeFn()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range d.Streams {
		if st.Kind != "BLOOM_FILTER_UTF8" || st.Column != 2 {
			continue
		}
		raw := data[st.Offset : st.Offset+st.Length]
		bi, err := rowindex.DecodeBloomFilterIndex(raw)
		if err != nil {
			t.Fatal(err)
		}
		bs := bi.BloomFilter[3].Utf8Bitset
		clear(bs)
		enc, err := proto.Marshal(bi)
		if err != nil || len(enc) != len(raw) {
			t.Fatalf("re-encoded %d bytes for %d: %v", len(enc), len(raw), err)
		}
		copy(raw, enc)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "check", path)
	if err == nil || !strings.Contains(err.Error(), `stripe 1, column 2 (v), row group 3: the bloom filter says "v800" is absent, but the row group holds it`) {
		t.Errorf("cleared filter: %v", err)
	}
}

// orc check tests the values of over1k_bloom.orc against its legacy
// BLOOM_FILTER streams of the early Hive layout, and meta --rowindex
// describes them as such.
func TestLegacyBloomExample(t *testing.T) {
	path := filepath.Join(examplesDir(t), "over1k_bloom.orc")
	if _, err := os.Stat(path); err != nil {
		t.Skip("over1k_bloom.orc not found")
	}
	var o, e bytes.Buffer
	if err := runCheck([]string{path}, &o, &e); err != nil {
		t.Fatal(err)
	}
	// Stripes 0 and 1: the six integer and floating-point columns, the
	// string column (ASCII values) and the binary one.
	if !strings.Contains(o.String(), "; 16 bloom filters hold their values") {
		t.Errorf("check: %s%s", o.String(), e.String())
	}
	o.Reset()
	if err := runMeta([]string{"--rowindex", "_col2,_col7,_col8", path}, &o, &e); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"bloom filter: 4 hash functions, 1019 of 62352 bits set (false positives ~0); BLOOM_FILTER, early Hive layout (sized for 10000 entries at p = 0.05)\n",
		"used only for ASCII values",
		"not used for pruning: this type's legacy hash is not the reader's",
	} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("meta --rowindex lacks %q:\n%s", want, o.String())
		}
	}
}
