package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// Every command, on files whose tail claims extremes (one integer field of
// the footer, stripe footer, postscript or metadata at a time), fails or
// succeeds without panicking and allocates at most 64 MiB + 8x the file.
func TestCommandsOnHostileTails(t *testing.T) {
	s := orc.MustParseSchema("struct<id:bigint,v:string,d:decimal(10,2),st:struct<l:array<int>>>")
	b := orc.NewBatch(s, 2000)
	st := b.Col("st").(*orc.StructVector)
	l := st.Fields[0].(*orc.ListVector)
	for i := range 2000 {
		b.Col("id").(*orc.LongVector).Append(int64(i))
		b.Col("v").(*orc.BytesVector).AppendString(fmt.Sprint("v", i%30))
		b.Col("d").(*orc.DecimalVector).Append(orc.Int128FromInt64(int64(i)))
		l.Elem.(*orc.LongVector).Append(int64(i))
		l.AppendRow()
		st.AppendRow()
	}
	b.NumRows = 2000
	var buf bytes.Buffer
	w, _ := writer.NewWriter(&buf, s, writer.WithCompression(orc.CompressionNone), writer.WithRowIndexStride(500))
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	w.Close()
	base := buf.Bytes()
	tmp := t.TempDir()
	path := filepath.Join(tmp, "f.orc")
	commands := [][]string{
		{"meta", path}, {"meta", "--json", path}, {"cat", path}, {"scan", path, "--where", "id < 100"},
		{"sizes", path}, {"count", path}, {"schema", "--json", path}, {"cat", "--format", "table", path},
		{"meta", "--json", "--rowindex", "id,v,st.l", path}, {"check", path},
		{"scan", "--explain", "--where", "id < 100 AND NOT (v = 'v3')", path},
		{"merge", "--overwrite", path, path, filepath.Join(tmp, "m.orc")},
		{"convert", "--overwrite", "--compression", "none", path, filepath.Join(tmp, "c.orc")},
	}
	values := []uint64{0, 1, 0xffffffff, 1 << 62, 1<<64 - 1}
	files, worst := 0, uint64(0)
	for section := range testutil.NumSections {
		n, err := testutil.TailFieldCount(base, section)
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if testing.Short() {
			step = 4
		}
		for k := 0; k < n; k += step {
			for _, v := range values {
				data, err := testutil.MutateTail(base, section, k, v)
				if err != nil {
					t.Fatal(err)
				}
				if data == nil {
					continue
				}
				files++
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, args := range commands {
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					before := m.TotalAlloc
					func() {
						defer func() {
							if p := recover(); p != nil {
								t.Fatalf("orc %v on section %d field %d = %d: panic: %v", args[:len(args)-1], section, k, v, p)
							}
						}()
						run(args, io.Discard, io.Discard)
					}()
					runtime.ReadMemStats(&m)
					got := m.TotalAlloc - before
					worst = max(worst, got)
					if bound := 64<<20 + 8*uint64(len(data)); got > bound {
						t.Errorf("orc %v on section %d field %d = %d: allocated %d bytes for a %d-byte file", args, section, k, v, got, len(data))
					}
				}
			}
		}
	}
	t.Logf("%d mutated files, %d commands each; at most %d bytes allocated", files, len(commands), worst)
}
