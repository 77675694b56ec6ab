package writer_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// A decimal of another scale that the column cannot hold without rounding
// is an error saying so, with both scales, not that it "does not fit"
// (issue 48, error messages).
func TestDecimalScaleError(t *testing.T) {
	s := orc.MustParseSchema("struct<p:decimal(10,2)>")
	b := orc.NewBatch(s, 1)
	v := b.Cols[0].(*orc.DecimalVector)
	v.Scale = 3
	v.Values = append(v.Values, orc.Int128FromInt64(1234)) // 1.234
	b.NumRows = 1
	w, err := writer.NewWriter(&bytes.Buffer{}, s)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Write(b)
	if err == nil || !errors.Is(err, orc.ErrInvalidBatch) || !strings.Contains(err.Error(), "1.234") ||
		!strings.Contains(err.Error(), "scale 3") || !strings.Contains(err.Error(), "rounding") {
		t.Errorf("1.234 into decimal(10,2): %v; want an error naming the value, its scale 3 and the rounding", err)
	}
}

// The row API says the same of a Decimal field of another scale.
func TestDecimalScaleErrorRows(t *testing.T) {
	type row struct {
		P writer.Decimal `orc:"p,decimal(10,2)"`
	}
	err := writer.WriteFile(t.TempDir()+"/r.orc", []row{{P: writer.Decimal{Unscaled: orc.Int128FromInt64(1234), Scale: 3}}})
	if err == nil || !strings.Contains(err.Error(), "1.234") || !strings.Contains(err.Error(), "scale 3") || !strings.Contains(err.Error(), "rounding") {
		t.Errorf("1.234 into decimal(10,2): %v; want an error naming the value, its scale 3 and the rounding", err)
	}
}
