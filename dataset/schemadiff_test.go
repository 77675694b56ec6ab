package dataset_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/writer"
)

// orcBytes writes rows of a struct of integer and string columns.
func orcBytes(t *testing.T, schema string, rows int) []byte {
	t.Helper()
	s := orc.MustParseSchema(schema)
	b := orc.NewBatch(s, rows)
	for i := range rows {
		for _, c := range b.Cols {
			if v, ok := c.(*orc.BytesVector); ok {
				v.AppendString("x")
			} else {
				c.(*orc.LongVector).Values = append(c.(*orc.LongVector).Values, int64(i))
			}
		}
	}
	b.NumRows = rows
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func memDataset(t *testing.T, names []string, data [][]byte, opts ...dataset.Option) (*dataset.Dataset, error) {
	t.Helper()
	return dataset.New(dataset.FromOpeners(names, func(name string) (io.ReaderAt, int64, io.Closer, error) {
		for i, n := range names {
			if n == name {
				return bytes.NewReader(data[i]), int64(len(data[i])), nil, nil
			}
		}
		return nil, 0, nil, errors.New("no such file")
	}), opts...)
}

// Without a read schema (WithSchema), a file whose schema differs from the
// first file's is an error naming it, the first file and the first
// difference; it no longer reads as nulls (issue 48, item 3).
func TestDifferingSchemasRefused(t *testing.T) {
	a := orcBytes(t, "struct<id:bigint,v:string>", 10)
	for _, tc := range []struct {
		schema string
		want   string
	}{
		{"struct<id:bigint,w:string>", `column "v" is missing`},
		{"struct<id:int,v:string>", `column "id" is int, not bigint`},
		{"struct<id:bigint,v:string,extra:bigint>", `column "extra" is not in a.orc`},
		{"struct<v:string,id:bigint>", "column order"},
	} {
		b := orcBytes(t, tc.schema, 5)
		d, err := memDataset(t, []string{"a.orc", "b.orc"}, [][]byte{a, b})
		if err != nil {
			t.Fatal(err)
		}
		s, err := d.Scan()
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		for batch, e := range s.All() {
			if e != nil {
				err = e
				break
			}
			rows += batch.NumRows
		}
		s.Close()
		var sm *dataset.SchemaMismatchError
		if !errors.As(err, &sm) || sm.File != "b.orc" || sm.First != "a.orc" {
			t.Errorf("%s: scan gave %d rows, err %v; want a *SchemaMismatchError naming b.orc and a.orc", tc.schema, rows, err)
			continue
		}
		msg := err.Error()
		for _, w := range []string{"b.orc", "a.orc", tc.want, "WithSchema"} {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q lacks %q", tc.schema, msg, w)
			}
		}
		// A read schema given reads them both, missing columns null.
		d, err = memDataset(t, []string{"a.orc", "b.orc"}, [][]byte{a, b}, dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,v:string>")))
		if err != nil {
			t.Fatal(err)
		}
		if s, err = d.Scan(); err != nil {
			t.Fatal(err)
		}
		n := 0
		for batch, err := range s.All() {
			if err != nil {
				t.Fatalf("%s with WithSchema: %v", tc.schema, err)
			}
			n += batch.NumRows
		}
		s.Close()
		if n != 15 {
			t.Errorf("%s with WithSchema: %d rows, want 15", tc.schema, n)
		}
	}
	// Files of one schema read as before.
	d, err := memDataset(t, []string{"a.orc", "b.orc"}, [][]byte{a, orcBytes(t, "struct<id:bigint,v:string>", 5)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Scan()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for batch, err := range s.All() {
		if err != nil {
			t.Fatal(err)
		}
		n += batch.NumRows
	}
	if n != 15 {
		t.Errorf("one schema: %d rows, want 15", n)
	}
}

// The table's schema is the first file's that has one: a 0-byte file
// (Hive's empty file) before it does not make the others differ.
func TestEmptyFirstFileHasNoSchema(t *testing.T) {
	d, err := memDataset(t, []string{"a.orc", "b.orc"}, [][]byte{nil, orcBytes(t, "struct<id:bigint,v:string>", 5)})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Schema().String(); got != "struct<id:bigint,v:string>" {
		t.Errorf("schema %s", got)
	}
	s, err := d.Scan()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for batch, err := range s.All() {
		if err != nil {
			t.Fatal(err)
		}
		n += batch.NumRows
	}
	if n != 5 {
		t.Errorf("%d rows, want 5", n)
	}
}
