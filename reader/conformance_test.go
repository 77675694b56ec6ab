package reader_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

func openFile(tb testing.TB, path string, opts ...reader.Option) *reader.Reader {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := reader.Open(f, st.Size(), opts...)
	if err != nil {
		tb.Fatalf("open %s: %v", filepath.Base(path), err)
	}
	return r
}

// forEachRow calls fn with each row's JSON line.
func forEachRow(r *reader.Reader, fn func(line []byte) error, opts ...reader.ScanOption) (int64, error) {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return 0, err
	}
	b := br.NewBatch()
	var n int64
	var line []byte
	for {
		err := br.Next(b)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		for i := 0; i < b.NumRows; i++ {
			line = reader.AppendJSONRow(line[:0], b, i)
			if err := fn(line); err != nil {
				return n, err
			}
			n++
		}
	}
}

func TestConformance(t *testing.T) {
	dir := examples.Dir(t)
	expected, err := filepath.Glob(filepath.Join(dir, "expected", "*.jsn.gz"))
	if err != nil || len(expected) == 0 {
		t.Fatalf("no expected files in %s", dir)
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".jsn.gz")
		orcPath := filepath.Join(dir, name+".orc")
		if _, err := os.Stat(orcPath); err != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "demo-12-zlib" {
				t.Skip("1.9M rows; skipped in -short")
			}
			t.Parallel()
			r := openFile(t, orcPath)
			ef, err := os.Open(exp)
			if err != nil {
				t.Fatal(err)
			}
			defer ef.Close()
			gz, err := gzip.NewReader(ef)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(gz)
			sc.Buffer(make([]byte, 1<<20), 64<<20)
			var row int64
			n, err := forEachRow(r, func(line []byte) error {
				if !sc.Scan() {
					return fmt.Errorf("row %d: expected file has no more rows", row)
				}
				want := sc.Bytes()
				if !bytes.Equal(line, want) {
					if msg := jsonDiff(r.Schema(), line, want); msg != "" {
						return fmt.Errorf("row %d: %s\n got: %s\nwant: %s", row, msg, clip(line), clip(want))
					}
				}
				row++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Scan() {
				t.Fatalf("read %d rows, expected file has more: %s", n, clip(sc.Bytes()))
			}
			if n != r.NumRows() {
				t.Fatalf("read %d rows, footer says %d", n, r.NumRows())
			}
		})
	}
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

// jsonDiff compares two JSON rows as values of the file's schema: numbers
// compare by exact value ("1.50" equals "1.5"), except floats and doubles,
// which Apache's printer writes with fewer significant digits: ours must
// round to the expected text.
func jsonDiff(schema *orc.Schema, got, want []byte) string {
	g, err := decodeJSON(got)
	if err != nil {
		return "our output is not JSON: " + err.Error()
	}
	w, err := decodeJSON(want)
	if err != nil {
		return "expected line is not JSON: " + err.Error()
	}
	return valueDiff("$", schema, g, w)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// significant counts the significant digits of a number's text.
func significant(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(strings.Replace(strings.TrimPrefix(s, "-"), ".", "", 1), "0")
	if s == "" {
		return 1
	}
	return len(s)
}

func valueDiff(path string, t *orc.Schema, g, w any) string {
	if w == nil || g == nil {
		if g != w {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		return ""
	}
	switch t.Kind {
	case orc.Float, orc.Double:
		gv, ok1 := g.(json.Number)
		wv, ok2 := w.(json.Number)
		if !ok1 || !ok2 {
			if reflect.DeepEqual(g, w) {
				return ""
			}
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		bits := 64
		if t.Kind == orc.Float {
			bits = 32 // our text is the shortest float32; round its exact value
		}
		gf, err1 := strconv.ParseFloat(string(gv), bits)
		wf, err2 := strconv.ParseFloat(string(wv), 64)
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("%s: got %s, want %s", path, gv, wv)
		}
		if gf == wf {
			return ""
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(gf, 'g', significant(string(wv)), 64), 64)
		if r != wf {
			return fmt.Sprintf("%s: got %s, want %s", path, gv, wv)
		}
		return ""
	case orc.Struct:
		gv, ok1 := g.(map[string]any)
		wv, ok2 := w.(map[string]any)
		if !ok1 || !ok2 || len(gv) != len(wv) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		for i, name := range t.FieldNames {
			if d := valueDiff(path+"."+name, t.Children[i], gv[name], wv[name]); d != "" {
				return d
			}
		}
		return ""
	case orc.List, orc.Map, orc.Binary:
		gv, ok1 := g.([]any)
		wv, ok2 := w.([]any)
		if !ok1 || !ok2 || len(gv) != len(wv) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		for i := range wv {
			p := fmt.Sprintf("%s[%d]", path, i)
			var d string
			switch t.Kind {
			case orc.List:
				d = valueDiff(p, t.Children[0], gv[i], wv[i])
			case orc.Binary:
				d = valueDiff(p, &orc.Schema{Kind: orc.Long}, gv[i], wv[i])
			default:
				ge, ok1 := gv[i].(map[string]any)
				we, ok2 := wv[i].(map[string]any)
				if !ok1 || !ok2 {
					return fmt.Sprintf("%s: got %v, want %v", p, gv[i], wv[i])
				}
				if d = valueDiff(p+".key", t.Children[0], ge["key"], we["key"]); d == "" {
					d = valueDiff(p+".value", t.Children[1], ge["value"], we["value"])
				}
			}
			if d != "" {
				return d
			}
		}
		return ""
	case orc.Union:
		gv, ok1 := g.(map[string]any)
		wv, ok2 := w.(map[string]any)
		if !ok1 || !ok2 || !reflect.DeepEqual(gv["tag"], wv["tag"]) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		tag, err := strconv.Atoi(fmt.Sprint(wv["tag"]))
		if err != nil || tag < 0 || tag >= len(t.Children) {
			return fmt.Sprintf("%s: bad tag %v", path, wv["tag"])
		}
		return valueDiff(path+".value", t.Children[tag], gv["value"], wv["value"])
	}
	if wv, ok := w.(json.Number); ok {
		gv, ok := g.(json.Number)
		if !ok {
			return fmt.Sprintf("%s: got %v, want number %s", path, g, wv)
		}
		gr, ok1 := new(big.Rat).SetString(string(gv))
		wr, ok2 := new(big.Rat).SetString(string(wv))
		if !ok1 || !ok2 || gr.Cmp(wr) != 0 {
			return fmt.Sprintf("%s: got %s, want %s", path, gv, wv)
		}
		return ""
	}
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("%s: got %v, want %v", path, g, w)
	}
	return ""
}

// TestOtherExamples reads every example without an expected file to its end
// and checks the row count, or checks the named reason it is refused.
func TestOtherExamples(t *testing.T) {
	dir := examples.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	refused := map[string]error{
		"version1999.orc": orc.ErrUnsupported,
	}
	for _, path := range files {
		name := filepath.Base(path)
		if _, err := os.Stat(filepath.Join(dir, "expected", strings.TrimSuffix(name, ".orc")+".jsn.gz")); err == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			r, err := reader.Open(f, st.Size())
			if want, ok := refused[name]; ok {
				if !errors.Is(err, want) {
					t.Fatalf("got %v, want an error wrapping %v", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			n, err := forEachRow(r, func([]byte) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != r.NumRows() {
				t.Fatalf("read %d rows, footer says %d", n, r.NumRows())
			}
		})
	}
}
