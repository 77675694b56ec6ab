package orcarrow_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

// TestExamples reads Apache's example files through Arrow and compares every
// row with the rows Apache's tools print for them (expected/*.jsn.gz).
func TestExamples(t *testing.T) {
	dir := examples.Dir(t)
	expected, _ := filepath.Glob(filepath.Join(dir, "expected", "*.jsn.gz"))
	if len(expected) == 0 {
		t.Fatalf("no expected files in %s", dir)
	}
	for _, exp := range expected {
		name := strings.TrimSuffix(filepath.Base(exp), ".jsn.gz")
		path := filepath.Join(dir, name+".orc")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			if testing.Short() && (name == "demo-12-zlib" || name == "TestOrcFile.testSeek") {
				t.Skip("large; skipped in -short")
			}
			t.Parallel()
			compareExample(t, path, exp)
		})
	}
}

func compareExample(t *testing.T, path, exp string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := openORC(t, data)
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

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rr, err := orcarrow.FromReader(r, orcarrow.WithAllocator(mem), orcarrow.WithScanOptions(reader.WithBatchSize(4096)))
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	s := r.Schema()
	var row int64
	var line []byte
	for rr.Next() {
		rec := rr.RecordBatch()
		validate(t, rec)
		for i := range int(rec.NumRows()) {
			line = appendArrowRow(line[:0], s, rec, i)
			if !sc.Scan() {
				t.Fatalf("row %d: the expected file has no more rows", row)
			}
			if want := sc.Bytes(); !bytes.Equal(line, want) {
				if msg := rowDiff(s, line, want); msg != "" {
					t.Fatalf("row %d: %s\n got: %.600s\nwant: %.600s", row, msg, line, want)
				}
			}
			row++
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	if sc.Scan() {
		t.Fatalf("read %d rows, the expected file has more", row)
	}
	if row != r.NumRows() {
		t.Fatalf("read %d rows, footer says %d", row, r.NumRows())
	}
}

// appendArrowRow writes row i of rec as JSON in the conventions of Apache
// ORC's printer (the expected files), reading the Arrow arrays only.
func appendArrowRow(dst []byte, s *orc.Schema, rec arrow.RecordBatch, i int) []byte {
	if s.Kind != orc.Struct {
		return appendArrowValue(dst, s, rec.Column(0), i)
	}
	dst = append(dst, '{')
	for f, c := range s.Children {
		if f > 0 {
			dst = append(dst, ", "...)
		}
		dst = strconv.AppendQuote(dst, s.FieldNames[f])
		dst = append(dst, ": "...)
		dst = appendArrowValue(dst, c, rec.Column(f), i)
	}
	return append(dst, '}')
}

func appendArrowValue(dst []byte, t *orc.Schema, a arrow.Array, i int) []byte {
	if u, ok := a.(*array.DenseUnion); ok {
		id := u.UnionType().ChildIDs()[u.TypeCode(i)]
		child, j := u.Field(id), int(u.ValueOffset(i))
		if child.IsNull(j) {
			return append(dst, "null"...)
		}
		dst = fmt.Appendf(dst, `{"tag": %d, "value": `, id)
		dst = appendArrowValue(dst, t.Children[id], child, j)
		return append(dst, '}')
	}
	if a.IsNull(i) {
		return append(dst, "null"...)
	}
	switch a := a.(type) {
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i))
	case *array.Int8:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10)
	case *array.Date32:
		dst = append(dst, '"')
		dst = reader.AppendDate(dst, int64(a.Value(i)))
		return append(dst, '"')
	case *array.Float32:
		return appendFloat(dst, float64(a.Value(i)), 32)
	case *array.Float64:
		return appendFloat(dst, a.Value(i), 64)
	case *array.String:
		b, _ := json.Marshal(a.Value(i))
		return append(dst, b...)
	case *array.Binary:
		dst = append(dst, '[')
		for j, c := range a.Value(i) {
			if j > 0 {
				dst = append(dst, ", "...)
			}
			dst = strconv.AppendInt(dst, int64(c), 10)
		}
		return append(dst, ']')
	case *array.Decimal128:
		v := a.Value(i)
		return append(dst, orc.FormatDecimal(orc.Int128{Hi: v.HighBits(), Lo: v.LowBits()}, int(a.DataType().(*arrow.Decimal128Type).Scale))...)
	case *array.Timestamp:
		ns := int64(a.Value(i))
		sec, nanos := ns/1e9, ns%1e9
		if nanos < 0 {
			sec, nanos = sec-1, nanos+1e9
		}
		dst = append(dst, '"')
		dst = reader.AppendTimestamp(dst, sec, int32(nanos))
		return append(dst, '"')
	case *array.Struct:
		dst = append(dst, '{')
		for f := range a.NumField() {
			if f > 0 {
				dst = append(dst, ", "...)
			}
			dst = strconv.AppendQuote(dst, t.FieldNames[f])
			dst = append(dst, ": "...)
			dst = appendArrowValue(dst, t.Children[f], a.Field(f), i)
		}
		return append(dst, '}')
	case *array.Map:
		lo, hi := a.ValueOffsets(i)
		entries := a.ListValues().(*array.Struct)
		dst = append(dst, '[')
		for j := lo; j < hi; j++ {
			if j > lo {
				dst = append(dst, ", "...)
			}
			dst = append(dst, `{"key": `...)
			dst = appendArrowValue(dst, t.Children[0], entries.Field(0), int(j))
			dst = append(dst, `, "value": `...)
			dst = appendArrowValue(dst, t.Children[1], entries.Field(1), int(j))
			dst = append(dst, '}')
		}
		return append(dst, ']')
	case *array.List:
		lo, hi := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := lo; j < hi; j++ {
			if j > lo {
				dst = append(dst, ", "...)
			}
			dst = appendArrowValue(dst, t.Children[0], a.ListValues(), int(j))
		}
		return append(dst, ']')
	}
	panic("appendArrowValue: no case for " + a.DataType().String())
}

func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// rowDiff compares a row with Apache's: Arrow unions have no nulls of
// their own, so a null union matches a union holding a null value (the one
// loss the package documents).
var rowDiff = examples.Differ{NullUnion: true}.RowDiff
