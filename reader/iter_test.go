package reader_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

func iterFile(t *testing.T, rows int) (*reader.Reader, []byte) {
	t.Helper()
	s := orc.MustParseSchema("struct<id:bigint,name:string>")
	b := orc.NewBatch(s, rows)
	for i := range rows {
		b.Cols[0].(*orc.LongVector).Append(int64(i))
		if i%3 == 0 {
			b.Cols[1].(*orc.BytesVector).AppendNull()
		} else {
			b.Cols[1].(*orc.BytesVector).AppendString("n")
		}
	}
	b.NumRows = rows
	return writeOpen(t, s, []*orc.Batch{b})
}

func TestIterators(t *testing.T) {
	r, data := iterFile(t, 5000)
	br, err := r.NewBatchReader(reader.WithBatchSize(700))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for b, err := range br.All() {
		if err != nil {
			t.Fatal(err)
		}
		n += b.NumRows
	}
	if n != 5000 {
		t.Fatalf("All: %d rows", n)
	}
	br.Close()
	type row struct {
		ID   int64
		Name *string
	}
	rr, err := reader.NewRowReader[row](r, reader.WithSearchArgument(sarg.Lt("id", sarg.Int(10))), reader.WithExactFilter(true))
	if err != nil {
		t.Fatal(err)
	}
	var got []row
	for x, err := range rr.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, x)
		if len(got) == 4 {
			break // breaking out is fine
		}
	}
	rr.Close()
	if len(got) != 4 || got[3].ID != 3 || got[3].Name != nil || got[2].Name == nil {
		t.Fatalf("RowReader.All: %+v", got)
	}
	path := filepath.Join(t.TempDir(), "f.orc")
	os.WriteFile(path, data, 0o644)
	rows, err := reader.ReadFile[row](path, reader.WithSearchArgument(sarg.Ge("id", sarg.Int(4990))), reader.WithExactFilter(true))
	if err != nil || len(rows) != 10 || rows[9].ID != 4999 {
		t.Fatalf("ReadFile: %d rows, %v", len(rows), err)
	}
	if _, err := reader.ReadFile[row](filepath.Join(t.TempDir(), "nope.orc")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ReadFile of a missing file: %v", err)
	}
}

func TestContext(t *testing.T) {
	r, _ := iterFile(t, 20000)
	for _, par := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		br, err := r.NewBatchReader(reader.WithContext(ctx), reader.WithBatchSize(100), reader.WithParallelism(par))
		if err != nil {
			t.Fatal(err)
		}
		b := br.NewBatch()
		if err := br.Next(b); err != nil {
			t.Fatal(err)
		}
		cancel()
		if err := br.Next(b); !errors.Is(err, context.Canceled) {
			t.Fatalf("parallelism %d: Next after cancel: %v", par, err)
		}
		if err := br.Next(b); !errors.Is(err, context.Canceled) {
			t.Fatalf("parallelism %d: the error is not sticky: %v", par, err)
		}
		br.Close()
	}
	// A batch of another schema is ErrInvalidBatch.
	br, _ := r.NewBatchReader()
	defer br.Close()
	if err := br.Next(orc.NewBatch(orc.MustParseSchema("struct<x:int>"), 1)); !errors.Is(err, orc.ErrInvalidBatch) {
		t.Fatalf("wrong batch: %v", err)
	}
}

// A batch whose vector deep in a struct is of the wrong type is
// ErrInvalidBatch naming that column by its path and type.
func TestInvalidBatchNamesNestedColumn(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,s:struct<b:string,m:map<string,struct<c:double>>>>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	if err := br.Next(b); err != io.EOF {
		t.Fatalf("a good batch: %v", err)
	}
	m := b.Cols[1].(*orc.StructVector).Fields[1].(*orc.MapVector)
	m.Values.(*orc.StructVector).Fields[0] = &orc.LongVector{}
	err = br.Next(b)
	if !errors.Is(err, orc.ErrInvalidBatch) || !strings.Contains(err.Error(), `column "s.m._value.c" of type double has a *orc.LongVector`) {
		t.Fatalf("a bad vector at s.m._value.c: %v", err)
	}
}

// TestEachBatch: EachBatch calls fn with every batch in order, returns
// fn's error as it is and stops there, and a scan's error (a bad option)
// before any call.
func TestEachBatch(t *testing.T) {
	r, _ := iterFile(t, 5000)
	var ids []int64
	calls := 0
	err := r.EachBatch(func(b *orc.Batch) error {
		calls++
		ids = append(ids, b.Cols[0].(*orc.LongVector).Values[:b.NumRows]...)
		return nil
	}, reader.WithBatchSize(700), reader.WithColumns("id"))
	if err != nil {
		t.Fatal(err)
	}
	if calls != 8 || len(ids) != 5000 {
		t.Fatalf("%d calls, %d rows; want 8 and 5000", calls, len(ids))
	}
	for i, id := range ids {
		if id != int64(i) {
			t.Fatalf("row %d: id %d", i, id)
		}
	}
	stop := errors.New("stop")
	calls = 0
	err = r.EachBatch(func(b *orc.Batch) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	}, reader.WithBatchSize(700))
	if err != stop || calls != 3 {
		t.Fatalf("fn's error: got %v after %d calls; want it as it is after 3", err, calls)
	}
	err = r.EachBatch(func(*orc.Batch) error { t.Fatal("fn called"); return nil }, reader.WithColumns("nosuch"))
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("unknown column: %v", err)
	}
}
