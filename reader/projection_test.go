package reader_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

// rowsAsMaps reads the file's rows as decoded JSON objects.
func rowsAsMaps(t *testing.T, r *reader.Reader, opts ...reader.ScanOption) []map[string]any {
	t.Helper()
	var out []map[string]any
	_, err := forEachRow(r, func(line []byte) error {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		out = append(out, m)
		return nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestProjection(t *testing.T) {
	dir := examples.Dir(t)
	cases := []struct {
		file    string
		columns []string
		// want maps a projected field to the path of the full row it equals
		want map[string][]string
	}{
		{"TestOrcFile.test1.orc", []string{"int1", "string1"}, map[string][]string{"int1": {"int1"}, "string1": {"string1"}}},
		{"TestOrcFile.test1.orc", []string{"middle.list", "map"}, map[string][]string{"middle": {"middle"}, "map": {"map"}}},
		{"TestOrcFile.testSeek.orc", []string{"string1", "double1"}, map[string][]string{"string1": {"string1"}, "double1": {"double1"}}},
		{"TestOrcFile.testUnionAndTimestamp.orc", []string{"union"}, map[string][]string{"union": {"union"}}},
	}
	for _, c := range cases {
		r := openFile(t, filepath.Join(dir, c.file))
		full := rowsAsMaps(t, r)
		proj := rowsAsMaps(t, r, reader.WithColumns(c.columns...))
		if len(full) != len(proj) {
			t.Fatalf("%s %v: %d rows projected, %d in full", c.file, c.columns, len(proj), len(full))
		}
		for i := range full {
			if len(proj[i]) != len(c.want) {
				t.Fatalf("%s %v row %d: fields %v", c.file, c.columns, i, proj[i])
			}
			for k, path := range c.want {
				var v any = full[i]
				for _, p := range path {
					v = v.(map[string]any)[p]
				}
				if !reflect.DeepEqual(proj[i][k], v) {
					t.Fatalf("%s %v row %d field %s: got %v, want %v", c.file, c.columns, i, k, proj[i][k], v)
				}
			}
		}
		// Projection reads fewer bytes than a full scan.
		stats := func(opts ...reader.ScanOption) reader.ScanStats {
			br, err := r.NewBatchReader(opts...)
			if err != nil {
				t.Fatal(err)
			}
			b := br.NewBatch()
			for br.Next(b) == nil {
			}
			return br.Stats()
		}
		all, some := stats(reader.WithCoalesceGap(0)), stats(reader.WithColumns(c.columns...), reader.WithCoalesceGap(0))
		if some.BytesRead >= all.BytesRead {
			t.Errorf("%s %v: projection read %d bytes, full scan %d", c.file, c.columns, some.BytesRead, all.BytesRead)
		}
	}
	// middle.list keeps the struct "middle" with only its "list" field.
	r := openFile(t, filepath.Join(dir, "TestOrcFile.test1.orc"))
	br, err := r.NewBatchReader(reader.WithColumns("middle.list", "nope"))
	if err == nil {
		t.Fatalf("unknown column accepted: schema %s", br.Schema())
	}
	br, err = r.NewBatchReader(reader.WithColumns("long1", "middle.list"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := br.Schema().String(), "struct<long1:bigint,middle:struct<list:array<struct<int1:int,string1:string>>>>"; got != want {
		t.Fatalf("projected schema %s, want %s", got, want)
	}
}
